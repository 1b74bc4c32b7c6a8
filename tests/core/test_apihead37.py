"""Under a hosted-API lead page 1 gives the API's reasons first and labels the self-hosted plan as the fallback
(s35-apihead, issue 25; blind review 26: q12, q13, q16, q27, q36)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import api_first_why
from advisor.plan.api_first_why import within_budget
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
BURSTY = "q36_bursty_b2b_event_mainland"  # a mainland API lead, a bursty load, a budget the lead judges
NEXT = "q12_hk_saas_pi_contract"  # an API lead on the next generation (Qwen3-14B), allowed under a contract
HOSTED = "q27_six_month_pilot_no_ops"  # the plan itself is the hosted API
SELF = "q26_steady_3y_strong_ops_buy"  # no API lead


def _page_one(memo: str) -> str:
    return memo.split("\n## ")[1]


def _numbered(block: str) -> list[str]:
    """The bold titles of a numbered list, in order."""
    return [line.split("**")[1] for line in block.splitlines() if line[:1].isdigit() and ". **" in line]


def _parts(r, lang: str) -> tuple[str, str, str]:
    """Page 1's lead up to the API's reasons, the API's reasons, and the fallback with its own reasons (those that
    hold on either path follow them since s36-apiplace: test_apiplace38)."""
    one = _page_one(render_memo_markdown(r, lang))
    intro = translate(lang, "apihead37_why.intro")
    fallback = translate(lang, "apiplace38_lead.fallback", form="F", gpus="G", region="R", line="L").split("F")[0]
    assert one.count(intro) == 1 and one.count(fallback) == 1
    head, rest = one.split(intro)
    api, after = rest.split(fallback)
    return head, api, after.split("\n| ")[0].split(translate(lang, "apiplace38_why.both"))[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_bursty_api_lead_gives_the_apis_reasons_first_the_rate_limit_at_the_peak_first_of_all(lang):
    r = advice_plan(BURSTY)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    head, api, fallback = _parts(r, lang)
    assert translate(lang, "apihead37_lead.fallback_said").strip() in head  # the bold line says it
    reasons = _numbered(api)
    peak = r.answers["peak_concurrency"]
    assert reasons[0] == translate(lang, "apihead37_why.burst_quota", peak=peak)  # the condition, first
    be = r.start_with.params["be"]
    shape = "high" if str(be["tr"]).endswith(".high") else "flat"  # a range's high end, as the lead says it
    assert translate(lang, f"apihead37_why.volume.{shape}", times=be["times"]) in reasons
    # "within budget" only where the path's whole month (tokens + host + line) was judged within it: q36's mainland
    # host has no sourced price, so its month is "before the host" and no budget reason is given (s35-apicost)
    said = within_budget(r.start_with.params)
    budget_said = translate(lang, "apihead37_why.budget", budget="\0").split("\0")[0]
    if said is None:
        assert not any(t.startswith(budget_said) for t in reasons)
    else:
        assert translate(lang, "apihead37_why.budget", **said) in reasons
    assert translate(lang, "apihead37_why.ops.basic") in reasons  # the scenario's "basic" operations
    # the fallback's own reasons stay, after the fallback's label (its sizing among them), not the API's
    fallen = _numbered(fallback)
    assert fallen and not set(fallen) & set(reasons)
    assert any(str(r.hardware.total_gpus) in t and (r.hardware.gpu_name or "") in t for t in fallen)
    # its GPUs in its own line, not page 1's Hardware row, which names the API alone (s36-apiplace, review 27 q16)
    assert f"{r.hardware.total_gpus} " in fallback.splitlines()[0] and str(r.hardware.gpu_name) in fallback.splitlines()[0]
    hw_row = next(x for x in _page_one(render_memo_markdown(r, lang)).splitlines()
                  if x.startswith(f"| {translate(lang, 'memo.key.hardware')} |"))
    assert str(r.hardware.gpu_name) not in hw_row
    assert translate(lang, "apiplace38_key.hardware", api="A").split("A")[0] in hw_row


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_lead_on_the_next_generation_names_that_model_in_its_bold_line(lang):
    r = advice_plan(NEXT)
    head, api, _ = _parts(r, lang)
    bold = head.split("**")[1]
    # s41-swap (review 34): an API lead that changes the model is "two ways, your choice"; the model is then named in
    # choice B's own bold label, the first thing after the heading that says which way is recommended
    choice_b = next((m for m in ("**B)", "**B）") if m in head), None)
    if choice_b is not None:
        bold = head.split(choice_b)[1].split("**")[0]
    assert r.start_with.params["next"] in bold
    reasons = _numbered(api)
    assert reasons and translate(lang, "apihead37_why.burst_quota", peak=r.answers["peak_concurrency"]) not in reasons
    # allowed under the contract: the bold line says so, the list does not say it again
    assert not any(t.startswith(translate(lang, "apihead37_why.data.lead")) for t in reasons)


@pytest.mark.parametrize("lang", LANGS)
def test_every_api_led_plan_has_its_own_reasons_and_others_none(lang):
    r = advice_plan(SELF)
    memo = render_memo_markdown(r, lang)
    assert not api_first_why.applies(r, "") and translate(lang, "apihead37_why.intro") not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_a_hosted_api_plans_hardware_row_names_the_api_alone(lang):
    r = advice_plan(HOSTED)
    assert r.deployment_form == "hosted_api"
    # the headline row names the hosted API alone: self-hosting's GPUs, not planned, are section 2's reference
    # (s36-apiplace, review 27 q16: "a newcomer will read it as part of the plan")
    one = _page_one(render_memo_markdown(r, lang))
    row = next(x for x in one.splitlines() if x.startswith(f"| {translate(lang, 'memo.key.hardware')} |"))
    assert translate(lang, "apiplace38_key.hardware_hosted") in row
    assert str(r.hardware.gpu_name) not in row
