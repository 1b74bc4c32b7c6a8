"""Two nodes whose serve commands refuse requests at different lengths (blind review 36, q05: "--max-model-len 8192
on the mainland, 4096 in Singapore … Singapore users will have longer requests refused: align them or say why").

Each node's command takes the longest context its own KV cache holds every request a replica runs at once
(``served_context38``); a node that runs more at once on its card keeps the context the plan is sized for. The memo
says so under the commands, with both limits, so the difference reads as the reason it is, not an oversight."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from advisor.i18n import translate

_FLAG = {"len": re.compile(r"--max-model-len (\d+)"), "seqs": re.compile(r"--max-num-seqs (\d+)")}


def _flag(command: str | None, name: str) -> int | None:
    got = _FLAG[name].search(command or "")
    return int(got.group(1)) if got else None


def note(nodes: list[Any], commands: list[str | None], where: Callable[[Any], str], lang: str) -> str:
    """"The node in Singapore refuses requests past 4,096 tokens, the mainland node past 8,192: …" where the nodes'
    commands set different limits; "" where they agree or a limit is not set."""
    limits = [(_flag(cmd, "len"), _flag(cmd, "seqs"), node) for node, cmd in zip(nodes, commands, strict=False)]
    if len(limits) < 2 or any(n is None for n, _, _ in limits):
        return ""
    short = min(limits, key=lambda x: x[0] or 0)
    long = max(limits, key=lambda x: x[0] or 0)
    if short[0] == long[0]:
        return ""
    return translate(lang, "num44.nodes.context", short_node=where(short[2]), long_node=where(long[2]),
                     short=f"{short[0]:,}", long=f"{long[0]:,}", seqs=short[1] or 1)


__all__ = ["note"]
