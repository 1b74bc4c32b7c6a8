"""Every setup a memo shows runs a precision the answers allow, and the rent beside a purchase runs the precision a
renter would (issue #25, blind review 15, q26: "it chose bf16 TP2 even though FP8 was allowed … and compares 24
owned cards with 18 rented"; ``advisor.plan.rent_sized.leaner``).

1. Property over the 43 advice scenarios: the setup bought or rented, each GPU named beside it and the rent a
   purchase is weighed against never run weights below the precision accepted ("no" → 16-bit only; "FP8 only" →
   16-bit or FP8, never 4-bit); a rent at another precision than the purchase runs a lower one the answers accept,
   on fewer GPUs than the purchase.
2. q26: the bought H20 servers keep BF16 (FP8 fills as many whole servers), the rent is at FP8 on fewer GPUs, and the
   memo says so on page 1 and in the cost table, in both languages.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict
from advisor.plan.capacity import headroom_target
from advisor.plan.context import resolve
from advisor.plan.result import PlanResult
from advisor.sizing.quant import get_format
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, advice_plan, planned

Q26 = "q26_steady_3y_strong_ops_buy"
SCENARIOS = sorted(p.stem for p in Path(ADVICE_SCENARIOS).glob("q*.json"))
SIXTEEN_BIT = {"bf16", "fp16"}


def _allowed(quant: str | None, weights: str, checkpoint: str | None) -> bool:
    """The weights a plan may run under the answer on quantisation (a checkpoint shipped quantised runs as shipped)."""
    if weights in SIXTEEN_BIT or weights == checkpoint:
        return True
    if quant in (None, "no"):
        return False
    if quant == "fp8_only":
        return weights.startswith("fp8")
    return True  # "yes" / "yes_after_quality_check": 4- and 8-bit formats


def _shown(r: PlanResult) -> list[str]:
    """The weights of every setup the plan shows: its own, each GPU named beside it, the rent beside a purchase."""
    out = [r.hardware.weights] if r.hardware.gpu else []
    if r.gpu_choice is not None:
        out += [a.weights for a in r.gpu_choice.alternatives]
    sized = r.costs.rent_sized if r.costs is not None else None
    if sized and sized.get("weights"):
        out.append(sized["weights"])
    return out


@pytest.mark.parametrize("sid", SCENARIOS)
def test_no_setup_shown_runs_below_the_precision_accepted(sid):
    answers = json.loads((Path(ADVICE_SCENARIOS) / f"{sid}.json").read_text(encoding="utf-8"))["answers"]
    r = planned(answers)
    quant = answers.get("quantization_acceptable")
    from advisor.catalog import load_models

    model = next((m for m in load_models() if m.id == answers.get("model")), None)
    checkpoint = getattr(model, "checkpoint_quant", None)
    for w in _shown(r):
        assert _allowed(quant, w, checkpoint), (sid, quant, w)
    sized = r.costs.rent_sized if r.costs is not None else None
    if sized and sized.get("weights"):  # rented at another precision than bought: a lower one, on fewer GPUs
        assert get_format(sized["weights"]).bits < get_format(sized["bought_weights"]).bits
        assert sized["gpus"] < sized["bought_gpus"]
        assert sized["load_gpus"] == math.ceil(sized["load_gpus"] / sized["tp"]) * sized["tp"]


def test_q26_keeps_bf16_on_the_servers_bought_and_rents_at_fp8_on_fewer_gpus():
    r = advice_plan(Q26)
    hw, sized = r.hardware, r.costs.rent_sized
    assert r.deployment_form == "bare_metal" and hw.gpu == "h20-96g" and hw.weights == "bf16"
    assert sized is not None and sized["weights"] == "fp8" and sized["bought_weights"] == "bf16"
    # the same peak with its headroom and one spare unit, at the FP8 replica's own figure
    target = headroom_target(resolve(answers_from_dict(advice_answers(Q26))))
    assert (sized["load_gpus"] // sized["tp"]) * sized["per_replica"] >= target
    assert sized["spare_gpus"] == sized["unit_gpus"] == sized["tp"]
    # BF16 rented the same way needs more: its replicas at the bought setup's figure, plus the spare
    bf16 = math.ceil(target / r.capacity.max_concurrency_per_replica) * hw.gpus_per_replica + hw.gpus_per_replica
    assert sized["gpus"] < bf16


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q26_memo_says_the_rent_is_at_fp8_and_why_the_servers_keep_bf16(lang):
    from advisor.plan.memo import memo_document

    r = advice_plan(Q26)
    sized = r.costs.rent_sized
    memo = memo_document(r, lang).markdown()
    page_one = memo.split("## 2.")[0]
    said = {"en": f"renting what the load needs ({sized['gpus']} GPUs, fp8)",
            "zh_CN": f"按负载所需租用（{sized['gpus']} 张 GPU，fp8）"}
    assert said[lang] in page_one
    why = {"en": "rented in fp8 (TP2), which you accept: by the GPU it needs fewer, while the servers bought keep bf16 "
                 "(fp8 would fill as many)",
           "zh_CN": "租用按您可接受的 fp8（TP2）计价：按卡租用可少用 GPU，而自购的服务器保持 bf16（用 fp8 也要同样多台）"}
    assert why[lang] in memo


def test_a_plan_that_does_not_accept_fp8_rents_at_its_own_precision():
    """The same service with quantisation refused: nothing lower is accepted, so the rent runs what is bought."""
    r = advice_plan(Q26, quantization_acceptable="no")
    sized = r.costs.rent_sized
    assert r.hardware.weights in SIXTEEN_BIT
    assert sized is None or not sized.get("weights")
