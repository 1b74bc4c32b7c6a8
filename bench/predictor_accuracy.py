"""Predictor accuracy: the capacity predictor scored against public serving measurements.

Reads tests/fixtures/predictor_accuracy.csv (one published measurement per row, with its source URL, engine,
version, precision and workload), predicts each with the same code the CLI and the UI use (the sizing core's
roofline + the continuous-batching simulator + the engine profile in resources/engines/profiles.json), and
prints |predicted − measured| / measured for TTFT and TPOT: median and p90, overall, per engine and per split.

Rows marked ``split=train`` are the ones the engine profiles' per-request overheads were fitted to; the
``holdout`` rows were not used for any setting and are the validation figure. Nothing else (MFU, MBU,
per-step overhead) is tuned to these points.

Run: ``.venv/bin/python bench/predictor_accuracy.py`` (add ``--write`` to regenerate docs/predictor-accuracy.md).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from advisor.atomic import write_text_atomic
from advisor.catalog import get_gpu, get_model
from advisor.domain.gpu import GiB
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.domain.sizing import ErrorFigures, PredictorAccuracy
from advisor.sim.costs import build_setup
from advisor.sim.engine import FINISHED, Engine
from advisor.sim.predict import RequestSource, simulate_concurrency, simulate_rate
from advisor.sim.profiles import engine_settings_for, factors_for, get_profile

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT / "tests" / "fixtures" / "predictor_accuracy.csv"
DOC = ROOT / "docs" / "predictor-accuracy.md"
ACCURACY_JSON = ROOT / "resources" / "engines" / "accuracy.json"  # what the CLI and the Sizing page state

# ShareGPT conversations as sglang.bench_serving samples them: heavy-tailed lengths (lognormal, cv ≈ 1).
SHAREGPT_CV = 1.0

GOALS = {"ttft": (0.25, 0.60), "tpot": (0.15, 0.30)}  # (median, p90) |error|


@dataclasses.dataclass
class Point:
    row: dict[str, str]
    ttft_pred: float | None
    tpot_pred: float | None
    seconds: float
    # the share of the GPUs' peak a measured single-request TTFT implies: the prompt's FLOPs over the dense peak or
    # the weights its forward pass must read over the peak bandwidth, whichever is larger
    peak_share: float | None = None

    @property
    def impossible_ttft(self) -> bool:
        """A concurrency-1 TTFT faster than the GPUs' peak could prefill the prompt (over 90 % of the dense FLOP rate,
        or of the memory bandwidth for the weights one forward pass reads): the prompt was (partly) served from a
        prefix cache (vLLM V1 caches by default; repeated benchmark prompts hit it). An objective test on the
        measurement alone, not on the prediction."""
        return self.peak_share is not None and self.peak_share > 0.9

    def error(self, metric: str, *, strict: bool = False) -> float | None:
        if strict and metric == "ttft" and self.impossible_ttft:
            return None
        measured = self.row[f"{metric}_ms"]
        predicted = self.ttft_pred if metric == "ttft" else self.tpot_pred
        if not measured or predicted is None:
            return None
        return (predicted - float(measured)) / float(measured)


def workload(row: dict[str, str]) -> SimWorkload:
    prompt, output = int(row["prompt_tokens"]), int(row["output_tokens"])
    if row["lengths"] == "sharegpt":
        return SimWorkload(
            prompt=LengthDistribution(kind="lognormal", mean=prompt, cv=SHAREGPT_CV, max=prompt * 12),
            output=LengthDistribution(kind="lognormal", mean=output, cv=SHAREGPT_CV, max=output * 10),
            seed=1,
        )
    if row["lengths"] == "eos":  # fixed prompts; answers stop at eos before the cap: uniform in 72..128 % … of it
        mean = round(output * 100 / 128)  # the source's own output-token rate over its request rate (see notes)
        return SimWorkload(
            prompt=LengthDistribution.fixed(prompt),
            output=LengthDistribution(kind="uniform", mean=mean, min=max(1, 2 * mean - output), max=output),
            seed=1,
        )
    if row["lengths"] == "uniform":  # random dataset with range ratio 0: lengths uniform in 1..N
        return SimWorkload(
            prompt=LengthDistribution(kind="uniform", mean=max(1, prompt // 2), min=1, max=prompt),
            output=LengthDistribution(kind="uniform", mean=max(1, output // 2), min=1, max=output),
            seed=1,
        )
    return SimWorkload(prompt=LengthDistribution.fixed(prompt), output=LengthDistribution.fixed(output))


def setup_for(row: dict[str, str]):
    model, gpu = get_model(row["model"]), get_gpu(row["gpu"])
    profile = get_profile(row["engine"])
    engine = engine_settings_for(profile, gpu)
    over: dict[str, object] = {}
    if row["gpu_memory_utilization"]:
        over["gpu_memory_utilization"] = float(row["gpu_memory_utilization"])
    if row["max_num_seqs"]:
        over["max_num_seqs"] = int(row["max_num_seqs"])
    engine = engine.model_copy(update=over)
    context = int(row["prompt_tokens"]) + int(row["output_tokens"])
    factors = None
    if "enforce-eager" in row["engine_version"]:  # no CUDA graphs: every kernel launched from Python each step
        factors = factors_for(profile).model_copy(
            update={"step_overhead_ms": profile.step_overhead_ms + profile.eager_ms_per_layer * model.num_layers}
        )
    if row["lengths"] == "sharegpt":
        context = 4096  # both servers of that page ran with --max-model-len 4096 (SGLang: the model's own)
    setup = build_setup(
        model, gpu, row["weights"], gpus=int(row["gpus"]), kv_dtype=row["kv_dtype"], context=max(context, 4096),
        engine=engine, profile=row["engine"], factors=factors,
    )  # fmt: skip
    limits = setup.limits
    if row["kv_cache_gib"]:  # the source's own log says how much KV cache the engine had
        blocks = int(float(row["kv_cache_gib"]) * GiB) // (setup.kv_bytes_per_token * limits.block_size)
        limits = dataclasses.replace(limits, kv_blocks=blocks)
    if row.get("num_scheduler_steps"):  # vLLM V0 multi-step scheduling, as the source ran it
        limits = dataclasses.replace(limits, scheduler_steps=int(row["num_scheduler_steps"]))
    return setup, limits


def _stat(values: list[float], stat: str) -> float | None:
    if not values:
        return None
    return float(np.mean(values) if stat == "mean" else np.median(values))


def predict(row: dict[str, str]) -> Point:
    started = time.process_time()
    setup, limits = setup_for(row)
    wl = workload(row)
    stat = row["stat"]
    key = "mean" if stat == "mean" else "p50"
    if row["load"] == "closed":
        c = int(row["concurrency"])
        # vllm bench serve --max-concurrency c starts c streams at once and refills each at once
        level = simulate_concurrency(setup.costs, limits, wl, c, start="burst", measure=max(int(row["requests"]), 2 * c))
        ttft, tpot = getattr(level.ttft_ms, key), getattr(level.tpot_ms, key)
    elif row["load"] == "rate":
        level = simulate_rate(setup.costs, limits, wl, float(row["request_rate"]), requests=min(int(row["requests"]), 800))
        ttft, tpot = getattr(level.ttft_ms, key), getattr(level.tpot_ms, key)
    elif row["load"] == "burst":
        # every request sent at t = 0 (request rate inf, no concurrency cap): one wave, no refills
        engine = Engine(setup.costs, limits)
        n = int(row["requests"])
        source = RequestSource(wl, n)
        seqs = [engine.add_request(*source.next(), 0.0) for _ in range(n)]
        engine.run()
        done = [s for s in seqs if s.state == FINISHED]
        ttft = _stat([(s.first_token_t - s.arrival) * 1000 for s in done], stat)
        tpot = _stat([(s.finish_t - s.first_token_t) / (s.output - 1) * 1000 for s in done if s.output > 1], stat)
    else:
        raise ValueError(f"{row['id']}: unknown load {row['load']!r}")
    share = None
    if row["load"] == "closed" and row["concurrency"] == "1" and row["ttft_ms"]:
        from advisor.sizing.quant import get_format
        from advisor.sizing.roofline import compute_dtype
        from advisor.sizing.tensors import param_counts

        counts = param_counts(setup.model)
        p = wl.prompt.mean
        # the causal attention's FLOPs count too (a 8k prompt's attention is a third of a 3B-active MoE's work)
        flops = 2.0 * (counts.active - counts.embedding) * p + setup.costs.attn_flops_per_pair * p * (p + 1) / 2
        peak_flops = setup.gpu.tflops_for(compute_dtype(get_format(row["weights"]), setup.gpu)) * 1e12 * int(row["gpus"])
        # one forward pass reads every dense weight and each expert some prompt token routes to (per GPU)
        c = setup.costs
        weights = c.dense_bytes + c.moe_layers * c.experts_touched(int(p)) * c.expert_bytes
        fastest = max(flops / peak_flops, weights / setup.gpu.bandwidth_bytes_per_s)
        share = fastest / (float(row["ttft_ms"]) / 1000.0)
    return Point(row, ttft, tpot, time.process_time() - started, share)


def _goal_line(points: list[Point]) -> str:
    """Whether each goal is met on the held-out rows (cached-prompt TTFTs out), overall and per engine."""
    parts = []
    for scope, pts in [("holdout", points)] + [(f"holdout {e}", [p for p in points if p.row["engine"] == e])
                                             for e in sorted({p.row["engine"] for p in points})]:  # fmt: skip
        held = [p for p in pts if p.row["split"] == "holdout"]
        verdicts = []
        for metric in ("ttft", "tpot"):
            errs = [e for p in held if (e := p.error(metric, strict=True)) is not None]
            if not errs:
                verdicts.append(f"{metric.upper()} no points")
                continue
            med, p90 = pct(errs, 50), pct(errs, 90)
            ok = med <= GOALS[metric][0] and p90 <= GOALS[metric][1]
            verdicts.append(f"{metric.upper()} {'met' if ok else 'NOT met'}")
        parts.append(f"{scope}: {', '.join(verdicts)}")
    return "goal check — " + "; ".join(parts)


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.abs(values), q)) if values else math.nan


def summary(points: list[Point], label: str, *, strict: bool = False) -> str:
    parts = [f"{label:<30}"]
    for metric in ("ttft", "tpot"):
        errs = [e for p in points if (e := p.error(metric, strict=strict)) is not None]
        parts.append(f"{metric.upper()} n={len(errs):>2} median {pct(errs, 50):6.1%} p90 {pct(errs, 90):6.1%}")
    return "   ".join(parts)


def _f(v: float | None) -> str:
    return "—" if v is None else f"{v:,.1f}"


def _e(v: float | None) -> str:
    return "—" if v is None else f"{v:+.0%}"


def table(points: list[Point]) -> str:
    head = (
        "| id | engine | GPU | model | load | prompt / output | TTFT measured | TTFT predicted | error | "
        "TPOT measured | TPOT predicted | error | split |\n|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|"
    )
    lines = [head]
    for p in points:
        r = p.row
        load = {"closed": f"concurrency {r['concurrency']}", "rate": f"{r['request_rate']} req/s",
                "burst": f"{r['requests']} at once"}[r["load"]]  # fmt: skip
        lines.append(
            f"| [{r['id']}]({r['source_url']}) | {r['engine']} {r['engine_version']} | {r['gpus']}× {r['gpu']} | "
            f"{r['model']} ({r['weights']}) | {load} | {r['prompt_tokens']} / {r['output_tokens']} ({r['lengths']}) | "
            f"{_f(float(r['ttft_ms']) if r['ttft_ms'] else None)}{' ⚠' if p.impossible_ttft else ''} | {_f(p.ttft_pred)} | "
            f"{_e(p.error('ttft'))} | "
            f"{_f(float(r['tpot_ms']) if r['tpot_ms'] else None)} | {_f(p.tpot_pred)} | {_e(p.error('tpot'))} | {r['split']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite docs/predictor-accuracy.md with the per-point table")
    args = ap.parse_args(argv)
    with CSV.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    points = [predict(r) for r in rows]
    print(table(points))
    print()
    lines = [summary(points, "all points")]
    lines.append(summary(points, "all, cached-prompt TTFTs out", strict=True))
    for split in ("train", "holdout"):
        lines.append(summary([p for p in points if p.row["split"] == split], f"split={split}", strict=True))
    for engine in sorted({p.row["engine"] for p in points}):
        lines.append(summary([p for p in points if p.row["engine"] == engine], f"engine={engine}", strict=True))
    v1 = [p for p in points if "0.6.0" not in p.row["engine_version"]]
    lines.append(summary(v1, "no vLLM 0.6 V0, no cached", strict=True))
    for added, label in (("s2", "rows of session 2 (36)"), ("s3", "rows added in session 3")):
        lines.append(summary([p for p in points if p.row.get("added") == added], label, strict=True))
    lines.append(_goal_line(points))
    flagged = sum(p.impossible_ttft for p in points)
    lines.append(f"{flagged} TTFTs marked ⚠: faster than the GPU's peak could prefill the prompt (prefix-cache hits)")
    print("\n".join(lines))
    goals = "goals: median |error| ≤ {:.0%} TTFT / ≤ {:.0%} TPOT, p90 ≤ {:.0%} / {:.0%}".format(
        GOALS["ttft"][0], GOALS["tpot"][0], GOALS["ttft"][1], GOALS["tpot"][1]
    )
    print(goals)
    print(f"{len(points)} points, {statistics.fsum(p.seconds for p in points):.1f} CPU s")
    if args.write:
        write_text_atomic(DOC, _doc(points, lines, goals))
        write_text_atomic(ACCURACY_JSON, held_out_accuracy(points).model_dump_json(indent=2) + "\n")
        print(f"wrote {DOC.relative_to(ROOT)} and {ACCURACY_JSON.relative_to(ROOT)}")
    return 0


def held_out_accuracy(points: list[Point]) -> PredictorAccuracy:
    """The figure a prediction is shown with: the held-out rows, cached-prompt TTFTs out (as the goal check)."""
    held = [p for p in points if p.row["split"] == "holdout"]

    def figures(metric: str) -> ErrorFigures:
        errs = [e for p in held if (e := p.error(metric, strict=True)) is not None]
        return ErrorFigures(n=len(errs), median=round(pct(errs, 50), 4), p90=round(pct(errs, 90), 4))

    return PredictorAccuracy(
        measurements=len(held), sources=len({p.row["source_url"] for p in held}),
        ttft=figures("ttft"), tpot=figures("tpot"), doc=str(DOC.relative_to(ROOT)),
    )  # fmt: skip


def _doc(points: list[Point], lines: list[str], goals: str) -> str:
    return f"""# Predictor accuracy against public measurements

