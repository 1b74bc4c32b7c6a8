"""The plan's inline Markdown (a ``[name](https://…)`` link, a `code` span) as Qt rich text, escaped first.

The plan's texts are written for the memo (Markdown): a fix that cites a model card or names a chat-template switch
carries a link or a code span, which the wizard's rich-text card showed as raw brackets and backticks. Everything is
HTML-escaped before the two patterns are turned into tags, so no other markup can pass through.
"""

from __future__ import annotations

import html
import re

# only http(s) targets become links; anything else stays as the escaped text it was
_LINK = re.compile(r"\[([^\]\[]+)\]\((https?://[^()\s]+)\)")
_CODE = re.compile(r"`([^`]+)`")


def inline_html(text: str) -> str:
    """``text`` escaped for Qt rich text, its Markdown links and code spans as ``<a>`` and ``<code>``."""
    out = html.escape(text, quote=True)
    out = _LINK.sub(lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', out)
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)


__all__ = ["inline_html"]
