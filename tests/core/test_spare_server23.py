"""Bought PCIe cards with a spare server: the server size that buys the fewest cards (issue 25, re-check 12b).

q31's reviewers: "the plan buys 16 L20s when about 9 are needed; the L20 is a plug-in card, so the servers don't have
to be full 8-card boxes". Eight single-card replicas carry q31's peak; N+1 is a whole server (one failure takes its
cards down, as q39's reviewers asked), so two 8-card servers bought 16 cards where three 4-card servers (12 cards)
carry the peak with one down. Servers under four cards are not weighed (chassis, power supplies, rack units).
"""

from __future__ import annotations

import pytest

from advisor.plan import node_shapes
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, scenario_memo

PCIE_OWNED = node_shapes.Shape("pcie", (1, 2, 4, 8), False, "form_factor", owned=True)


@pytest.mark.parametrize("load", range(1, 25))
@pytest.mark.parametrize("tp", [1, 2, 4])
def test_a_spare_server_is_sized_to_buy_the_fewest_cards(load, tp):
    lay = node_shapes.layout("l20-48g", tp, load, PCIE_OWNED, spare=1)
    for size in (4, 8):
        if size < tp:
            continue
        per = size // tp
        other = (-(-load // per) + 1) * size  # load servers rounded up, plus the spare server
        assert lay.total_gpus <= other, (load, tp, size)
    assert lay.unit_gpus >= min(4, max(tp, load * tp))  # never a server under four cards, unless one holds it all
    # one server down, the rest still carry the load
    assert (lay.units - 1) * (lay.unit_gpus // tp) >= load


def test_without_a_spare_the_fewest_servers_hold_the_load():
    """No N+1: as few servers as hold the load (the rule before), so a 6-replica load is one 8-card server."""
    lay = node_shapes.layout("l20-48g", 1, 6, PCIE_OWNED, spare=0)
    assert (lay.units, lay.unit_gpus) == (1, 8)


def test_q31_buys_three_four_card_servers():
    r = advice_plan("q31_icp_filed_hosting_move")
    # s28-own28 re-argued: q31 rents now and buys these servers on the quotes (``cloud_then_bare_metal``); the
    # servers it would buy are still three of four cards, N+1 inside them
    assert r.deployment_form in ("bare_metal", "cloud_then_bare_metal") and r.hardware.gpu == "l20-48g"
    # s29-gpu29 re-argued: q31 now runs TP2 on the same cards (one L20 a replica held 4 full-context requests
    # against the 5 it carried, blind review 18; test_kvfit29); still 12 cards in three servers of four
    assert r.hardware.total_gpus == 12 and r.hardware.gpus_per_replica == 2
    memo = scenario_memo(ADVICE_SCENARIOS / "q31_icp_filed_hosting_move.json", "en")
    assert "3 servers of 4 × NVIDIA L20 48GB" in memo
    assert "2 servers carry the peak, plus 1 spare server" in memo