Generated by `bench/predictor_accuracy.py --write` from `tests/fixtures/predictor_accuracy.csv` (one published
measurement per row: source, engine and version, GPU, model and precision, load and lengths). Each point is
predicted with the code the CLI and the Sizing page use: the sizing core's roofline (per operator; MFU 0.5, MBU
0.75, 1 ms per step — defaults, not fitted here), the continuous-batching simulator, and the engine profile of
`resources/engines/profiles.json` (per-request overhead, batch defaults by GPU, how prefill and decode share steps).

**Goals and where they stand.** Median |error| ≤ 25 % (TTFT) / ≤ 15 % (TPOT), p90 ≤ 60 % / 30 %, judged on the
held-out rows with cached-prompt TTFTs left out. The "goal check" line below says it per engine. **Neither goal is
met, overall or for either engine.** Held-out TTFT: median 27 %, p90 65 % (session 3: 27.8 % / 60.2 %; the p90 got
worse, see below). Held-out TPOT: median 24 %, p90 62 % (session 3: 25.3 % / 62.2 %) — its tail is the seven
DeepSeek-R1-AWQ rows (−62 %), its median the A100 rows decoding 20–30 % slower than modelled; neither has a cited
cause yet (below). SGLang's held-out set is small (3 TTFTs, 3 TPOTs).

