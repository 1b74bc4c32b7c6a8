"""One prefill/decode split of the GPU time per memo, as a property over every advice scenario (issue 25, seventh
blind review, s18-agree).

q23: "the GPU-time split says 67 % decode in the sizing section but 82 % prefill in the cost section"; q31: "87 %
decode while the cost section says 74 % prefill". The GPU weighing, the cost table's input/output split and the
long-prompt finding each quote the share of a replica's GPU time at the planned load that goes to prefill or to
decode. They are one quantity, so every sentence that states it states the same figure. (A two-node plan's cost
row states a different quantity, the share of both nodes' cost, and names it so: it is not compared here.)
"""

import json
import re
from pathlib import Path

import pytest

from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
NAMES = sorted(p.stem for p in SCEN.glob("*.json"))

# each pattern's group is a percentage, and whether it is prefill's (True) or decode's (False) share
SPLIT_SENTENCES: dict[str, list[tuple[re.Pattern[str], bool]]] = {
    "en": [(re.compile(r"decoding takes (?:only )?about (\d+) % of the GPU time"), False),
           (re.compile(r"GPU time at the planned load: prefill (\d+) %"), True),
           (re.compile(r"GPU time at the planned load: prefill \d+ %, decode (\d+) %"), False),
           (re.compile(r"per replica\) it takes (\d+) % of the GPU time"), True)],
    "zh_CN": [(re.compile(r"峰值时(?:解码只占)?约 (\d+)% 的 GPU 时间"), False),
              (re.compile(r"GPU 时间拆分：预填充 (\d+) %"), True),
              (re.compile(r"GPU 时间拆分：预填充 \d+ %，解码 (\d+) %"), False),
              (re.compile(r"预填充占 GPU 时间的 (\d+) %"), True)],
}


def _plan(name: str):
    return planned(json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"])


def prefill_shares(text: str, lang: str) -> set[int]:
    """Every prefill share (%) the text states, decode's turned into prefill's."""
    return {int(m) if prefill else 100 - int(m)
            for pattern, prefill in SPLIT_SENTENCES[lang] for m in pattern.findall(text)}


def test_the_split_sentences_are_recognised_in_both_languages():
    """The patterns above must match the sentences they guard: a reworded template would otherwise pass silently."""
    from advisor.i18n import translate

    filled = {"share": 67, "prefill": 33, "decode": 67, "prefill_pct": 33, "input": "i", "output": "o"}
    for lang in ("en", "zh_CN"):
        for key in ("plan.gpu_weigh.head.decode_bandwidth", "plan.gpu_weigh.head.prefill_compute",
                    "memo.text15.cost.per_million_value"):
            assert prefill_shares(translate(lang, key, **filled), lang) == {33}, (lang, key)
        long_prompt = translate(lang, "plan.long_prompt.prefill", per_replica=4, prefill_pct=33, prompt_avg=1,
                                prompt_p95=2, prefill_s=1, prefill_p95_s=2, ttft_target_s=3)
        assert prefill_shares(long_prompt, lang) == {33}, (lang, long_prompt)
        assert prefill_shares(translate(lang, "plan.gpu_weigh.head.decode_bandwidth", share=67) + " / "
                              + translate(lang, "memo.text15.cost.per_million_value", **{**filled, "prefill": 82,
                                                                                           "decode": 18}),
                              lang) == {33, 82}, lang  # two splits are told apart


@pytest.mark.parametrize("name", NAMES)
def test_the_memo_states_one_prefill_decode_split(name):
    from advisor.plan.memo import render_memo_markdown

    r = _plan(name)
    for lang in ("en", "zh_CN"):
        shares = prefill_shares(render_memo_markdown(r, lang=lang), lang)
        assert len(shares) <= 1, (name, lang, sorted(shares))


@pytest.mark.parametrize("name", NAMES)
def test_the_weighing_and_the_cost_split_are_one_figure(name):
    """The figures behind the sentences: the GPU weighing's decode share is 100 − the cost split's prefill share."""
    r = _plan(name)
    w, c = r.gpu_choice.weighing if r.gpu_choice is not None else None, r.costs
    if w is None or w.share_pct is None or c is None or c.prefill_gpu_share is None or r.nodes:
        return
    assert w.share_pct == round(100 - 100 * c.prefill_gpu_share), (name, w.share_pct, c.prefill_gpu_share)
