"""A TP-n replica is priced only on an instance holding n GPUs of the part in one machine (blind review 25, q25:
"6 × A10 (TP2) … at AWS g5.xlarge's list price cannot work: g5.xlarge has one GPU")."""

from __future__ import annotations

import pytest

from advisor.plan import cost as costmod
from advisor.plan import gpu_choice, instance_fit
from advisor.plan.data import PriceBook, builtin_rows
from advisor.plan.result import PriceRow


def _row(rid: str, vm: list[int] | None, low: float, *, quote: bool = False, region: str = "hong_kong") -> PriceRow:
    return PriceRow(id=rid, offer=rid, gpu="a10", kind="on_demand", region=region, low=low, high=low,
                    unit="USD/GPU-hour", date="2026", source="test", grade="B", vm_gpus=vm, provider="hyperscaler",
                    user_quote=quote)  # fmt: skip


def test_every_built_in_sized_row_holds_what_its_offer_says() -> None:
    """A row priced per instance names its GPUs per VM, and the offer's own "N × " agrees with it: each size as
    "N × …", or all of them listed before one "×" ("1, 2, 4 or 8 × A100 80GB", s39-sgp's a2-ultragpu row)."""
    for r in builtin_rows():
        if r.vm_gpus:
            sizes = [str(n) for n in r.vm_gpus]
            listed = (", ".join(sizes[:-1]) + " or " + sizes[-1] + " × ") if len(sizes) > 1 else ""
            each = all(f"{n} × " in r.offer or f"{n}×" in r.offer for n in sizes)
            assert each or (listed and listed in r.offer), r.id


@pytest.mark.parametrize("tp", [1, 2, 4, 8])
def test_fitting_rows_hold_the_replica(tp: int) -> None:
    rows = [_row("one", [1], 1.5), _row("four", [4], 2.2), _row("eight", [8], 3.0), _row("survey", None, 2.0)]
    got = instance_fit.fitting(rows, tp)
    assert all(instance_fit.holds(r, tp) for r in got)
    sized = [r for r in got if r.vm_gpus]
    # the smallest instance that holds the replica, never a larger one beside it
    assert len(sized) == 1 and min(sized[0].vm_gpus or [0]) == min(s for s in (1, 4, 8) if s >= tp)
    assert any(r.id == "survey" for r in got)  # sold by the GPU: any TP


def test_a_quote_always_stays() -> None:
    q = _row("quote", [1], 0.5, quote=True)
    assert q in instance_fit.fitting([q, _row("four", [4], 2.2)], 4)


@pytest.mark.parametrize("region", ["hong_kong", "japan", "europe", "us_east"])
def test_a10_tp2_is_priced_on_a_multi_gpu_instance(region: str) -> None:
    book = PriceBook.build(None)
    fx = float(book.fx()["cny_per_usd"])
    one = costmod.cloud_price(book, "a10", region, fx, 1)
    two = costmod.cloud_price(book, "a10", region, fx, 2)
    assert one is not None and two is not None
    assert all(max(r.vm_gpus or [99]) == 1 for r in one[2])
    assert all(max(r.vm_gpus or [99]) >= 2 for r in two[2])
    assert two[0] > one[0]  # g5.12xlarge costs more a GPU than g5.xlarge in every region on file


def test_layout_rounds_to_the_instance_priced() -> None:
    """A TP2 A10 replica in Hong Kong comes in the 4-GPU VMs its price is for, two replicas a VM."""
    book = PriceBook.build(None)
    rows = gpu_choice.price_rows(book, "a10", "hong_kong", 2)
    assert instance_fit.vm_sizes(rows) == [4]
    assert instance_fit.vm_sizes(gpu_choice.price_rows(book, "a10", "hong_kong", 1)) == [1]
