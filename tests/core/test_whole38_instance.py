"""A part priced only from rows that are the per-GPU share of an instance sold only whole (AWS p4de.24xlarge,
8 × A100 80GB) is rented as whole instances at the full rate, never as the share: the ranking and the budget see
that cost (issue 25, blind review 28, q37: "4 one-GPU VMs" of A100 costed at an eighth of p4de each, "7,539–9,838
USD … within budget", where two whole instances cost about 48,000 USD a month before overheads)."""

from __future__ import annotations

import pytest

from advisor.plan import instance_fit
from advisor.plan.data import builtin_rows
from tests.support.planned import advice_answers, planned

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")
HOURS = 730


def _row(row_id: str):
    return next(r for r in builtin_rows() if r.id == row_id)


def test_whole_only_is_the_instance_size_only_where_every_row_is_a_share():
    p4de = _row("a100_80.aws_singapore")
    assert instance_fit.whole_only([p4de]) == p4de.whole_instance_gpus == 8
    # a row sold by the GPU beside it, or a user's quote, prices smaller units: no whole-instance rounding
    by_gpu = next(r for r in builtin_rows() if r.gpu == p4de.gpu and not r.whole_instance_gpus)
    assert instance_fit.whole_only([p4de, by_gpu]) is None
    assert instance_fit.whole_only([p4de.model_copy(update={"user_quote": True})]) is None
    assert instance_fit.whole_only([]) is None


@pytest.mark.parametrize("lang", LANGS)
def test_a_share_only_part_is_costed_at_whole_instances_never_below_one(lang):
    """q37 held to the A100: its only price row in Singapore (RunPod left out for the finance sector) is p4de's
    share, so the plan rents whole 8-GPU instances (N+1: a second one), and its month on demand is at least the
    instances' full rate, said as such in the whole-server finding."""
    from tests.support.l4_by_card import planned_by_card

    p4de = _row("a100_80.aws_singapore")
    # s39-sgp (issue #25): Google Cloud's a2-ultragpu-1g prices Singapore's A100 80GB one GPU at a time now; the
    # share-only case is read where p4de is its only row (``l4_by_card`` leaves that row out), as written
    r = planned_by_card(advice_answers("q37_sg_fintech_public") | {"gpu_constraint": ["a100-sxm-80g"]})
    lay = r.hardware.layout
    assert r.hardware.gpu == p4de.gpu and lay is not None
    assert lay.basis == "whole_instance" and lay.unit_gpus == 8 and r.hardware.total_gpus % 8 == 0
    assert lay.units >= 2  # one instance carries the peak, the N+1 spare is a second whole one
    assert r.costs.cloud_on_demand_monthly.low >= 0.999 * lay.units * 8 * p4de.low * HOURS
    # the per-GPU share is no longer said: the plan rents the whole instance
    pb = r.costs.price_basis
    assert pb is None or pb.share_instance_gpus is None
    f = r.finding("gpu.whole_servers")
    assert f is not None and "8" in f.detail_in(lang)
    assert f.params["vm"] == {"tr": "whole38_.rule.whole_instance", "n": 8}


@pytest.mark.parametrize("lang", LANGS)
def test_q37_no_longer_rents_the_a100_at_a_share_of_p4de(lang):
    """Left to choose, q37 does not plan one-GPU A100 VMs priced at the share: whatever it rents, no price row it
    is costed on is the share of an instance larger than its units."""
    r = planned(advice_answers("q37_sg_fintech_public"))
    lay = r.hardware.layout
    assert lay is not None
    shares = [x for x in builtin_rows() if x.gpu == r.hardware.gpu and x.region == "singapore"
              and x.whole_instance_gpus and x.whole_instance_gpus > lay.unit_gpus]
    only_shares = shares and all(x.whole_instance_gpus for x in builtin_rows()
                                 if x.gpu == r.hardware.gpu and x.region == "singapore")
    assert not only_shares
    pb = r.costs.price_basis
    assert pb is None or pb.share_instance_gpus is None


def test_a_smaller_instance_in_the_region_is_priced_not_the_whole_ones_share():
    """s39-sgp (issue #25): beside p4de (sold only whole) Singapore has Google Cloud's a2-ultragpu-1g, one A100 80GB:
    a one-GPU replica is priced on it (``instance_fit.fitting``: the smallest instance that holds the replica), never
    at an eighth of p4de, which it could not rent on its own; an 8-GPU replica may take either."""
    from advisor.plan import instance_fit

    p4de, gcp = _row("a100_80.aws_singapore"), _row("a100_80.gcp_singapore")
    assert instance_fit.fitting([p4de, gcp], 1) == [gcp]
    assert instance_fit.fitting([p4de, gcp], 8) == [p4de, gcp]
    assert instance_fit.fitting([p4de], 1) == [p4de]  # alone it stays (rented whole: ``whole_only``)
    r = planned(advice_answers("q37_sg_fintech_public"))
    assert r.hardware.gpu == gcp.gpu and r.hardware.tp == 1
    rows = {p.id for p in r.costs.prices if p.gpu == gcp.gpu and p.kind == "on_demand"}
    assert rows == {gcp.id}
