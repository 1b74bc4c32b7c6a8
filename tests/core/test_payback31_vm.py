"""A purchase on the team's own network is paid back against an always-on cloud VM, not a GPU marketplace's hourly
containers (blind review 20, q02: "an always-on service on the office LAN cannot run on a marketplace container …
the fair yardstick is an always-on cloud GPU VM"; advisor.plan.vm_yardstick)."""

from __future__ import annotations

import pytest

from advisor.plan.data import PriceBook
from advisor.plan.vm_yardstick import VM_PROVIDERS
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, scenario_memo

Q02 = "q02_office_lan_small_design_agency"


def _row(costs, row_id):
    [row] = [r for r in costs.prices if r.id == row_id]
    return row


def test_q02_pays_back_against_a_vm_not_the_marketplace_rent() -> None:
    c = advice_plan(Q02).costs
    assert c.payback_vm is not None
    vm = _row(c, c.payback_vm["offer_id"])
    # the yardstick is a data centre's VM with a sourced price, in the plan's own region
    assert vm.provider in VM_PROVIDERS and vm.grade != "U" and vm.region == "mainland"
    # the printed rent of the card itself is a marketplace's, and much cheaper: not the comparator
    assert c.cloud_monthly is not None and c.payback_vm["low"] > c.cloud_monthly.high
    # the expert's claim (must-mention m3): the workstation repays itself within a year against that rent
    assert c.break_even_months is not None and c.break_even_months.high is not None
    assert c.break_even_months.high <= 12


@pytest.mark.parametrize("lang, reason, assumed, vm", [
    ("en", "bought because no rent keeps the service on your office LAN", "Assumed yes", "Alibaba Cloud"),
    ("zh_CN", "选择自购，是因为任何租用都不能让服务留在办公室局域网内", "这里假定可以", "阿里云"),
])
def test_q02_memo_names_the_vm_the_lan_reason_and_the_assumed_one_off_payment(lang, reason, assumed, vm) -> None:
    memo = scenario_memo(ADVICE_SCENARIOS / f"{Q02}.json", lang)
    page_one = memo.split("\n## ")[1]  # section 1, the decision
    assert reason in page_one and assumed in page_one
    # s39-box41 (blind review 31, q02): page 1's cell is the price and one line of reason; the VM is named in the
    # cost table's payback row, which it decides, and in the price table
    assert "gn7i" not in page_one and memo.count("gn7i") >= 2


@pytest.mark.parametrize("name", [
    "q17_capex_only_university_lab",  # rents the same L20 at a domestic cloud: already like for like
    "q06_l20_batch_72h_claims",  # a batch job: no service to keep up
    "q33_office_4090d_fleet",  # the office's own 4090 D: nothing bought, nothing paid back
])
def test_no_vm_yardstick_where_the_printed_rent_is_the_comparator(name) -> None:
    assert advice_plan(name).costs.payback_vm is None


def test_an_internet_service_keeps_the_printed_rent() -> None:
    """Reached from the internet, the service is not tied to the team's network: the rule does not apply."""
    assert advice_plan(Q02, reach="internet").costs.payback_vm is None


def test_placeholder_vm_rows_are_no_yardstick() -> None:
    from advisor.plan.vm_yardstick import find

    book = PriceBook.build()
    got = find(book.rows, "rtx-4090d", "mainland", 7.0)
    assert got is not None and got.row.grade != "U"
    # only placeholders of the vendor: none found rather than one invented
    placeholders = [r for r in book.rows if r.grade == "U" or r.provider not in VM_PROVIDERS]
    assert find(placeholders, "rtx-4090d", "mainland", 7.0) is None
