"""Page 1 of a plan blocked only by the GPU asked, when the memo's own fix is that GPU swap (vrd44, blind review 35).

q19 asks for H100 on the mainland (export-controlled) and q20 for China-market parts in Singapore. Each memo re-plans
on lawful parts (5 × L20; 2 × L40S with plan B 4 × L4) that meet the target, yet page 1 read like a rejection: "As
asked, this cannot be done", "Feasible as asked: no", "Earliest launch only once the blockers are solved". Reviewers
of both languages asked for "not on H100; feasible on L20, launch in 1–5 days". Where every blocker is the asked
GPU's availability and the one fix is the setup the memo already sets out (``critical_steps.replanned_already``), the
headline, the launch row and the feasibility row say so, the blocker's reason kept. The decision field ``feasible``
stays False: as asked (on that GPU) the plan is still not possible.
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import critical_steps
from advisor.plan.result import PlanResult

# blockers that only say the asked GPU cannot be had where the plan runs (the fix swaps it, nothing else changes)
GPU_ONLY = frozenset({"gpu.not_in_region", "gpu.not_offered_offshore"})


def applies(result: PlanResult) -> bool:
    """Infeasible only for the GPU asked, and the memo's setup is the one fix that swaps it."""
    if result.feasible or result.timeline.launch_days_low is None:
        return False
    blockers = {f.id for f in result.findings if f.severity == "blocker"}
    return bool(blockers) and blockers <= GPU_ONLY and critical_steps.replanned_already(result)


def _asked_and_reason(result: PlanResult, lang: str) -> tuple[str, str]:
    """The asked GPUs' names and the blocker's reason without them ("export-controlled for China, …")."""
    f = next(f for f in result.findings if f.severity == "blocker" and f.id in GPU_ONLY)
    raw = f.params.get("gpus") or ""
    gpus = ", ".join(map(str, raw)) if isinstance(raw, (list, tuple)) else str(raw)  # a list where several are asked
    title = f.title_in(lang)
    named = next((g for g in (gpus, gpus.replace(", ", "、")) if g and title.startswith(g)), "")  # zh joins with 、
    reason = title[len(named):].lstrip(":： ") if named else title
    if ", " in gpus:  # "Not on H20 or L20": none of them (Chinese: the enumeration comma, review 35, q20 zh)
        head, _, last = gpus.rpartition(", ")
        gpus = translate(lang, "vrd44.swap.either", head=head.replace(", ", "、" if lang == "zh_CN" else ", "), last=last)
    if lang == "zh_CN":
        reason = reason.removeprefix("是")  # "（中国市场专供型号…）", not "（是…）"
    return gpus, reason.rstrip("。.")


def _fix_setup(result: PlanResult, lang: str, *, plan_b: bool = True) -> str:
    """"5 × NVIDIA L20 48GB", with the region's priced plan B where the part rests on a quote (q20: "or 4 × L4")."""
    hw = result.hardware
    setup = translate(lang, "vrd44.swap.setup", n=hw.total_gpus, gpu=hw.gpu_name or hw.gpu)
    fb = result.in_region_fallback
    if plan_b and fb and fb.get("meets") and fb.get("instead_of") == (hw.gpu_name or hw.gpu):
        setup += translate(lang, "vrd44.swap.plan_b", n=fb["n"], gpu=fb["gpu"])
    return setup


def _days(result: PlanResult) -> str:
    tl = result.timeline
    return str(tl.launch_days_low) if tl.launch_days_low == tl.launch_days_high else \
        f"{tl.launch_days_low}–{tl.launch_days_high}"


def headline(result: PlanResult, lang: str) -> str | None:
    """"Not on NVIDIA H100 SXM5 80GB (export-controlled for China, …); feasible on 5 × NVIDIA L20 48GB, launch in
    1–5 days."; None where ``applies`` does not."""
    if not applies(result):
        return None
    gpus, reason = _asked_and_reason(result, lang)
    return translate(lang, "vrd44.swap.headline", asked=gpus, reason=reason, fix=_fix_setup(result, lang),
                     days=_days(result))


def launch_text(result: PlanResult, lang: str, days: str) -> str | None:
    """The launch row: "1–5 days on 5 × NVIDIA L20 48GB", not "only once the blockers are solved"."""
    if not applies(result):
        return None
    return translate(lang, "vrd44.swap.launch", days=days, fix=_fix_setup(result, lang, plan_b=False))


def feasible_text(result: PlanResult, lang: str) -> str | None:
    """The feasibility row: "not on NVIDIA H100 SXM5 80GB; yes on 5 × NVIDIA L20 48GB", not a bare "no"."""
    if not applies(result):
        return None
    gpus, _ = _asked_and_reason(result, lang)
    return translate(lang, "vrd44.swap.feasible", asked=gpus, fix=_fix_setup(result, lang))


__all__ = ["GPU_ONLY", "applies", "feasible_text", "headline", "launch_text"]
