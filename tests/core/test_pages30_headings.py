"""Every section of a memo starts on its own line (issue 25, session 30): a Markdown heading with no blank line
before it is read as the last line of the paragraph above ("## 7. Findings" printed inside section 6 in the
q06, q15, q16, q27 and q28 memos, where section 6 ended on a template line whose block tag ate its newline)."""

from __future__ import annotations

import pytest

from advisor.plan.memo_headings import headings_apart
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo

SCENARIOS = sorted(ADVICE_SCENARIOS.glob("q*.json"))


def _headings_run_on(memo: str) -> list[str]:
    """The headings (outside code blocks) whose line above is not blank."""
    lines = memo.split("\n")
    in_code = False
    out = []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#") and line.lstrip("#").startswith(" ") and i and lines[i - 1].strip():
            out.append(line)
    return out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem[:3])
def test_every_heading_of_every_advice_memo_follows_a_blank_line(path, lang):
    memo = scenario_memo(path, lang)
    assert memo.count("\n## ") >= 9  # the memo's sections are there to check
    assert _headings_run_on(memo) == []


def test_a_heading_right_after_a_paragraph_is_set_apart_but_a_comment_in_code_is_not():
    text = "Nothing measured yet.\n## 7. Findings\n\n```\n# a shell comment\nvllm serve x\n```\n### Quality"
    assert headings_apart(text) == ("Nothing measured yet.\n\n## 7. Findings\n\n```\n# a shell comment\n"
                                    "vllm serve x\n```\n\n### Quality")
    assert _headings_run_on(headings_apart(text)) == []
