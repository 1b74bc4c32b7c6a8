"""A layout set aside for missing the target "even for one request" is said with the predictor's figure, never the
screen's analytic estimate (s22-cleanup22b, issue 25: q03 said "TP1 fp8 misses the TTFT target even for one request
(4,577 ms)" where the predictor the plan trusts for every final check gives about 3,600 ms within the 4,000 ms
target); a setup the predictor keeps within the target is sized like any other and the choice rules decide."""

from __future__ import annotations

import re

import pytest

from advisor.plan import answers_from_dict, one_request, sizing
from advisor.plan.context import resolve
from advisor.plan.data import gpus_by_id
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import number_text
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

SCENARIOS = sorted(p.stem for p in ADVICE_SCENARIOS.glob("*.json"))
# "TP1 fp8 misses the TTFT target even for one request (4,577 ms at P99, ...)" as the memo prints it
MISSES = {"en": re.compile(r"TP(\d+) (\S+) misses the (TTFT|TPOT) target even for one request \(([\d,.]+) ms at P99"),
          "zh_CN": re.compile(r"TP(\d+)（(\S+?)）即使只有 1 个请求也达不到(首 token 延迟|每 token 输出耗时)目标（P99 ([\d,.]+) ms")}
ONE_CARD = {"en": re.compile(r"(one request's first token|each output token) would take ([\d,.]+) ms at P99 on one card"),
            "zh_CN": re.compile(r"单卡上即使只有 1 个请求，P99 (首 token|每个输出 token) 也需 ([\d,.]+) ms")}


def _predicted(answers: dict, gpu_id: str, weights: str, tp: int) -> list[tuple[float | None, float | None]]:
    """The predictor's (P99 TTFT, P99 TPOT) at one request for ``weights`` on ``tp`` of the GPU, one per KV format
    the answers allow with those weights (the memo names the weights only)."""
    c = resolve(answers_from_dict(answers))
    gpu = gpus_by_id()[gpu_id]
    out = []
    for w, kv in sizing.allowed_formats(c, gpu):
        k = one_request.setup(c, gpu, w, kv, tp) if w == weights else None
        if k is not None:
            lv = sizing.levels_at(c, k, [1])[0]
            out.append((lv.ttft_ms.p99, lv.tpot_ms.p99))
    return out


def _said(value: str, figure: float | None, what: str) -> bool:
    # "Layouts tried" states a miss in whole ms (``result._params``: TTFT and TPOT alike, "65 ms" for 65.4 — q37's
    # TP1 on L4 is the first TPOT miss an advice memo states, session 36); the PCIe finding a TPOT to one decimal
    if figure is None:
        return False
    said = value.replace(",", "")
    return said == f"{figure:.0f}" or (what == "tpot" and said == f"{figure:.1f}".rstrip("0").rstrip("."))


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_one_request_miss_the_memo_states_is_the_predictors_figure(name):
    """Property over the 43 scenarios, both languages: every "TP… misses the … target even for one request (N ms)"
    of "Layouts tried", and every "one request … would take N ms at P99 on one card" of the PCIe finding, states the
    predictor's P99 at one request for that setup on the chosen GPU, and that figure is past the target."""
    answers = advice_answers(name)
    r = planned(answers)
    found = r.layouts_tried
    c = resolve(answers_from_dict(answers))
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(r, lang)
        for tp, weights, what, value in MISSES[lang].findall(memo):
            assert found is not None, (name, lang)
            key = "ttft" if what in ("TTFT", "首 token 延迟") else "tpot"
            figures = _predicted(answers, found.gpu, weights, int(tp))
            i = 0 if key == "ttft" else 1
            assert any(_said(value, f[i], key) for f in figures), (name, lang, tp, weights, value, figures)
            target = c.ttft_slo_ms if key == "ttft" else c.tpot_slo_ms
            assert target is not None and float(value.replace(",", "")) > target, (name, lang, value, target)
        for what, value in ONE_CARD[lang].findall(memo):
            key = "ttft" if what in ("one request's first token", "首 token") else "tpot"
            gpu = gpus_by_id()[r.hardware.gpu]
            weights = sizing.allowed_formats(c, gpu)[-1][0]  # the most compact weights the answers allow
            figures = _predicted(answers, gpu.id, weights, 1)
            i = 0 if key == "ttft" else 1
            assert any(_said(value, f[i], key) for f in figures), (name, lang, value, figures)


def test_q03_sizes_one_l20_a_replica_where_the_predictor_keeps_it_within_the_target():
    """q03 (32B, FP8, 4,000 ms first-token target, p95 prompt 6,000 tokens): the screen set TP1 FP8 on one L20 aside
    at 4,577 ms for one request; the predictor gives under 4,000 and a replica takes several requests within the
    target, so it is sized (on as many GPUs as TP2 FP8, 4) and the memo no longer states the screen's figure.

    Re-argued in s27-fleet27 (re-landing s26-fleet26): this test pinned TP1 as the plan, which the PCIe rule chose
    on as many GPUs. Blind review 16 (q03, en) sent that back: TP1's P99 TTFT sits at 3,584 ms with one request and
    ~3,700 ms at its peak share against 4,000, "little margin for 6k-token notes ... compare with a TP2 layout".
    On as many GPUs at the same cost the layout search now keeps the one whose P99 TTFT at its peak share keeps the
    plan's 20 % headroom to the target (layout_search._ttft_tight): TP2 (≈3,156 ms at 10 a replica with a server
    down). What an expert wants pinned is that TP1 is *sized* (not set aside on the screen's figure) and that the
    choice between the two equal-GPU layouts is said with the predictor's figures that decided it."""
    answers = advice_answers("q03_hospital_private_wan_medical")
    r = planned(answers)
    target = resolve(answers_from_dict(answers)).ttft_slo_ms
    (ttft, _tpot), = _predicted(answers, "l20-48g", "fp8", 1)
    assert ttft is not None and ttft <= target
    assert (r.hardware.gpu, r.hardware.weights) == ("l20-48g", "fp8")
    tried = {(t.tp, t.weights): t for t in r.layouts_tried.tries}
    one, chosen = tried[(1, "fp8")], tried[(r.hardware.tp, "fp8")]
    assert chosen.outcome == "chosen" and one.gpus == chosen.gpus  # TP1 sized, on as many GPUs as the plan's
    if r.hardware.tp != 1:  # kept over TP1 only for the first token's headroom, with the figures said
        assert one.outcome == "meets"
        room = r.layouts_tried.ttft_room
        assert room is not None and (room["tp"], room["other_tp"]) == (r.hardware.tp, 1)
        assert room["ttft"] <= target / 1.2 < room["other_ttft"] <= target, room
        assert f"({number_text(room['other_ttft'], 0)} ms at {room['other_load']})" in r.layouts_tried.text_in("en")
    for lang in ("en", "zh_CN"):
        assert "4,577" not in render_memo_markdown(r, lang)
