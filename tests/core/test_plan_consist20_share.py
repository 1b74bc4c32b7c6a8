"""A price row that is the per-GPU share of an instance sold only whole (AWS's 8 × H200 / A100 in Tokyo and
Singapore) says so in the cost basis where the plan rents fewer of that GPU (issue 25, s20-consist20: the plan
rented 1-GPU VMs at AWS's per-GPU share, an offer AWS does not make there)."""

from __future__ import annotations

import pytest

from advisor.plan.data import builtin_rows
from advisor.plan.price_basis import PriceBasis
from advisor.plan.price_rows import _per_gpu_share
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _row(row_id: str):
    return next(r for r in builtin_rows() if r.id == row_id)


def test_every_row_sold_whole_carries_its_instance_size():
    whole = [r for r in builtin_rows() if "sold as the whole" in r.offer]
    assert whole and all(r.whole_instance_gpus == 8 for r in whole)
    assert _row("h100.aws_tokyo").whole_instance_gpus is None  # AWS sells a 1 × H100 p5.4xlarge there


@pytest.mark.parametrize("rented, said", [(2, True), (7, True), (8, False), (16, False), (0, False)])
def test_the_share_is_said_only_where_fewer_than_the_instance_are_rented(rented, said):
    out = PriceBasis()
    _per_gpu_share(out, [_row("h200.aws_tokyo")], {"h200-141g": rented})
    assert (out.share_instance_gpus is not None) is said
    if said:
        assert out.share_gpus == rented and out.share_instance_gpus == 8
        assert "8" in out.text_in("en") and str(rented) in out.text_in("zh_CN")
    # a row sold by the card never is, whatever the count
    other = PriceBasis()
    _per_gpu_share(other, [_row("l40s.aws_tokyo")], {"l40s": rented})
    assert other.share_instance_gpus is None and other.text_in("en") == ""


@pytest.mark.parametrize("lang", LANGS)
def test_q23_on_h200_rents_whole_8_gpu_instances_not_the_share(lang):
    """Since s36-whole38 (blind review 28, q37) a part priced only on the share rents whole instances at the full
    rate (``instance_fit.whole_only``): the share is no longer said, the whole-server finding says why."""
    answers = advice_answers("q23_japan_game_npc") | {"gpu_constraint": ["h200-141g"]}
    r = planned(answers)
    pb = r.costs.price_basis
    assert pb is None or pb.share_instance_gpus is None
    assert r.costs.gpus >= 8 and r.costs.gpus % 8 == 0
    f = r.finding("gpu.whole_servers")
    assert f is not None and "8" in f.detail_in(lang)
