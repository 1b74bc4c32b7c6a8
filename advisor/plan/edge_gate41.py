"""A plan whose own numbers say it holds only at the edge reads "conditional" on page 1, each condition with its test
or fix beside it; where a placeholder-priced part would remove the KV shortfall, the first line says the choice as one
rule (issue 25, blind review 31: q35 zh "it says 'Feasible as asked: yes', yet its own precondition shows only
'2.2 GiB' of KV per GPU ... make a benchmarked DP-attention/EP configuration ... a stated gate"; q10 en "'Feasible as
asked: yes' is too strong for 0 % headroom, no spare, a P99 of 24.7 s against 30 s inside a 27 % median error ... Make
it 'conditional' on page 1"; q42 zh "the real decision is 'H20 if ≤ about ¥9,121/card/month, otherwise L20'. Put
that in one sentence at the top"; q19 en "make ... the H20 quote the primary, not a footnote").

The edge, from figures the plan already states (nothing here changes the plan or the engine's ``feasible``, which
the advice bench reads):

- a replica's KV cache at the full context materially short of what it carries (``kv_condition40``: the page-1
  memory condition; not under a hosted-API lead, where the self-hosted plan is the fallback and page 1 leaves it out);
- 0 % headroom at the peak with no spare (``edge_risks38``'s "headroom" and "no_spare" risks together);
- the predicted P99 first token under its target by less than the predictor's median error (``thin_ttft``).

The row's earlier words keep the conditions they already name (the measured first token, the quotes against the
budget, the step the launch waits on); this adds the others, each with its test or fix, and the word "conditional"
in front. A row already split into labelled parts (the purchase's budget, capacity and schedule) or worded for a
hybrid's bursts keeps its own form. The rule for the first line is the quote switch the plan already computes
(``quote_switch38``: the monthly price a card under which the other part costs less than this plan), said where the
quote step stands before the serve step because that part would remove the shortfall (``quote_first39``).
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import edge_risks38, kv_condition40, kv_replicas42
from advisor.plan.memo_one_server import thin_ttft
from advisor.plan.result import PlanResult, render

CUT = "\x00"


def _kinds(result: PlanResult) -> set[str]:
    return {str(r["tr"]).rsplit(".", 1)[1] for r in edge_risks38.risks(result)}


def kv_shortfall(result: PlanResult, api_led: bool) -> tuple[int, int, bool, int] | None:
    """(held at the full context, carried, one replica down?, context) where page 1 states the KV cache's shortfall as
    a condition of the plan (``kv_condition40.material``); None elsewhere or under a hosted-API lead."""
    found = None if api_led else kv_condition40.case(result)
    if found is None:
        return None
    fit, load, down = found
    return (fit.at_full, load, down, fit.context) if kv_condition40.material(fit, load) else None


def reasons(result: PlanResult, api_led: bool = False) -> list[str]:
    """Which edge holds: "kv", "headroom" (0 % with no spare), "ttft"; [] for a clean plan or an infeasible one."""
    if not result.feasible:
        return []
    kinds, out = _kinds(result), []
    if kv_shortfall(result, api_led) is not None:
        out.append("kv")
    if {"headroom", "no_spare"} <= kinds:
        out.append("headroom")
    if "ttft" in kinds:
        out.append("ttft")
    return out


def _kv_clause(result: PlanResult, lang: str, memo: bool, api_led: bool) -> str:
    short = kv_shortfall(result, api_led)
    if short is None:
        return ""
    full, load, down, context = short
    where = {"tr": "kvgate41_row.where_kv"} if memo else ""
    params = {"full": f"{full:,}", "load": f"{load:,}", "context": f"{context:,}", "where": where,
              "when": {"tr": "kvgate41_row.down" if down else "kvgate41_row.peak"}}
    n = kv_condition40.quote_step(result)
    g = result.gpu_choice
    more = kv_replicas42.row_clause(result, lang, params, n)  # the step that adds replicas, or the go/no-go test
    if more:
        return more
    if n is not None and g is not None and g.quote_switch:
        return render(lang, "kvgate41_row.kv_quote", {**params, "n": n, "gpu": g.quote_switch["gpu"],
                                                      "chosen": g.chosen.gpu_name})
    return render(lang, "kvgate41_row.kv_test", params)


def _headroom_clause(result: PlanResult, lang: str, edge_said: bool) -> str:
    found = [r for r in edge_risks38.risks(result) if str(r["tr"]).rsplit(".", 1)[1] in ("headroom", "no_spare")]
    peak = next((r["peak"] for r in found if str(r["tr"]).endswith(".headroom")), 0)
    one = next((r["one"] for r in found if str(r["tr"]).endswith(".no_spare")), "")
    params = {"peak": peak, "one": one}
    if edge_said:  # page 1's risks line names them with what removes them: pointed to, not said twice
        return render(lang, "kvgate41_row.headroom_above", params)
    conds = translate(lang, "longctx38_risks.and").join(
        render(lang, str(c["tr"]), {k: v for k, v in c.items() if k != "tr"})
        for c in edge_risks38.conditions(result, found))
    return render(lang, "kvgate41_row.headroom", {**params, "conds": conds})


def _ttft_pilot_clause(result: PlanResult, lang: str) -> str:
    thin = thin_ttft(result)
    return render(lang, "kvgate41_row.ttft_pilot", {"target": thin["target"]}) if isinstance(thin, dict) else ""


def _heads(lang: str, yes: str) -> list[str]:
    """The row's openings this prefixes: the plain yes, and the budget's "yes, unless the quotes come in near the high
    end" and "only if the quotes come in at the low end" (each cut at its first figure)."""
    unless = translate(lang, "ownrent24.feasible_unless_top", low=CUT, high=CUT, budget=CUT, currency=CUT, per=CUT,
                       pct=CUT).split(CUT)[0]
    low = translate(lang, "memo.capacity16.feasible_if_low", low=CUT, high=CUT, budget=CUT, currency=CUT,
                    per=CUT).split(CUT)[0]
    return [translate(lang, yes), unless, low]


