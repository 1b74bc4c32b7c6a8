"""The line-host quote step says which rows stand in for the host's price, as the cost basis does: a marketplace's
rows (RunPod) are not "US cloud rows", and a region's own cloud rows carry no uplift (s18-ui18; q22, q43, q13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan.price_rows import MARKETPLACE
from tests.support.planned import ADVICE_SCENARIOS, planned, scenario_answers

SCENARIOS = sorted(ADVICE_SCENARIOS.glob("q*.json"))
US_WORDS = {"en": ("US cloud", "US GPU"), "zh_CN": ("美国云", "美国 GPU")}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: Path(p).stem[:3])
def test_the_line_host_step_names_the_rows_it_stands_in_with(path, lang):
    r = planned(scenario_answers(path))
    steps = [s for s in r.next_steps if s.key == "prices16.next.quotes_line_host"]
    if not steps:
        return
    text = steps[0].text_in(lang)
    # the launch node's rows: a mainland phase after a move (s19-cost19, q21) is priced from its own rows apart
    after_move = r.costs.phased is not None and r.region != "mainland"
    rented = [p for p in r.costs.prices if p.kind in ("on_demand", "reserved") and not p.user_quote
              and not (after_move and p.region == "mainland")]
    assert rented
    if all(p.region == r.region for p in rented):  # the region's own rows: no uplift, not US rows
        assert translate(lang, f"plan.region.{r.region}") in text.split("（" if lang == "zh_CN" else "(", 1)[1]
        assert not any(w in text for w in US_WORDS[lang])
        assert not any(w in r.costs.price_basis.text_in(lang) for w in US_WORDS[lang])  # the cost basis alike
        return
    marketplace = all(p.provider == MARKETPLACE for p in rented)
    kind = translate(lang, "rows18.basis.kind." + ("marketplace" if marketplace else "cloud"))
    assert kind in text
    other = translate(lang, "rows18.basis.kind." + ("cloud" if marketplace else "marketplace"))
    assert other not in text
    # the same words as the cost basis paragraph above it
    assert kind in r.costs.price_basis.text_in(lang)


def test_the_three_cases_occur():
    """The property above is not vacuous: the scenarios hold a marketplace, a cloud and an own-region stand-in."""
    seen = set()
    for path in SCENARIOS:
        r = planned(scenario_answers(path))
        if any(s.key == "prices16.next.quotes_line_host" for s in r.next_steps):
            pb = r.costs.price_basis
            seen.add("own" if not pb.stand_in_region else "marketplace" if pb.stand_in_marketplace else "cloud")
    assert seen == {"own", "marketplace", "cloud"}
