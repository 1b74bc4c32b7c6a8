"""Printed factors multiply out to the printed total; a room check names all servers' draw (issue 25, blind
reviews 21 and 22: q05/q16 "2 × 0.61 × 730 × 14.6 × 1.05 gives ¥13,653, not the ¥13,681 printed"; q03 "'the
server's 4.2 kW' is the two servers together")."""

from __future__ import annotations

import math
from types import SimpleNamespace

from advisor.plan import power_tariff
from advisor.plan.printed_factors import TOL, fit, sig
from advisor.plan.result import render


def _ends(text: str) -> tuple[float, float]:
    a, _, b = text.replace(",", "").partition("–")
    return float(a), float(b or a)


def test_the_printed_factors_reproduce_the_exact_product_where_three_figures_would_not():
    ranges = [(14.63, 14.63), (0.61, 0.75), (1.05, 1.15), (8.38, 18.16), (1.0513, 1.1548)]
    for combo in ([0, 1, 2], [3, 4], [0, 4]):
        exact = [ranges[i] for i in combo]
        printed = [_ends(t) for t in fit(*exact)]
        for end in (0, 1):
            product = math.prod(p[end] for p in printed)
            assert abs(product / math.prod(e[end] for e in exact) - 1) <= TOL
    # the q05 case: three figures each leave the product 0.2 % short; the fitted price does not
    three = 14.6 * 0.61 * 1.05
    assert abs(three / (14.63 * 0.61 * 1.05) - 1) > TOL
    assert fit((14.63, 14.63), (0.61, 0.75), (1.05, 1.15))[0] == "14.63"


def test_a_factor_that_three_figures_print_exactly_keeps_three():
    assert fit((2.23, 2.23), (1.05, 1.15)) == ["2.23", "1.05–1.15"]
    assert sig(1234.5, 3) == "1,234" and sig(14.630, 4) == "14.63"


def test_one_value_at_both_ends_is_one_figure_even_where_only_one_end_needs_the_digit():
    # q29: the low end's product needed 14.63, the high end's factors cancelled at 14.6: "14.63–14.6" printed
    exact = [(14.63, 14.63), (1.05, 1.15), (124.23, 125.73)]
    printed = [_ends(t) for t in fit(*exact)]
    assert fit(*exact)[0] == "14.63"
    for end in (0, 1):  # the other factors fitted again around the finer price: each end still multiplies out
        assert abs(math.prod(p[end] for p in printed) / math.prod(e[end] for e in exact) - 1) <= TOL


class _Row(SimpleNamespace):
    pass


def _book() -> SimpleNamespace:
    row = _Row(user_quote=False, region="us", unit="USD/kWh", low=0.06, high=0.12)
    return SimpleNamespace(find=lambda gpu, kind: [row])


def test_the_room_check_names_every_server_and_each_ones_draw():
    two = power_tariff.stand_in(_book(), "l20", "mainland_china", 7.2, lambda v: f"¥{v:.2f}", kw=4.18, servers=2)
    one = power_tariff.stand_in(_book(), "l20", "mainland_china", 7.2, lambda v: f"¥{v:.2f}", kw=2.09)
    assert two is not None and one is not None
    for lang in ("en", "zh_CN"):
        said = render(lang, two["room"]["tr"], two["room"])
        assert "4.2" in said and "2.1" in said and "2" in said
        assert "2.1" in render(lang, one["room"]["tr"], one["room"])
    assert "server's" not in render("en", two["room"]["tr"], two["room"])