def feasible_text(result: PlanResult, lang: str, text: str, *, api_led: bool = False, edge_said: bool = False,
                  pilot_said: bool = False, memo: bool = True, yes: str = "memo.yes") -> str:
    """``text`` (the feasibility row so far) read "conditional: …" where the plan holds only at the edge, with the
    conditions it does not name yet, each with its test or fix; ``text`` unchanged for a clean plan. ``edge_said``:
    page 1's risks line names the headroom and the spare with their remedies; ``pilot_said``: the headline pilots
    one server on the first token (the row then points to it); ``memo``: the clauses point to page 1's paragraphs
    (not in the CLI's summary, which has none)."""
    found = reasons(result, api_led)
    if not found:
        return text
    word = translate(lang, "kvgate41_row.word")
    if text.startswith(word) or not any(h and text.startswith(h) for h in _heads(lang, yes)):
        # already conditional, or a row in labelled parts (q17's budget, capacity and schedule): its own form
        if text.startswith(word):
            return text + _clauses(result, lang, found, api_led, edge_said, pilot_said, memo)
        return text
    return translate(lang, "kvgate41_row.conditional",
                     rest=text + _clauses(result, lang, found, api_led, edge_said, pilot_said, memo))


def _clauses(result: PlanResult, lang: str, found: list[str], api_led: bool, edge_said: bool, pilot_said: bool,
             memo: bool) -> str:
    out = ""
    if "kv" in found:
        out += _kv_clause(result, lang, memo, api_led)
    if "headroom" in found:
        out += _headroom_clause(result, lang, edge_said and memo)
    if "ttft" in found and pilot_said:  # the row's own first-token clause is then left out (feasible_gate)
        out += _ttft_pilot_clause(result, lang)
    return out


def edge_key(result: PlanResult) -> str:
    """Page 1's risks line's key: labelled conditional where the edge holds (``reasons``)."""
    kinds = _kinds(result)
    return "kvgate41_risks.line" if kinds & {"ttft"} or {"headroom", "no_spare"} <= kinds else "longctx38_risks.line"


def rule(result: PlanResult, lang: str) -> str:
    """The first line's GPU rule, " GPU: 3 × H20 if quoted at or under about 9,121 CNY a card a month, otherwise 4 ×
    L20 (next step 1)." where the quote step stands first because the other part removes the KV shortfall; ""
    elsewhere."""
    n = kv_condition40.quote_step(result)
    g = result.gpu_choice
    q = g.quote_switch if g is not None else None
    if n is None or g is None or not q or not q.get("per_card"):
        return ""
    return render(lang, "kvgate41_rule.line", {"n_alt": q["n"], "gpu": q["gpu"], "per_card": f"{q['per_card']:,}",
                                              "currency": g.currency, "n_chosen": g.chosen.gpus,
                                              "chosen": g.chosen.gpu_name, "step": n})


__all__ = ["edge_key", "feasible_text", "kv_shortfall", "reasons", "rule"]
