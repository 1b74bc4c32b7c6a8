"""CPU cost of vLLM's V1 scheduler per running request per decode step, measured on this machine.

Why: between two GPU steps vLLM's engine core schedules the next one (`Scheduler.schedule`: every running
request gets its token budget and KV blocks) and books the last one's tokens (`update_from_output`: append,
stop checks, block hashes for prefix caching). Before async scheduling became vLLM's default (PR #27614, after
0.11; vllm-project/recipes#131 still documents `--async-scheduling` as opt-in for 0.11.x) that work ran between
GPU steps, so every decode step was longer by it; since then the next step is scheduled while the GPU runs this
one. Either way it grows with the batch. This script drives vLLM's own scheduler with no model: requests are added,
each step's output is one sampled token per scheduled request, and the two calls are timed.

    .venv/bin/python bench/scheduler_costs.py [--running 1 64 256 1024] [--steps 200]

Needs the vLLM CPU venv that tools/interop/run.sh builds in .interop/vllm (any Python re-runs it there); prints
"skipped" without it. One line per batch size; nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VLLM_PYTHON = ROOT / ".interop" / "vllm" / "bin" / "python"

try:
    import torch
    from vllm.config import CacheConfig, ModelConfig, SchedulerConfig, VllmConfig
except ModuleNotFoundError:
    if VLLM_PYTHON.exists() and Path(sys.prefix).resolve() != VLLM_PYTHON.parents[1].resolve():
        os.execv(str(VLLM_PYTHON), [str(VLLM_PYTHON), __file__, *sys.argv[1:]])
    print("skipped: needs vLLM's CPU build in .interop/vllm (tools/interop/run.sh builds it)")
    raise SystemExit(0) from None

from vllm import __version__ as vllm_version  # noqa: E402
from vllm.sampling_params import SamplingParams  # noqa: E402
from vllm.utils.hashing import get_hash_fn_by_name  # noqa: E402
from vllm.v1.core.kv_cache_utils import get_request_block_hasher, init_none_hash  # noqa: E402
from vllm.v1.core.sched.scheduler import Scheduler  # noqa: E402
from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec  # noqa: E402
from vllm.v1.outputs import ModelRunnerOutput  # noqa: E402
from vllm.v1.request import Request  # noqa: E402
from vllm.v1.structured_output import StructuredOutputManager  # noqa: E402

MODEL = ROOT / ".interop" / "tiny-hf"  # only its config is read (vocabulary, max length)
BLOCK = 16
BLOCKS = 200_000  # far more than the runs need: no preemption, no waiting for blocks


def scheduler(max_seqs: int) -> Scheduler:
    model = ModelConfig(model=str(MODEL), dtype="float32", seed=0, max_model_len=2048)
    sched = SchedulerConfig(max_num_seqs=max_seqs, max_num_batched_tokens=max(8192, max_seqs), max_model_len=2048,
                            is_encoder_decoder=False)  # fmt: skip
    cache = CacheConfig(block_size=BLOCK, cache_dtype="auto")  # prefix caching on, as vLLM serves by default
    cache.num_gpu_blocks = BLOCKS
    config = VllmConfig(model_config=model, scheduler_config=sched, cache_config=cache)
    spec = FullAttentionSpec(block_size=BLOCK, num_kv_heads=1, head_size=16, dtype=torch.float32)
    kv = KVCacheConfig(num_blocks=BLOCKS, kv_cache_tensors=[], kv_cache_groups=[KVCacheGroupSpec(["layer"], spec)])
    return Scheduler(vllm_config=config, kv_cache_config=kv, structured_output_manager=StructuredOutputManager(config),
                     block_size=BLOCK, log_stats=True)  # fmt: skip


def step_seconds(running: int, steps: int, prompt: int = 64) -> tuple[float, int]:
    """Median seconds of schedule() + update_from_output() over the second half of ``steps`` decode steps."""
    hash_fn = get_hash_fn_by_name("sha256")  # vLLM's default prefix-caching hash
    init_none_hash(hash_fn)
    hasher = get_request_block_hasher(BLOCK, hash_fn)
    s = scheduler(running)
    params = SamplingParams(max_tokens=1_000_000, ignore_eos=True, temperature=0.6, top_p=0.95)
    for i in range(running):  # distinct prompts: no prefix-cache hits between them
        s.add_request(Request(f"r{i}", [1 + (i * 7919 + j) % 400 for j in range(prompt)], params, None, block_hasher=hasher))
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        out = s.schedule()
        ids = list(out.num_scheduled_tokens)
        sampled = ModelRunnerOutput(req_ids=ids, req_id_to_index={r: k for k, r in enumerate(ids)},
                                    sampled_token_ids=[[7] for _ in ids])  # fmt: skip
        s.update_from_output(out, sampled)
        times.append(time.perf_counter() - start)
    return statistics.median(times[steps // 2 :]), len(s.running)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--running", type=int, nargs="+", default=[1, 64, 256, 1024])
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"vLLM {vllm_version} V1 scheduler, schedule() + update_from_output() per decode step (prefix caching on)")
    for n in args.running:
        seconds, running = step_seconds(n, args.steps)
        print(f"running {running:5d}: {seconds * 1e3:8.3f} ms per step, {seconds / max(running, 1) * 1e6:6.1f} µs per request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
