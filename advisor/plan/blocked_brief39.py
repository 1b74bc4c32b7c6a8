"""Page 1's hardware and cost in one line where a rule may never let the service run (s37-blocked, blind review 28).

q07 (a paid homework app for pupils) is blocked first by 双减: the education authority may rule that the service
may not be offered at all, and no choice of GPU lifts that. Reviewers of both languages read page 1's two rows on
nine reserved L20s, with the reserve-all price beside the reserved mix, as detail for "a plan that may never be
approved": "shorten that to one line until 双减 is answered". Where such a blocker stands, the hardware row says the
setup and its month in one line, pointing at sections 2 and 4 (which keep the sizing and the prices in full), and the
cost row is dropped. A filing that only takes longer than the deadline (``genai.filing_deadline``, q30) is not such a
blocker: the service is allowed once filed, so the team prepares the hardware meanwhile and the rows stay in full.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import indicative44
from advisor.plan.money_text import money_range

# blockers that decide whether the service may run at all, whatever the hardware (not how soon): the key says who
# answers them
NOT_PERMITTED = {"edu.double_reduction": "blk39_brief.until.double_reduction"}


def blocker(result: Any) -> str | None:
    """The id of the first blocker that may forbid the service outright, or None (feasible plans, hosted APIs,
    plans with no part of their own, two priced nodes keep their rows)."""
    hw = result.hardware
    if result.feasible or not hw.gpu or result.deployment_form == "hosted_api" or result.nodes:
        return None
    if result.costs.recommended_monthly is None:
        return None
    return next((f.id for f in result.findings if f.severity == "blocker" and f.id in NOT_PERMITTED), None)


def row_value(result: Any, lang: str) -> str | None:
    """"9 × NVIDIA L20 48GB: 9 replicas of 1 GPU, weights in fp8; about 56,854–65,708 CNY a month (58,569–67,708
    with the network line); sized and priced in full in sections 2 and 4, to settle once …"; None where
    ``blocker`` finds none."""
    found = blocker(result)
    if found is None:
        return None
    hw, c = result.hardware, result.costs
    setup = translate(lang, "memo.key.hardware_value", total=hw.total_gpus, gpu=hw.gpu_name or hw.gpu,
                      per=hw.gpus_per_replica, replicas=hw.replicas, weights=hw.weights or "—")
    line = ""
    if c.monthly_with_line is not None and result.line_cost is not None:
        line = translate(lang, "blk39_brief.with_line", total=money_range(c.monthly_with_line, c.currency))
    who = indicative44.until(found, lang)  # "indicative until the authority answers" (vrd44, review 35: q07)
    if who is not None:
        return translate(lang, "vrd44.indicative.row", setup=setup, line=line, until=who,
                         month=money_range(c.recommended_monthly, c.currency))
    return translate(lang, "blk39_brief.row", setup=setup, month=money_range(c.recommended_monthly, c.currency),
                     line=line, until=translate(lang, NOT_PERMITTED[found]))


def shrink(result: Any, lang: str, rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Page 1's rows with the hardware row made the one line and the cost row dropped; ``rows`` as they are where no
    such blocker stands."""
    value = row_value(result, lang)
    if value is None:
        return rows
    hardware = {translate(lang, "memo.key.hardware"), translate(lang, "memo.key.hardware_as_asked")}
    cost = translate(lang, "memo.key.cost")
    out: list[tuple[str, str]] = []
    for k, v in rows:
        if k in hardware and not any(a in hardware for a, _ in out):
            out.append((translate(lang, "blk39_brief.label"), value))
        elif k not in hardware and k != cost:
            out.append((k, v))
    return out


__all__ = ["NOT_PERMITTED", "blocker", "row_value", "shrink"]
