"""An offline batch job's first test: its throughput on a sample of the job itself (issue 25, s15-polish).

A job has no interactive latency target: what decides its hours is the output tokens/s a replica reaches on the
job's own prompts at the load the plan runs it (as many sequences as the KV cache holds). So the next step runs a
sample of the job's requests (its own prompts, ``--dataset``) through one replica at that load and compares the
rate with the plan's; no latency ramp, no soak. The quality check of quantized weights or an FP8 KV cache uses the
same sample.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.result import NextStep

SAMPLE = "YOUR_JOB_SAMPLE.jsonl"  # a few hundred of the job's own requests, as the bench reads them
SAMPLE_PER_SEQUENCE = 20  # requests in the sample per sequence running at once: every sequence slot turns over


def batch_load(ch: Any | None) -> int:
    """Sequences one replica runs at once in the plan (at least 8 when there is no setup to read it from)."""
    return max(8, ch.per_replica) if ch is not None else 8


def throughput_step(c: Ctx, ch: Any | None, url: str, served: str) -> NextStep:
    """Run a sample of the job through one replica and compare its output tokens/s with the plan's."""
    n = batch_load(ch)
    requests = SAMPLE_PER_SEQUENCE * n
    command = (f"advisor bench --url {url} --model {served} --concurrency {n} --requests {requests} "
               f"--dataset {SAMPLE} --max-tokens {c.output_p95}")  # fmt: skip
    rate = ch.tokens_per_s_replica if ch is not None else 0.0
    if ch is None or rate <= 0 or not c.total_requests:
        return NextStep(id="batch_throughput", key="plan.next.batch_sample_no_setup",
                        params={"concurrency": n, "requests": requests}, command=command)  # fmt: skip
    hours = c.total_requests * c.output_avg / (rate * ch.replicas) / 3600
    return NextStep(
        id="batch_throughput", key="plan.next.batch_sample",
        params={"concurrency": n, "requests": requests, "tok_s": round(rate), "replicas": ch.replicas,
                "hours": round(hours, 1)},
        command=command,
    )  # fmt: skip
