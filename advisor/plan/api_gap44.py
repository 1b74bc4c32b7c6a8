"""A far cheaper hosted API said in the recommendation itself on a mainland self-hosted page, with what makes it
lawful and who signs it off (s42-api, blind review 35: q14, q19, q35).

q35 (DeepSeek-V3 on 16 H20s for internal analysts): "the hosted-API gap (about ¥387 a month against ¥62,946–¥183,261,
163–473×) should lead section 1, with a line on who must approve sending prompts to a filed mainland API"; q19: "the
bigger decision and deserves a line in the recommendation, not only 'check first'"; q14 (patients' data): "a filed
mainland API under a PIPL Art. 21 contract with a PIA is lawful, so present it as a control choice with its
conditions". The recommendation line now ends on the gap, the conditions (a provider whose model service is filed,
an entrusted-processing contract, an impact assessment where the prompts carry personal information) and who
approves; the paragraph below the reasons keeps the figures' detail. Only where the plan's month is at least
``FAR`` times the API's at every price, the plan runs its own GPUs, the API is not ruled out, and the page is a
mainland one (the filing and PIPL terms are the mainland's).

s42-apif (blind review 36, q14/q35/q42): where the page keeps self-hosting for a reason it states, the gap is an
option weighed after those reasons (``considered``), not the line under the recommendation; every form gives the
ratio at both ends of the API's volume (the usage guess and its high end), and zh says 这一点值得先定, not a calque.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.money_text import money_range, round_money
from advisor.plan.reasons import API_MOOT_BLOCKERS

FAR = 5.0  # the plan's low month at least this many times the API's high month


def _moot(result: Any) -> bool:
    """A blocker an API would not lift (a filing, the data's region); a GPU not sold in the region is lifted by it
    (q19: the export-controlled card is the only blocker, and the API needs no GPU)."""
    keep = tuple(b for b in API_MOOT_BLOCKERS if not b.startswith("gpu."))
    return any(f.severity == "blocker" and f.id.startswith(keep) for f in result.findings)


def _ruled_out(result: Any) -> bool:
    return any(str(f.title_key).endswith("ruled_out.title") for f in result.findings)


def times(result: Any) -> tuple[float, float] | None:
    """(low, high) of how many times the API's month the plan's costs, where the gap is far; else None."""
    c, start = result.costs, result.start_with
    if c is None or getattr(c, "per_job", False) or str(result.region) != "mainland":
        return None
    hosted, plan = c.hosted_api_monthly, c.recommended_monthly
    if hosted is None or plan is None or hosted.low <= 0 or hosted.high <= 0:
        return None
    if c.hosted_api_priced_on:  # another model's list prices: a model change, not "the same model" (q10)
        return None
    # an API lead says its own month; an infeasible plan's lead is not shown (its blockers lead), so it is said here
    if result.deployment_form == "hosted_api" or (start is not None and start.form == "hosted_api" and result.feasible):
        return None
    if _moot(result) or _ruled_out(result) or plan.low < FAR * hosted.high:
        return None
    return plan.low / hosted.high, plan.high / hosted.low


def _high_end(result: Any, lang: str) -> str:
    """", about 4–6× at the volume's high end (¥4,671 a month)", or "" where the volume has no higher figure: the
    low usage guess alone overstates the gap (review 36, q14: "80–239× … at the peak-consistent high end only 4–6×")."""
    c = result.costs
    factor = high_end_factor(c)
    if factor <= 1.0:
        return ""
    top = c.hosted_api_monthly.high * factor
    plan = c.recommended_monthly
    lo, hi = plan.low / top, plan.high / top
    ratio = f"{lo:,.0f}" if round(lo) == round(hi) else f"{lo:,.0f}–{hi:,.0f}"
    return translate(lang, "apf44.gap.high", times=ratio, hosted=f"{round_money(top)} {c.currency}")


def sentence(result: Any, lang: str, considered: bool = False, tail: bool = False) -> str:
    """" A hosted API of the same model would cost 163–473 times less (…): weigh this first …", or "".
    ``considered``: the page keeps self-hosting for a reason it states (its "why not a hosted API" line), so the
    gap is said after those reasons as an option weighed, with its conditions, never as the page's lead (review 36,
    q14, q35: "opens with 80–239× … then argues against the API"). ``tail``: said inside that "why not" paragraph,
    without a heading of its own (the page's length: one paragraph, not two)."""
    got = times(result)
    if got is None:
        return ""
    c = result.costs
    data = (result.answers or {}).get("data_sensitivity") or {}
    pi = bool(data.get("personal_info"))
    health = pi and data.get("sector") == "medical"
    cond = translate(lang, "api44.gap.cond.pi" if pi else "api44.gap.cond.plain")
    if health:
        cond += translate(lang, "api44.gap.cond.health")
    who = translate(lang, "api44.gap.who.pi" if pi else "api44.gap.who.plain")
    key = ("apf44.gap.considered_tail" if tail else "apf44.gap.considered") if considered else "apf44.gap.line"
    return translate(lang, key,
                     times=f"{got[0]:,.0f}–{got[1]:,.0f}", high=_high_end(result, lang),
                     hosted=money_range(c.hosted_api_monthly, c.currency),
                     plan=money_range(c.recommended_monthly, c.currency), cond=cond, who=who)


__all__ = ["FAR", "sentence", "times"]
