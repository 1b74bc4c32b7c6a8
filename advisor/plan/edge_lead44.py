"""Page 1's edge-risks paragraph led by its one rule, the risks then listed apart (vrd44, blind review 35, q10).

q10 (a 128k-context assistant on one H800 server) gathered its edge risks in one dense line ("Feasible on conditions;
the risks at the edge: 0 % headroom …; a predicted P99 …; one server, no spare; ¥67,121–¥178,017 … straddling …; H800
not sold new. Commit only on …"). Reviewers: "lead with one line (pilot on a daytime or hourly price, about
¥35,929–¥96,766, and sign only at ≤ ¥16,300 a GPU a month), then list the three risks", and "state that H800 is
stock-only and needs a written supply commitment for the whole 12 months". Where the plan has such a line
(``edge_risks38.line``) and both the day-only price and the quote the budget fits at are known, the paragraph is: the
pilot-and-sign rule, the risks as a list, the stock-only part's supply commitment, the pressure test to commit on.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import edge_risks38, feasible_list44
from advisor.plan.result import PlanResult, render


def _phrase(lang: str, r: dict[str, Any]) -> str:
    return render(lang, str(r["tr"]), {k: v for k, v in r.items() if k != "tr"})


def line(result: PlanResult, lang: str) -> str:
    """The paragraph as Markdown (the lead line, the numbered risks, the supply line), or "" where it does not apply."""
    if not result.feasible:
        return ""
    found = edge_risks38.risks(result)
    if len(found) < edge_risks38.MIN_RISKS:
        return ""
    day = edge_risks38._daytime_step(result)
    fit = feasible_list44.quote_fit(result)
    if day is None or not fit:
        return ""
    n = next(i for i, s in enumerate(result.next_steps, start=1) if s.id == "replacement_time")  # the day price's
    bench = [c for c in edge_risks38.conditions(result, found) if str(c["tr"]).startswith("longctx38_cond.bench")]
    after = translate(lang, "vrd44.edge.after", test=_phrase(lang, bench[0])) if bench else ""
    out = [render(lang, "vrd44.edge.lead", {"day_monthly": day["day_monthly"], "fit": fit, "n": n, "after": after}), ""]
    legacy = [r for r in found if str(r["tr"]).endswith(".legacy")]
    # numbered in one paragraph, not a bulleted block: the memo keeps to its five pages (q10 zh ran to six)
    items = [translate(lang, "vrd44.feasible.item", n=i, text=_phrase(lang, r))
             for i, r in enumerate((r for r in found if r not in legacy), start=1)]
    out.append(translate(lang, "vrd44.edge.risks") + translate(lang, "vrd44.feasible.sep_out").join(items)
               + translate(lang, "vrd44.edge.stop"))
    if legacy:
        months = (result.answers or {}).get("expected_duration_months")
        term = translate(lang, "vrd44.edge.term_months", n=months) if months else translate(lang, "vrd44.edge.term")
        out += ["", translate(lang, "vrd44.edge.stock", gpu=legacy[0]["gpu"], term=term)]
    return "\n".join(out)


__all__ = ["line"]