**Splits, and what was fitted.** Session 2's 36 rows keep their split. Rows added in session 3 got theirs before
they were predicted, by one rule: sources alternate in the order they were added (1st train, 2nd holdout, …:
tenstorrent #143 train, #356 holdout, sglang #1060 train, vllm #20469 holdout, the RTX 4090 blog train; the next
new source is held out); the `added` column says which session a row came from. Session 4 added no rows. Fitted to
train rows only: the profiles' per-request overheads (session 2) and, in session 3, one choice — `tp_efficiency`
now scales the compute side only, since the TP 2 train rows (Qwen2.5-72B on 2 × H100) were over-predicted by 12 %
with both it and the explicit all-reduce on the bandwidth side, and are within 2 % without it. On the held-out
4 × H100 rows that choice went the other way (their TPOT moved from −10…−32 % to −25…−43 %); it is kept because
reverting it for that reason would tune on the holdout. Nothing else is tuned to these points.

**Changes in session 4, made knowing the session-3 held-out errors.** Each comes from engine code or a published
method, has no parameter to set, and is kept whichever way it moved the held-out rows.
(1) *The roofline is applied per operator*: a step costs the linear layers' max(compute, weight read) plus the
attention's max(compute, KV read), since the GEMMs and the attention kernel run one after the other
(LLM-Viewer bounds each node and sums them: hahnyuan/LLM-Viewer `hardwares/roofline_model.py`); one max over the
summed FLOPs and bytes hid a bandwidth-bound attention behind compute-bound GEMMs. It changes only mixed regimes:
held-out A100 rows at 200 / 500 / 1000 requests at once, TPOT −38 / −32 / −39 % → −23 / −14 / −23 %, TTFT (500,
1000) −3 / −34 % → +13 / −20 %; a MoE prompt's second chunk now adds the experts' weight read and the attention
over the first chunk (tenstorrent Qwen3-30B-A3B, 3072-token prompt: TTFT +61 % → +68 %). Held-out TTFT p90 went
from 60.2 % to 65.0 % with it. (2) *SGLang runs prefill first*: its scheduler (`get_next_batch_to_run` in
sglang/srt/managers/scheduler.py) runs a new prefill batch alone whenever one can be scheduled and decodes only
otherwise; chunks share a step with decode only with `--enable-mixed-chunk`, off by default (server_args.py). The
SGLang profile now says so (`mixed_prefill: false`); the engine pauses the decoding requests in such steps. Rows
moved: train sgl1060 burst TPOT −94 % → −21 %, sgl-l8b-a100-r4 −7 % → −2 %; held-out sgl-l8b-a100-r8 TPOT
−24 % → −16 % (TTFT +1 % → −8 %), sgl-l70b-4h100-r4/r8 TPOT −30 / −43 % → −25 / −34 % (TTFT −24 / −24 % →
−25 / −28 %).

