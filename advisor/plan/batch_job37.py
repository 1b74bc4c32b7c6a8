"""An offline batch job's memo words (issue #25, blind review 26, q06/q28): a job starts, it is not launched; it is
run with ``vllm run-batch`` on shards; it cites no soak-test source; the review it waits for sets its start date.

- q06 en: "It serves the job through `vllm serve` but never says how the 2 M documents are sharded across 8 VMs,
  retried and checkpointed. I would add `vllm run-batch` … with resumable shards."
- q06 zh: "the '最早上线' wording is odd for a batch job, and the source list still mentions soak tests".
- q28: "The unknown-length outsourcing review, not the GPUs, will likely set the real start date, so say that in
  the headline"; "step 4 (ask sales for 12×H20) is noise for a one-off 19-hour job".
"""

from __future__ import annotations

import shlex
from typing import Any

from advisor.i18n import translate
from advisor.plan.memo_text15 import batch_job
from advisor.plan.result import Source, render

# A one-off job billed for at most this many hours (a day or two) is not worth a sales quote for a cheaper part when
# the chosen part is rented on demand now: the quote's wait alone outlasts the job (q28: "a one-off 19-hour job").
SHORT_JOB_HOURS = 48.0

# The seed method's source as a batch job uses it: the A/B on a sample of the job, no soak (q06 zh)
SOAK_SOURCE_PREFIX = "Seed method: a ramp to the knee, a soak"
JOB_METHOD_SOURCE = "Seed method: a quantized-vs-baseline A/B on a sample of the job at its real prompt lengths"

# `vllm serve` flags that only a server takes (its address and key): never passed to `vllm run-batch`
_SERVER_ONLY = {"--host", "--port", "--api-key", "--uds"}


def launch_label(result: Any, lang: str) -> str:
    """Page 1's row name: "Earliest start" for a job (a job is started, not launched), "Earliest cutover" for a
    running ICP-filed service moved to a new provider (its access record on the timeline: blind review 27, q31, "'Earliest
    launch in 31–95 days' wrongly suggests the running service stops"), "Earliest launch" else."""
    if batch_job(result):
        return translate(lang, "batchjob37_key.start")
    return translate(lang, "lines38_key.cutover" if moves_running(result) else "memo.key.launch")


def moves_running(result: Any) -> bool:
    """The plan moves a service that already runs (ICP-filed, its access record with the new provider on the
    timeline: ``engine``'s ``icp_access_record``): its date is a cutover, the service stays up until then."""
    return any(i.id == "icp_access_record" for i in getattr(result.timeline, "items", []) or [])


def start_setter(result: Any, lang: str) -> str:
    """For a job waiting on steps of unknown length (a review, an assessment) and on no timed filing: the clause
    saying those, not the GPUs, set its start date; "" elsewhere."""
    if not batch_job(result) or result.timeline.gate is not None:
        return ""
    return translate(lang, "batchjob37_key.start_set_by")


def short_job(costs: Any) -> bool:
    """A one-off job billed for at most SHORT_JOB_HOURS (job + setup, the high end)."""
    hours = getattr(costs, "billed_hours", None) if costs is not None and getattr(costs, "per_job", False) else None
    return hours is not None and hours.high <= SHORT_JOB_HOURS


def run_command(result: Any, command: str | None) -> str | None:
    """The serve command turned into the job's run: ``vllm run-batch`` over the replica's own shard (an OpenAI batch
    file), the same model and engine flags; None where it is no job or no vLLM serve command."""
    if not command or not batch_job(result):
        return None
    words = shlex.split(command)
    try:
        at = words.index("serve")
    except ValueError:
        return None
    if at == 0 or words[at - 1] != "vllm" or at + 1 >= len(words):
        return None
    env, model, flags = words[:at - 1], words[at + 1], words[at + 2:]
    kept: list[str] = []
    skip = False
    for w in flags:
        if skip:
            skip = False
            continue
        if w.split("=")[0] in _SERVER_ONLY:
            skip = "=" not in w
            continue
        kept.append(w)
    run = [*env, "vllm", "run-batch", "-i", "shard-NN.jsonl", "-o", "results-NN.jsonl", "--model", model, *kept]
    return " ".join(shlex.quote(w) if w != "shard-NN.jsonl" else w for w in run)


def run_block(result: Any, lang: str, command: str | None) -> dict[str, str] | None:
    """Section 2's "run the job" block: why shards, then the command; None where there is none."""
    run = run_command(result, command)
    if run is None:
        return None
    n = max(1, int(result.hardware.replicas or 1))
    return {"intro": render(lang, "batchjob37_run.intro", {"n": n}), "command": run}


def job_sources(sources: list[Source], is_batch: bool) -> list[Source]:
    """A job's sources: the seed method without its soak test (a job runs none); ``sources`` unchanged else."""
    if not is_batch:
        return sources
    return [s.model_copy(update={"title": JOB_METHOD_SOURCE}) if s.title.startswith(SOAK_SOURCE_PREFIX) else s
            for s in sources]


__all__ = ["SHORT_JOB_HOURS", "job_sources", "launch_label", "moves_running", "run_block", "run_command", "short_job",
           "start_setter"]
