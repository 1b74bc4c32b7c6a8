"""A Markdown heading stands apart from the block before it (issue 25, session 30).

A template line that ends in a block tag loses its newline (``trim_blocks``), so a section whose last part was
left out ran straight into the next ``## `` heading: Markdown then reads the heading as the paragraph's last line
("## 7. Findings" printed inside section 6). The template is fixed where that happened; this makes every section
boundary safe, whatever part is left out next time."""

from __future__ import annotations

import re

_HEADING = re.compile(r"#{1,6} ")
_FENCE = re.compile(r"\s*```")


def headings_apart(text: str) -> str:
    """``text`` with a blank line before every heading outside a code block (``# …`` in a shell command is code)."""
    out: list[str] = []
    in_code = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and _HEADING.match(line) and out and out[-1].strip():
            out.append("")
        out.append(line)
    return "\n".join(out)
