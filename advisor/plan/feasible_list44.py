"""The "Feasible as asked" cell as short separate conditions, not one run-on conditional (vrd44, blind review 35).

Each rule that holds the plan to a condition appended its own clause to the cell ("conditional: yes, unless the
quotes come in near the high end: …; yes, once this is done: …; and only if the measured P99 …; and only on the
commitments …"). Reviewers of q10 in both languages could not parse it ("有条件：可行，除非…；是，但须先完成…；并且…":
"rewrite it as three short conditions"). Where the cell is such a chain, its clauses are numbered, each without the
connective that tied it to the one before, the budget clause cut to its rule (the quote it fits at) and the steps
to finish first said as such. The words come from ``vrd44.feasible.*``; nothing is dropped.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import budget_fit43, budget_share
from advisor.plan.line_total import judged_total
from advisor.plan.money_text import round_money
from advisor.plan.result import render

_CLOSE = {"(": ")", "（": "）", "[": "]"}


def _split(body: str, sep: str) -> list[str]:
    """``body`` cut at each ``sep`` outside brackets."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch in _CLOSE:
            depth += 1
        elif ch in _CLOSE.values():
            depth = max(0, depth - 1)
        elif depth == 0 and body.startswith(sep, i):
            parts.append(body[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(body[start:])
    return [p.strip() for p in parts if p.strip()]


def _prefix(lang: str, key: str, param: str) -> str:
    """A key's words before its ``param`` ("yes, once this is done: "), to recognise a clause it opened."""
    mark = "\x00"
    return translate(lang, key, **{param: mark}).split(mark)[0]


def quote_fit(result: Any) -> dict[str, Any] | None:
    """The per-GPU quote at or under which a month straddling the budget (all but its top) fits it, as
    ``budget_fit43.quote_at`` gives it; None elsewhere."""
    c = result.costs
    if c is None or not c.budget_straddles or c.budget_monthly is None or c.recommended_monthly is None:
        return None
    total = judged_total(c) or c.recommended_monthly
    if budget_share.part(total.low, total.high, c.budget_monthly) != "most":
        return None
    return budget_fit43.quote_at(c, total.low, total.high, c.budget_monthly)


def _budget_rule(result: Any, lang: str) -> tuple[str, str] | None:
    """(the budget clause as ``budget_words`` writes it with the quote it fits at, its short form); None where the
    cell has no such clause."""
    fit = quote_fit(result)
    if not fit:
        return None
    c = result.costs
    total = judged_total(c) or c.recommended_monthly
    per = "memo.capacity16.per_job" if c.per_job else "memo.capacity16.per_month"
    params = {"low": round_money(total.low), "high": round_money(total.high), "budget": round_money(c.budget_monthly),
              "currency": c.currency, "per": {"tr": per}, "fit": fit,
              "pct": budget_share.percent(total.low, total.high, c.budget_monthly)}
    return (render(lang, budget_fit43.key("ownrent24.feasible_unless_top", fit), params),
            render(lang, "vrd44.feasible.quote", params))


def _short(clause: str, result: Any, lang: str) -> str:
    """One condition in its own words: the connective that chained it dropped, the budget clause as its rule."""
    rule = _budget_rule(result, lang)
    if rule is not None and clause == rule[0]:
        return rule[1]
    for key in ("memo.key.feasible_once", "memo.key.feasible_once_all"):
        head = _prefix(lang, key, "steps")
        if head and clause.startswith(head):
            return translate(lang, "vrd44.feasible.first", steps=clause[len(head):])
    head = _prefix(lang, "pages26.feasible.once_step", "n")  # "yes, once what next step 1 lists is done"
    tail = translate(lang, "pages26.feasible.once_step", n="\x00").split("\x00")[-1]
    step = clause[len(head):len(clause) - len(tail)] if tail else clause[len(head):]
    if head and clause.startswith(head) and clause.endswith(tail) and step.isdigit():
        return translate(lang, "vrd44.feasible.first_step", n=step)
    leads = [w for w in translate(lang, "vrd44.feasible.leads").split("|") if w]
    while any(clause.startswith(w) for w in leads):  # "and only if …", "是，但须先完成…": the chain's joints
        clause = clause[len(next(w for w in leads if clause.startswith(w))):]
    return clause


def _steps_together(lang: str, clauses: list[str]) -> list[str]:
    """The steps of "yes, once these are done: A; B" kept in one condition ("A, B, done first"): the clauses after
    it that no connective opens are its steps, cut apart by the split."""
    head = _prefix(lang, "memo.key.feasible_once_all", "steps")
    leads = [w for w in translate(lang, "vrd44.feasible.leads").split("|") if w]
    out: list[str] = []
    steps = False
    for c in clauses:
        if steps and not any(c.startswith(w) for w in leads):
            out[-1] += translate(lang, "vrd44.feasible.step_sep") + c
            continue
        steps = bool(head) and c.startswith(head)
        out.append(c)
    return out


def tidy(result: Any, lang: str, cell: str) -> str:
    """``cell`` as numbered short conditions where it is a "conditional: A; B; …" chain of two or more clauses;
    ``cell`` unchanged otherwise."""
    head = translate(lang, "kvgate41_row.conditional", rest="")
    if not cell.startswith(head):
        return cell
    yes = translate(lang, "memo.yes")
    clauses = _steps_together(lang, [c for c in _split(cell[len(head):], translate(lang, "vrd44.feasible.sep_in"))
                                     if c != yes])
    if len(clauses) < 2:  # a bare "yes" beside the one condition (the quote's): that condition alone
        return translate(lang, "kvgate41_row.conditional", rest=clauses[0]) if clauses else cell
    items = [translate(lang, "vrd44.feasible.item", n=i, text=_short(c, result, lang))
             for i, c in enumerate(clauses, start=1)]
    return translate(lang, "vrd44.feasible.list", items=translate(lang, "vrd44.feasible.sep_out").join(items))


__all__ = ["quote_fit", "tidy"]
