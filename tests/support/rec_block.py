"""The recommendation on page 1 as one block: its first line and the paragraphs that follow it before the reasons
(s42-hyb, blind review 35, q39: a long recommendation is said in short paragraphs, not one run-on line)."""

from __future__ import annotations

STOPS = ("What decides it", "决定这个结论", "|", "## ")


def recommendation_block(markdown: str, start: str = "**") -> str:
    """The lines from the first one starting with ``start`` up to the reasons (or a table, or the next section)."""
    lines = markdown.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(start))
    out = [lines[i]]
    for line in lines[i + 1:]:
        if line.startswith(STOPS):
            break
        out.append(line)
    return "\n".join(out).rstrip("\n")
