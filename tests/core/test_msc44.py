"""msc44 (blind review 36): duties the memo names are in the timeline, contracts said as requirements, a filed
provider, a public hospital's procurement and a TTFT row
without a P50 range over the P99 target. On the real scenario plans, in both languages."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _memo(name: str, lang: str) -> str:
    return render_memo_markdown(planned(advice_answers(name)), lang=lang)


def _row(memo: str, label: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("lang", LANGS)
def test_provider_contract_said_as_a_requirement(lang):
    """q16: no contract exists yet: the data-location finding says what the contract must say, not that it does."""
    memo = _memo("q16_hosted_api_mainland_registration", lang)
    if lang == "zh_CN":
        assert "须在与服务商签订的合同中约定" in memo and "，合同约定提示词" not in memo
    else:
        assert "The contract you sign with it must keep" in memo and "and the contract keeps the prompts" not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_closed_mainland_api_asks_for_a_filed_model_service(lang):
    """q27: a mainland API for a non-public service still picks a provider whose model service is filed."""
    memo = _memo("q27_six_month_pilot_no_ops", lang)
    assert ("whose model service is itself filed (已备案)" in memo) if lang == "en" else ("模型服务本身已备案" in memo)


@pytest.mark.parametrize("lang", LANGS)
def test_public_hospital_purchase_has_government_procurement_before_the_order(lang):
    """q03: a hospital's own tool bought on hardware: government procurement or tender, a step before the order."""
    result = planned(advice_answers("q03_hospital_private_wan_medical"))
    ids = [i.id for i in result.timeline.items]
    assert "procurement_process" in ids and ids.index("procurement_process") < ids.index("procurement")
    memo = _memo("q03_hospital_private_wan_medical", lang)
    assert "政府采购" in memo
    # a cloud plan buys nothing: no procurement step (q27's pilot)
    assert "procurement_process" not in [i.id for i in planned(advice_answers("q27_six_month_pilot_no_ops")).timeline.items]


@pytest.mark.parametrize("lang", LANGS)
def test_ttft_row_has_no_p50_range_over_the_p99_target(lang):
    """q03: the P50 error range's top (5,681 ms) was over the 4,000 ms P99 target: the row keeps the P99 band."""
    memo = _memo("q03_hospital_private_wan_medical", lang)
    row = next(line for line in memo.splitlines() if line.startswith(("| TTFT at the peak", "| 峰值时首 token 延迟")))
    assert ("likely" not in row) if lang == "en" else ("大概在" not in row)
    assert "12,565" in row and "4,000" in row
