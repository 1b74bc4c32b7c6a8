"""A plan whose asked GPUs cannot be had there takes the replacement's setup as its body (q19: H100 on the mainland →
L20): the "Layouts tried" sentence must not then describe the asked GPUs as "the one chosen" (blind review)."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_the_layouts_tried_are_never_the_asked_gpus_beside_the_replacement():
    data = json.loads((ROOT / "bench" / "advice_scenarios" / "q19_export_controlled_h100_mainland.json").read_text("utf-8"))
    r = make_plan(answers_from_dict(data["answers"]))
    assert r.as_asked_hardware is not None and r.as_asked_hardware.gpu != r.hardware.gpu  # the replacement is the body
    asked = r.as_asked_hardware.gpu_name or ""
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(r, lang)
        lines = [x for x in memo.splitlines() if "Layouts tried" in x or "试过的布局" in x]
        assert not any(asked in x for x in lines), (lang, lines)
    if r.layouts_tried is not None:
        assert asked not in r.layouts_tried.text_in("en")
