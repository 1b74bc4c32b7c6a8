"""A batch job on rented cloud GPUs: the two steps before its clock starts (issue #25, blind review 23: q06, q28).

- Quota: the plan's hours count every replica running from the job's start, so all its instances must be had at
  once, in one region (the account's GPU quota and the zone's stock), before the deadline's clock starts; the
  timeline said it only in passing ("confirm the provider can give all the GPUs at once"). For a bank or insurer
  the provider's financial-cloud (金融云) zone is where to ask first: the outsourcing review would otherwise look at
  a general zone and its length is unknown.
- Data: the files carry personal information on machines a provider runs. Encrypt the disks and storage (keys held
  by the customer where the cloud allows), and wipe the disks, snapshots, images and logs at the end of the job,
  keeping the deletion records for the audit (PIPL Art. 51 asks for encryption; the sensitive-data finding cites
  it). A job's volumes outlive it unless deleted: a service keeps its disks, a job should not.

Both steps go after the quote of the instances (one cannot confirm a quota before knowing the size) and before the
first replica is started.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import NextStep
from advisor.plan.sector_kinds import FINANCE_SECTORS

QUOTA_ID = "job_quota"
DATA_ID = "job_data"
MAINLAND = ("mainland", "mainland_plus_overseas")
_BEFORE = ("serve", "batch_throughput", "quant_ab")  # the steps that run the job's setup


def _instances(hardware: Any) -> tuple[int, int]:
    """(instances, GPUs an instance) the plan rents: its layout's, or one GPU a VM where none is said."""
    lay = getattr(hardware, "layout", None)
    if lay is not None and lay.units and lay.unit_gpus:
        return lay.units, lay.unit_gpus
    return hardware.total_gpus, 1


def with_steps(steps: list[NextStep], c: Any, form: str, hardware: Any, region: str, feasible: bool) -> list[NextStep]:
    """``steps`` with the quota gate (and, where the job's files carry personal information, the encrypt-and-wipe
    step) before the first step that starts a replica; unchanged for anything but a feasible job on rented GPUs."""
    if not (c.is_batch and form == "cloud" and feasible and hardware.gpu and c.batch_hours):
        return steps
    units, unit = _instances(hardware)
    finance = region in MAINLAND and any(s in c.sector for s in FINANCE_SECTORS)
    quota = NextStep(id=QUOTA_ID, key="steps34.next.job_quota" + ("_finance" if finance else ""), params={
        "units": units, "unit": unit, "gpu": hardware.gpu_name or hardware.gpu, "deadline": f"{c.batch_hours:g}"})
    added = [quota]
    if c.personal_info:
        added.append(NextStep(id=DATA_ID, key="steps34.next.job_data", params={}))
    rest = [s for s in steps if s.id not in (QUOTA_ID, DATA_ID)]
    at = next((i for i, s in enumerate(rest) if s.id in _BEFORE), len(rest))
    return rest[:at] + added + rest[at:]


def timeline_items(items: list[Any], steps: list[NextStep]) -> list[Any]:
    """The timeline's set-up row without "confirm the provider can give all the GPUs at once" where the quota step
    says it (said once: the step, with the count and the region); unchanged otherwise."""
    if not any(s.id == QUOTA_ID for s in steps):
        return items
    return [i.model_copy(update={"label_key": "steps34.timeline.setup_batch"})
            if i.id == "setup" and i.label_key == "batch21.timeline.setup_batch" else i for i in items]


__all__ = ["DATA_ID", "QUOTA_ID", "timeline_items", "with_steps"]
