"""A colocated purchase says why it is above cards × the listed price (issue 25, blind re-check 12b).

Two reviewers redid q07's and q11's sums: "the self-purchase line (¥374k–529k for 4 L20) does not match the listed
¥85k–115k per card × 4 = ¥340k–460k, and the extra 10–15 % is not explained". The engine multiplies a rack's
purchase by the hidden-capex factor of the price book (transceivers, cabling, switches, insurance); the memo's
purchase row now names that factor, and its figures are the cards at the listed price times that factor. Checked on
q26 and q31, which buy: since s23-pages23 the buy-and-colocate row is left out beside renting for a team with basic
or no operations (q07, q11).
"""

from __future__ import annotations

import re

import pytest

from advisor.plan.data import factor_range
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, scenario_memo

NUM = r"[\d,]+"
PURCHASE_ROW = {"en": re.compile(rf"purchase ({NUM})–({NUM}) CNY \(the GPUs at the listed price × ([\d.]+)–([\d.]+):"),
                "zh_CN": re.compile(rf"购置 ({NUM})–({NUM}) CNY（GPU 按所列单价 × ([\d.]+)–([\d.]+)：")}
UNIT_ROW = re.compile(rf"\| purchase \| ({NUM})–({NUM}) CNY/GPU \|")  # the "Prices used" table (en)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("name", ["q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"])
def test_the_purchase_row_is_the_cards_at_the_listed_price_times_the_named_factor(name: str, lang: str) -> None:
    path = ADVICE_SCENARIOS / f"{name}.json"
    memo = scenario_memo(path, lang)
    found = PURCHASE_ROW[lang].search(memo)
    assert found, f"{path.stem} {lang}: the purchase row does not name its factor"
    capex_lo, capex_hi = (float(found.group(i).replace(",", "")) for i in (1, 2))
    f_lo, f_hi = float(found.group(3)), float(found.group(4))
    assert (f_lo, f_hi) == factor_range("hidden_capex")
    unit = UNIT_ROW.search(scenario_memo(path, "en"))
    assert unit, f"{path.stem}: no purchase price row"
    unit_lo, unit_hi = (float(unit.group(i).replace(",", "")) for i in (1, 2))
    owned = advice_plan(path.stem).costs.bare_metal_capex
    assert owned is not None
    gpus = round(owned.low / (unit_lo * f_lo))  # the cards bought: a whole number, or the factor is not the one used
    assert gpus >= 1 and abs(owned.low - gpus * unit_lo * f_lo) <= 0.01 * owned.low
    assert abs(capex_lo - gpus * unit_lo * f_lo) <= 1000 and abs(capex_hi - gpus * unit_hi * f_hi) <= 1000