**Looked for in session 4 and not changed, with what was found.** *A per-GPU achievable bandwidth* (to explain
the A100): copy and stream measurements put the A100 at 87–89 % of its peak (A100 40 GB memcopy 1,355 of
1,555 GB/s: PTsolvers/gpu-workshop-JuliaCon23#7; A800 80 GB PCIe PyTorch copy 1,727 of 1,935 GB/s:
mli/transformers-benchmarks#4), and `p2pBandwidthLatencyTest`'s on-device figure at 75–77 % on both the A100
(~1,500 of 2,000, NVIDIA/cuda-samples#311) and the H100 (2,573 of 3,350, NVIDIA/nccl#1264); cuBLAS GEMMs with 16
rows on an A100 read at 1,400.6 GiB/s (4096²) and 1,660.8 GiB/s (16384²), 74–87 % of 2,039 GB/s
(ml-explore/mlx#3255), and a one-row BF16 GEMM on an H100 (8192²) at 2.30 TB/s, 69 % (inclusionAI/humming#2).
None puts the A100's share below the H100's, so a per-GPU MBU taken from them would not slow the A100's
decode: MBU stays 0.75 for every GPU and the A100 gap stays unexplained. *Marlin INT4 at batch 1 on Hopper*:
4.98 TFLOP/s at one row on 8192² (≈ 1.25 TB/s of weights, 37 % of peak against cuBLAS BF16's 69 %:
inclusionAI/humming#2) would lengthen the DeepSeek-R1-AWQ step by about 1.2 of its 6.1 ms (−62 % → about −55 %);
not added yet (one source group would use it, and no Ampere figure was found to say where it stops applying).
*Per-request CPU time per step in vLLM V1*: `update_from_output` takes 0.142 ms at 128 and 0.287 ms at 256
running requests (vllm-project/vllm#46112), about 1 µs per request — far too small for the A100 rows or the
RTX 4090 TTFTs (V0's 5–13 ms bubble per step, vllm-project/vllm#6854, is what multi-step scheduling amortises and
is modelled as such). *The RTX 4090 TTFT queue*: vLLM tokenizes prompts on one thread (`ThreadPoolExecutor
(max_workers=1)`, vllm-project/vllm#25301), so prompts can queue behind each other, but no cited per-prompt cost
of `--tokenizer-mode mistral` large enough to build an 800 ms queue at 12 requests/s was found.

**Engine behaviour modelled (not fitted).** vLLM V1 preemption: a step that had to preempt a running request
admits no waiting one (`if not preempted_reqs`), and a preempted request's freed blocks stay in the prefix cache
until other allocations evict them, so its recompute mostly hits the cache. vLLM 0.6 V0 `--num-scheduler-steps
10`: the scheduler runs once per window of 10 decode steps, so a new request waits for the running window (the
CSV's `num_scheduler_steps`, from the source's command line). SGLang: prefill batches run alone, decode waits.

**Physics added in session 3 (each value from a cited measurement, not from these rows).** Tensor-parallel
all-reduce: 2 per layer per step, each a link latency (NVLink 9 µs: vLLM's custom all-reduce on H100,
sgl-project/sglang#2904; PCIe 40 µs: NCCL on RTX 4090s, NVIDIA/nccl#1530) plus the ring's 2(n−1)/n of the
step's hidden states over the link's bus bandwidth (0.8 of NVLink, 0.5 of PCIe per direction); zero at TP 1
(4 × H100 70B TPOTs moved from −18…−39 % to −10…−32 % before the tp_efficiency choice above). Fused-MoE call:
45 µs per MoE layer per step on the memory side, the intercept of sglang's fused_moe tuning run at batch 1 and 2
(sgl-project/sglang#11816) — Qwen3-30B-A3B batch-1 TPOT went from −44 % to −21…−24 %. vLLM `--enforce-eager`:
0.34 ms per layer per step without CUDA graphs (vllm-project/vllm-omni#7960: a 28-layer 7B decoder, ~22 ms eager
vs ~13 ms with graphs), used for the row that ran eager (+11 %).

**Known gaps, read before trusting a figure.** TTFTs marked ⚠ are faster than the GPU's peak could prefill
the prompt at concurrency 1: the prompt's linear and causal-attention FLOPs over the dense peak, or the weights one
forward pass must read (every dense weight, and every expert a prompt token routes to) over the peak bandwidth,
imply more than 90 % of the peak (the memory side was added in session 5: a 128-token prompt on Qwen3-30B-A3B
touches nearly all 128 experts of every layer, 61 GB, which an A100 80GB reads in 30 ms at best; a 27 ms TTFT
there is a cache hit). The benchmark
repeated prompts and vLLM's prefix cache served them; the "cached-prompt TTFTs out" lines leave those TTFTs out
(their TPOTs stay in). DeepSeek-R1-AWQ on 8 × H100 decodes at 16 ms per token where the model gives 6 ms (−62 %):
61 layers of MLA, INT4 Marlin MoE and TP-8 all-reduces at batch 1 cost far more than their bytes (the Marlin
figure above explains about a sixth of it); no cited per-kernel account yet. The A100 rows decode 20–30 % slower
than the bandwidth roofline at batch 1 (tenstorrent; the vllm-omni A800 run with CUDA graphs, ~13 ms where the model gives ~11 ms, too) while the same kind
of run on an RTX 4090 and on 2 × H100 is within 2–15 %: not explained by any cited bandwidth figure (above), not
fitted. With 100–1000 requests at once on an A100 TPOT is still under-predicted by 14–29 %; the
4 × H100 Llama-70B rows by 24–34 %. The B200 FP8 MoE point (30k-token prompts, concurrency 64) is −81 % on TTFT
(FP8 long-context MoE prefill well below MFU 0.5; no Blackwell train row). SGLang's 2024 burst of 1000 8k-token
prompts: its ~4-token answers waited for the prefill batches between decode steps (TPOT 4.2 s); with prefill first
modelled it is −21 %. RTX 4090 closed loop (Mistral-7B, 256-token prompts, c = 4–48): the page's output rate over
its request rate is 100 tokens per answer at every level, so answers stopped at eos before the 128-token cap and
are modelled as 72–128 tokens (first modelled as a fixed 128, which kept the users in lock-step, all refilling in
the same step: TTFT +123…+556 % at c = 4–32). With that, TTFT is +21…+23 % at c = 4–8 and −29 / −63 / −86 % at
c = 16 / 32 / 48: the measured median TTFT climbs to 840 ms at c = 48 where the model, with vLLM's 256-sequence cap
and ample KV cache, queues nothing — not explained yet (see the tokenizer note above). Rows whose prompts were
sent all at once ("N at once") stress the scheduler's order of prefills, where small differences move TTFT a lot.

```
{chr(10).join(lines)}
{goals}
```

{table(points)}
"""


if __name__ == "__main__":
    sys.exit(main())
