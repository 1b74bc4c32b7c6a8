"""Round 14 of the blind review (issue 25), fixed after the merge of session 24's helpers: a sentence that called the
load decode-heavy beside a binding sentence saying prefill compute decides (q42), and a neighbouring region's API
weighed as an option beside a first-token target its round trip breaks at the slow end (q43)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import advice_answers, advice_plan, planned, short_lived

LANGS = ("en", "zh_CN")
Q42, Q43 = "q42_china_market_gpus_mainland", "q43_us_team_mainland_low_latency"


@pytest.mark.parametrize("lang", LANGS)
def test_q42_names_the_card_on_which_decoding_takes_most_of_the_time(lang):
    # s29-prices29b: with Alibaba's L20 quote wired in (s29-prices29), 4 × L20 costs more an hour than 3 × H20 even
    # at the H20 placeholder's top, so q42 takes the H20 on cost and weighs no decode premium against the L20 (its
    # placeholder sentence names the L20: test_gpu21_choice). The decode-heavy wording is tested on the rents it was
    # written on, given as quotes (tests/support/former_l20_rent.py), as test_gpuwhy27 does.
    r = former_rents_plan(Q42)
    pick = r.gpu_choice.decode_pick
    assert pick is not None and pick["other_decode_pct"] >= 50 > pick["decode_pct"]  # heavy on the L20 only
    memo = render_memo_markdown(r, lang)
    # the load called decode-heavy without naming the card it is heavy on (the weighing head names the L20: kept)
    assert ("as on this decode-heavy load" not in memo) if lang == "en" else ("这是以解码为主的负载" not in memo)
    # session 28 (gpu28): the premium's sentence now says what it buys (blind review 17); the card the load is
    # decode-heavy on is named once, by the weighing that follows it
    said = "on the NVIDIA L20 48GB decoding takes most of the GPU time at the peak" if lang == "en" else \
        "峰值时 NVIDIA L20 48GB 的大部分 GPU 时间用于解码"
    assert said in memo


@pytest.mark.parametrize("lang", LANGS)
def test_q43_a_singapore_api_is_a_yardstick_with_the_round_trip_said(lang):
    r = advice_plan(Q43)
    memo = render_memo_markdown(r, lang)
    lead = next(p for p in memo.split("\n\n") if "Alibaba Cloud Model Studio" in p)
    # s28-lead28: the sum is judged and printed as the reader sees it (60 + 94 = 154 ms, over 150): "misses", not
    # "is not held to … passes" (review 18)
    assert ("misses your target here" in lead) if lang == "en" else ("从新加坡提供的 API 在这里达不到" in lead)
    assert ("150 ms first-token target" in lead) if lang == "en" else ("150 毫秒的首 token 延迟目标" in lead)
    assert "at the volume assumed here a hosted API would cost less" not in memo


def test_q43_with_a_loose_first_token_target_weighs_the_singapore_api():
    # s31-publicsaas31: run short-lived (``short_lived``): the Singapore list marks Qwen2.5-7B deprecated, so over
    # q43's assumed 12 months its price is a yardstick beside the plan, not the lead whose words this reads
    answers = short_lived(advice_answers(Q43))
    slo = {**answers["latency_slo"], "ttft_p99_ms": 400}
    r = planned({**answers, "latency_slo": slo})
    memo = render_memo_markdown(r, "en")
    assert "Singapore is not held to your target" not in memo
    # swap42/pg42 (blind review 32): the bold line says the path, the provider and where its API is served
    assert "calling the API of Alibaba Cloud Model Studio (International) in Singapore" in memo


def test_the_h20s_weak_prefill_decides_only_where_the_first_token_is_tight():
    """q35: DeepSeek-V3 on H20 with 2,000-token prompts, a predicted P99 first token of about 1.2 s against 4 s: the
    H20's weak prefill is said as met (a note, not among the deciding reasons); at a 2 s target it decides again."""
    r = advice_plan("q35_deepseek_v3_h20_internal")
    f = next(x for x in r.findings if x.id == "gpu.h20_prefill")
    assert (f.severity, f.title_key) == ("info", "plan.rule.gpu.h20_prefill.met.title")
    assert float(f.params["ttft"].replace(",", "")) <= float(f.params["slo"].replace(",", "")) / 2
    for lang in LANGS:
        reasons = render_memo_markdown(r, lang).split("| Item |" if lang == "en" else "| 项目 |")[0]
        assert ("weak for long prompts" not in reasons) if lang == "en" else ("处理长提示词偏弱" not in reasons)
        assert ("What decides it" in reasons) if lang == "en" else ("1. **" in reasons)
    answers = advice_answers("q35_deepseek_v3_h20_internal")
    tight = planned({**answers, "latency_slo": {**(answers.get("latency_slo") or {}), "ttft_p99_ms": 2000}})
    g = next(x for x in tight.findings if x.id == "gpu.h20_prefill")
    assert (g.severity, g.title_key) == ("warning", "plan.rule.gpu.h20_prefill.title")


@pytest.mark.parametrize("lang", LANGS)
def test_q28s_doubled_replicas_say_the_extra_percent_is_cost_not_gpus(lang):
    """q28 (round 14: "'16 replicas, not 8: about 5 % more' reads as 5 % more GPUs; it means 5 % more cost for twice
    the GPUs"): the title says what the percentage is of."""
    r = advice_plan("q28_bank_backfill_batch_48h")
    f = next(x for x in r.findings if x.id == "sizing.batch_doubled")
    more = f.params["more"]
    title = f.title_in(lang)
    said = f"the job costs about {more} % more" if lang == "en" else f"只多花约 {more}%"
    assert said in title
