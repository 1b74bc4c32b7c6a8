"""s38-burst40 (blind review 29, q39: "the memo is far too long and repetitive"; "a newcomer cannot tell which is the
plan"): what page 1 or another finding already says is not said again, and the per-replica cap is said once."""

from __future__ import annotations

import pytest

from advisor.plan import fleet_disagree, unbought_rows
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned
from tests.support.weak_prices44 import weak_count

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"
FLEETS = (Q39, "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q33_office_4090d_fleet")


def _price_table(memo: str) -> list[str]:
    part = memo.split("Prices used", 1)[1].split("Grades:", 1)[0]
    return [x for x in part.splitlines() if x.startswith("| ") and not x.startswith("| Offer")]  # less the header


@pytest.mark.parametrize("name", FLEETS)
def test_no_purchase_row_for_cards_nothing_buys_and_the_count_reads_the_table(name):
    r = planned(advice_answers(name))
    assert unbought_rows.unbought(r.deployment_form, r.costs, r.answers)
    memo = render_memo_markdown(r, "en")
    rows = _price_table(memo)
    assert rows and not [x for x in rows if "| purchase |" in x]
    # the purchase row is still in the plan's own prices (the JSON keeps every row used)
    assert any(p.kind == "capex" and p.gpu == r.hardware.gpu for p in r.costs.prices)
    said = weak_count(memo, "en")
    if said:
        assert said[1] == len(rows), (name, said[2], len(rows))


@pytest.mark.parametrize("lang", LANGS)
def test_q39_says_the_fleets_load_and_its_n_plus_1_once(lang):
    r = planned(advice_answers(Q39))
    warm = r.finding("scaling.warm_replica")
    assert warm is not None and warm.detail_key == "burst40_warm.fleet_rented.detail"
    assert warm.detail_in(lang) == r.finding("scaling.warm_replica").detail_in(lang)
    assert str(warm.params["steady"]) not in warm.detail_in(lang)  # today's load: page 1's fleet reason says it
    assert r.finding("sizing.hybrid_server_down") is not None and r.finding("sizing.redundancy") is None


@pytest.mark.parametrize("lang", LANGS)
def test_q39_says_the_cap_once(lang):
    r = planned(advice_answers(Q39))
    f = r.finding("sizing.fleet_load_disagrees")
    cap = r.capacity.max_concurrency_per_replica
    assert f is not None and f.detail_key == fleet_disagree.SAID_IN_SIZING
    assert "--max-num-seqs" not in f.detail_in(lang)
    memo = render_memo_markdown(r, lang)
    assert memo.count(f"--max-num-seqs {cap}") >= 1
    # the sizing table's row names the cap as the plan's and the curve's figure as its ceiling
    row = next(x for x in memo.splitlines() if x.startswith("| " + ("Per replica" if lang == "en" else "达标前提")))
    assert ("the serve command's cap and the plan's" if lang == "en" else "也是方案所用") in row
