"""`advisor plan` says the cheaper alternative the memo puts under its headline (issue 25, session 17): in the text
summary before the reasons and in --json as ``alternative``, in both languages; null when there is none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios"


def _answers(tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(json.loads((FIXTURES / f"{name}.json").read_text())["answers"]), encoding="utf-8")
    return str(path)


# the fixture's Hong Kong launch (no ICP yet), priced on mainland lists: since s22-apilead22 no lead on them; since
# s24-api24 a mainland company's Hong Kong service may call a filed mainland provider (the prompts go back to the
# mainland): weighed as cheaper at the estimated volume, the plan kept, the paragraph under the headline says why;
# s25-apivol25 (round 14): the reason it is kept comes first, never the estimate (the API is served from the mainland)
# s25-apikept25 (review 15, q21: "the reason is backwards": the users are in the mainland, where the API is): no
# reason keeps the plan, so the summary starts in Hong Kong on the filed mainland API
# s34-apilead34: the lead names where the API runs ("… served from the mainland"), then its bullets, one a line
@pytest.mark.parametrize(("lang", "lead"), [("en", "Start in Hong Kong on a hosted API"), ("zh_CN", "先在香港")])
def test_the_summary_and_json_carry_the_alternative(tmp_path, capsys, lang, lead):
    answers = _answers(tmp_path, "01_fast_launch_no_icp")  # GPUs in the cloud; a hosted API costs less
    assert main(["plan", "--answers", answers, "--json", "--lang", lang]) == 0
    alt = json.loads(capsys.readouterr().out)["alternative"]
    assert alt.startswith(lead) and "**" not in alt
    assert main(["plan", "--answers", answers, "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert alt in text
    assert text.index(alt) < text.index("\n✗ " if "\n✗ " in text else "\n• ")  # before the reasons


def test_no_alternative_is_null_and_not_printed(tmp_path, capsys):
    answers = _answers(tmp_path, "06_sensitive_medical")  # the data keeps it on its own GPUs
    assert main(["plan", "--answers", answers, "--json", "--lang", "en"]) == 0
    assert json.loads(capsys.readouterr().out)["alternative"] is None
    assert main(["plan", "--answers", answers, "--lang", "en"]) == 0
    assert "cheaper alternative" not in capsys.readouterr().out
