"""A per-token limit on a load whose GPU time is mostly prefill says so (issue 25, round 13, q04: "labels its sizing
'decode-bound' while its own table shows 74 % of GPU time on prefill")."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.plan import prefill_stretch
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import BindingConstraint
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, scenario_plan

KEY = "lead23.binding.prefill_stretch"


@pytest.mark.parametrize("path", sorted(ADVICE_SCENARIOS.glob("*.json")), ids=lambda p: p.stem)
def test_said_exactly_where_a_per_token_limit_sits_on_a_mostly_prefill_load(path: Path) -> None:
    r = scenario_plan(path)
    bc, share = r.binding_constraint, r.costs.prefill_gpu_share
    # s24-gpuchoice24: said by the sentence itself (it opens on prefill compute: variant "…prefill"), or by the note
    # after a reading that has no such variant (unprobed levels)
    said = bc is not None and (bc.variant.endswith("prefill") or any(t.get("tr") == KEY for t in bc.then))
    expected = (bc is not None and bc.kind == "decode_bandwidth" and not r.costs.per_job and share is not None
                and share >= prefill_stretch.MOSTLY)
    assert said == expected, (path.stem, bc and bc.kind, share)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q04_names_the_cost_tables_prefill_share_beside_the_limit(lang):
    r = advice_plan("q04_securities_h20_l20_fleet")
    pct = round(r.costs.prefill_gpu_share * 100)
    memo = render_memo_markdown(r, lang)
    assert (f"({pct} %, the cost table's split)" if lang == "en" else f"（{pct} %，成本表中的比例）") in memo
    assert (f"prefill {pct} %" if lang == "en" else f"预填充 {pct} %") in memo  # the cost row it refers to


def test_a_decode_heavy_load_or_a_batch_job_is_left_alone():
    bc = BindingConstraint(kind="decode_bandwidth", figures={})
    assert prefill_stretch.note(bc, False, 0.3) is bc and prefill_stretch.note(bc, True, 0.8) is bc
    assert prefill_stretch.note(BindingConstraint(kind="kv_memory"), False, 0.9).then == []
    led = prefill_stretch.note(bc, False, 0.6)  # s24-gpuchoice24: the sentence opens on prefill, with the share
    assert led.variant == "prefill" and led.figures["pct"] == 60 and led.then == []
    unprobed = BindingConstraint(kind="decode_bandwidth", variant="unprobed", figures={})
    assert prefill_stretch.note(unprobed, False, 0.6).then[-1] == {"tr": KEY, "pct": 60}
