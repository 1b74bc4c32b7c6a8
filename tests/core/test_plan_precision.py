"""The precision the answers allow is used when it carries more on the same hardware (issue 25, GPU choice: "the
smallest setup that meets the target with headroom at the precision allowed (FP8 when accepted)"): q10 ran BF16 on
8 × H800 with FP8 accepted, q42 BF16 on 4 × 4090D (Ada: FP8 tensor cores) at 0 % headroom."""

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.data import gpus_by_id

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


def _answers(name: str) -> dict:
    return json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"]


def test_fp8_accepted_wins_on_the_same_server_when_it_carries_more():
    a = _answers("q10_128k_document_assistant")
    fp8 = make_plan(answers_from_dict(a))
    bf16 = make_plan(answers_from_dict({**a, "quantization_acceptable": "no"}))
    assert fp8.hardware.weights == "fp8" and bf16.hardware.weights == "bf16"
    assert fp8.hardware.gpu == bf16.hardware.gpu and fp8.hardware.total_gpus <= bf16.hardware.total_gpus
    # on the same GPUs, FP8 takes more within the target than BF16 (more headroom at the peak): counted per GPU,
    # since BF16 may need more of them (q10 at 60,000-token prompts: 8 GPUs in FP8, 24 in BF16)
    assert fp8.capacity.max_concurrency_per_replica * fp8.hardware.replicas / fp8.hardware.total_gpus >= (
        bf16.capacity.max_concurrency_per_replica * bf16.hardware.replicas / bf16.hardware.total_gpus)
    assert "--quantization fp8" in fp8.hardware.command


def test_an_ada_consumer_card_runs_fp8_when_accepted_and_ampere_never_does():
    # the 4090 D alone (a production API with H20/L20 allowed now runs on a data-centre part: test_plan_gpu_grade)
    a = {**_answers("q42_china_market_gpus_mainland"), "gpu_constraint": ["rtx-4090d"]}
    r = make_plan(answers_from_dict(a))
    assert r.hardware.gpu == "rtx-4090d" and gpus_by_id()["rtx-4090d"].fp8_tflops_dense
    assert r.hardware.weights == "fp8"
    ampere = make_plan(answers_from_dict({**a, "gpu_constraint": ["a800-80g"]}))
    if ampere.hardware.gpu is not None:  # no FP8 tensor cores: BF16 (or a 4-bit checkpoint), never FP8
        assert gpus_by_id()[ampere.hardware.gpu].fp8_tflops_dense in (None, 0, 0.0)
        assert not ampere.hardware.weights.startswith("fp8")
