"""`advisor plan`: a deployment recommendation from a team's answers (and `--template` for a blank answers file)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plan", help="recommend how to deploy: cloud or bare metal, region, line, GPUs, cost (from answers)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--answers", metavar="FILE.json", help="the answers file (`advisor plan --template` prints one)")
    src.add_argument("--template", action="store_true", help="print a commented answers skeleton and exit")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.add_argument("--memo", metavar="OUT.md|OUT.pdf", help="also write the decision memo (Markdown or PDF)")
    p.add_argument("--runs", metavar="RUN_ID[,RUN_ID…]", help="benchmark runs (`advisor history`) whose measurements the memo shows")
    p.add_argument("--db", metavar="PATH", help="benchmark database for --runs (default: the app's own)")
    p.add_argument("--lang", default=None, choices=["en", "zh_CN"], help="language of the text, JSON texts and memo")
    p.add_argument("--quotes", metavar="FILE.json", help="your own price quotes (a JSON list), overriding built-in prices")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from advisor.cli.common import fail, print_json
    from advisor.i18n import set_language, system_language, translate
    from advisor.plan import AnswersError, answers_template, load_answers, make_plan

    lang = args.lang or system_language()
    set_language(lang)
    if args.template:
        sys.stdout.write(answers_template(lang))
        return 0
    try:
        answers = load_answers(args.answers)
    except AnswersError as exc:
        print(f"advisor: error: {translate(lang, 'plan.cli.bad_answers')}", file=sys.stderr)
        for line in exc.lines_in(lang):  # which field, what is wrong, what is allowed: in --lang
            print(f"  {line}", file=sys.stderr)
        return 2
    quotes = None
    if args.quotes:
        from advisor.safe_json import JsonInputError, load_json_file

        try:  # the one JSON reader: size, depth, big numbers and NaN bounded, every failure a sentence
            quotes = load_json_file(args.quotes)
        except JsonInputError as exc:
            return fail(str(exc))
        if not isinstance(quotes, list):
            return fail(f"--quotes {args.quotes}: expected a JSON list of quotes")
    try:
        result = make_plan(answers, quotes=quotes)
    except ValueError as exc:  # a bad quote row names itself
        return fail(str(exc))
    if args.memo:
        from advisor.plan.evidence import EvidenceError, evidence_from_runs
        from advisor.plan.memo import MemoError, write_memo

        try:
            runs = [r for r in (args.runs or "").split(",") if r.strip()]
            evidence = evidence_from_runs(args.db, [r.strip() for r in runs],
                                          slo_ttft_ms=result.latency_curve.slo_ttft_p99_ms) if runs else None
            write_memo(result, Path(args.memo), lang, evidence=evidence, painter=_memo_painter())
        except EvidenceError as exc:
            return fail(f"--runs: {exc}", 3)
        except MemoError as exc:
            return fail(str(exc), 3)
        except OSError as exc:
            return fail(f"--memo {args.memo}: {exc.strerror or exc}", 3)
        if not args.json:
            print(translate(lang, "plan.cli.memo_written", path=args.memo), file=sys.stderr)
    if args.json:
        print_json(result.to_json(lang))
        return 0
    sys.stdout.write(summary(result, lang))
    return 0


def _memo_painter():
    """Qt's chart painter and PDF printer when PySide6 is installed, else None (a Markdown memo without charts).

    The one import of ``ui`` in the core, made lazily and declared in tests/core/test_layering.py: a headless
    GPU server runs ``advisor plan`` without Qt, a laptop gets the charts and the PDF."""
    import importlib

    try:
        module = importlib.import_module("ui.memo_export")  # the declared exception (tests/core/test_layering.py)
    except ImportError:
        return None
    return module.QtMemoPainter()


def summary(result, lang: str) -> str:
    """A readable text summary of a plan in `lang` (rendered from the result: findings are the reasons)."""
    from advisor.i18n import translate as t
    from advisor.plan import budget_words, edge_gate41, feasible_gate, gpu_swap44, memo_api_rows, supply_lead
    from advisor.plan.burst_gpu import hardware_text
    from advisor.plan.fleet_where import region_text as fleet_region_text

    r = result
    lines = [t(lang, "plan.cli.heading", model=r.hardware.model_name or r.hardware.model or "?"), ""]
    rows = [
        (t(lang, "plan.cli.form"), t(lang, f"plan.form.{r.deployment_form}")),
        (t(lang, "plan.cli.region"), fleet_region_text(r, lang, t(lang, f"plan.region.{r.region}"))),
        (t(lang, "plan.cli.line"), t(lang, f"plan.line.{r.line}")),
        (t(lang, "plan.cli.feasible"), edge_gate41.feasible_text(r, lang, feasible_gate.feasible_text(  # q43, q10
            r, lang, supply_lead.feasible_text(r, lang, gpu_swap44.feasible_text(r, lang) or budget_words.feasible_text(
                r, lang, words=("plan.cli.yes", "plan.cli.no"))), yes="plan.cli.yes"),  # the GPU swap (vrd44)
            api_led=memo_api_rows.applies(r), memo=False, yes="plan.cli.yes")),  # at the edge (review 31)
    ]
    h = r.hardware
    if h.gpu:
        rows.append((t(lang, "plan.cli.hardware"), t(lang, "plan.cli.hardware_line", replicas=h.replicas, tp=h.tp,
                                                      gpu=h.gpu_name, weights=h.weights, kv=h.kv_dtype)))  # fmt: skip
        both = hardware_text(r, lang)  # a hybrid renting another part for its bursts (s24-burst24)
        if both is not None:
            rows.append(("", both))
        elif h.layout is not None:  # as bought or rented: "2 servers of 8 × NVIDIA H20 96GB"
            rows.append(("", h.layout.text_in(lang, h.gpu_name or h.gpu)))
        for node in r.nodes:  # a mainland + overseas plan: each node sized and priced apart (the totals add them)
            rows.append(("", node.text_in(lang)))
        cap = r.capacity
        from advisor.plan import memo_batch
        from advisor.plan.money_text import number_text

        if memo_batch.is_batch(r):  # a job: requests in flight, throughput and hours, no latency nobody waits on
            rows.extend(memo_batch.batch_capacity_rows(r, lambda key, **kw: t(lang, key, **kw), number_text))
        elif cap.ttft_p99_ms is not None:
            rows.append((t(lang, "plan.cli.capacity"), t(lang, "plan.cli.capacity_line", peak=cap.peak_concurrency,
                         ttft=f"{cap.ttft_p99_ms:,.0f}", tpot=f"{cap.tpot_p99_ms or 0:.1f}",
                         tok_s=f"{cap.output_tokens_per_s_total or 0:,.0f}")))  # fmt: skip
    else:
        from advisor.plan.memo_forms import no_hardware_key

        rows.append((t(lang, "plan.cli.hardware"), t(lang, no_hardware_key(r, "plan.cli.no_hardware"))))
    c = r.costs
    from advisor.plan import line_total
    from advisor.plan.memo_forms import key_rows

    owning = key_rows(r, lang)  # an owning form: the one-off purchase and the monthly cost, each named
    rows.extend(owning)
    if c.recommended_monthly and not owning:
        rows.append((t(lang, "plan.cli.cost"), t(lang, "plan.cli.cost_line_job" if c.per_job else "plan.cli.cost_line",
                     low=f"{c.recommended_monthly.low:,.0f}", high=f"{c.recommended_monthly.high:,.0f}",
                     currency=c.currency, form=t(lang, f"plan.form.{r.deployment_form}"))
                     + line_total.key_clause(r, lang)))  # the premium line: in the total, or said left out (s22)
    if c.budget_straddles and c.budget_monthly is not None:
        rows.append(("", t(lang, "plan.cli.budget_straddles", budget=f"{c.budget_monthly:,.0f}", currency=c.currency)))
    from advisor.plan.memo_text15 import per_million_split

    split = per_million_split(c)  # input and output apart, by GPU time (s15-text): the memo's figures
    own = (c.per_million_basis or {}).get("own_volume") or {}
    if "input" in own and "output" in own:  # at the month's own volume first, as the memo (s21-costbasis21)
        i_v, o_v = own["input"], own["output"]
        from advisor.plan.per_million_costed import basis as per_million_basis

        # the month it divides named, the busiest-hour floor apart from the estimate (s31-permillion31, q24)
        key = {"own": "plan.cli.costbasis21.own_answered", "floor": "plan.cli.permillion31.own_floor"}.get(
            per_million_basis(c), "plan.cli.costbasis21.own_estimated")
        rows.append(("", t(lang, key, in_low=f"{i_v['low']:,.2f}",
                           in_high=f"{i_v['high']:,.2f}", out_low=f"{o_v['low']:,.2f}", out_high=f"{o_v['high']:,.2f}",
                           currency=c.currency,
                           busy=f"{(c.utilisation if c.usage_from_tokens else own['busy']) * 100:.1f}")))  # fmt: skip
    if c.usage_from_tokens and own:  # issue 25: that is the one figure; the capacity's would repeat it
        split = None
    if split is not None:
        (in_lo, in_hi), (out_lo, out_hi) = split
        rows.append(("", t(lang, "plan.cli.text15.per_million_split", in_low=f"{in_lo:,.2f}", in_high=f"{in_hi:,.2f}",
                           out_low=f"{out_lo:,.2f}", out_high=f"{out_hi:,.2f}", currency=c.currency,
                           prefill=f"{(c.prefill_gpu_share or 0) * 100:.0f}")))  # fmt: skip
    elif c.cost_per_million_output_tokens and not (c.usage_from_tokens and own):
        pm = c.cost_per_million_output_tokens
        rows.append(("", t(lang, "plan.cli.per_million", low=f"{pm.low:,.2f}", high=f"{pm.high:,.2f}", currency=c.currency)))
    if c.cost_per_million_tokens and split is None and not (c.usage_from_tokens and own):
        pm = c.cost_per_million_tokens
        rows.append(("", t(lang, "plan.cli.per_million_all", low=f"{pm.low:,.2f}", high=f"{pm.high:,.2f}",
                           currency=c.currency)))  # fmt: skip
    if c.per_million_basis and (split is not None or c.cost_per_million_output_tokens) and \
            not (c.usage_from_tokens and own):
        b = c.per_million_basis  # what the figures divide (s20-costtoken20): the setup's capacity × utilisation
        rows.append(("", t(lang, "plan.cli.costbasis21.basis", tok_s=f"{b['output_tokens_per_s']:,.0f}",
                           util=f"{b['utilisation'] * 100:.0f}", out=f"{b['output_tokens']:,.0f}")))
    if c.hosted_api_input_per_million and c.hosted_api_output_per_million:
        i, o = c.hosted_api_input_per_million, c.hosted_api_output_per_million
        rows.append(("", t(lang, "plan.cli.hosted_rates", in_low=f"{i.low:,.2f}", in_high=f"{i.high:,.2f}",
                           out_low=f"{o.low:,.2f}", out_high=f"{o.high:,.2f}", currency=c.currency)))  # fmt: skip
    if c.hosted_api_led is not None:  # the next generation page 1 starts on: its own rates (s32-permil33)
        led = c.hosted_api_led
        rows.append(("", t(lang, "permil33.cli.hosted_led", model=led.model_name, input=f"{led.input.low:,.2f}",
                           output=f"{led.output.low:,.2f}", currency=c.currency)))
    if r.line_cost is not None:  # the premium line's bandwidth and its price, or "price unknown"
        rows.append((t(lang, "memo.cost.line"), r.line_cost.text_in(lang)))
    from advisor.plan import sure_fallback

    sure = sure_fallback.key_row(r, lang)  # a placeholder-priced part of unsure supply: the memo's row (review 26)
    if sure is not None:
        rows.append(sure)
    for unit, be in (("months", c.break_even_months), ("utilisation", c.break_even_utilisation)):
        if be is not None:  # owning was compared: when it pays off, or in words why it never does
            rows.append((t(lang, f"plan.breakeven.{unit}.label"), be.text(lang, unit)))
    rows.append((t(lang, "plan.cli.prices_label"),
                 t(lang, "plan.cli.fx", rate=f"{c.fx_rate:g}", date=c.fx_date, prices=r.prices_date)))  # fmt: skip
    tl = r.timeline
    if tl.items or tl.launch_days_high:
        if tl.untimed:  # an approval of unknown length: what the launch waits for first, then the days (q25)
            when = tl.launch_text(lang, f"{tl.launch_days_low}–{tl.launch_days_high}")
        else:
            when = t(lang, "plan.cli.launch", low=tl.launch_days_low, high=tl.launch_days_high) + tl.gate_text(lang) \
                + tl.earliest_text(lang)  # the launch on registration where the full filing is counted (s25)
        if tl.deadline_days is not None:
            sep = "" if lang == "zh_CN" else " "  # Chinese sets no space before a full-width bracket
            key = {"ok": "plan.cli.deadline_ok", "missed": "plan.cli.deadline_miss",
                   "if": "supply34.cli.deadline_if"}[tl.deadline_key()]  # "if": a sales delivery decides (s33)
            when += sep + t(lang, key, days=tl.deadline_days, slack=tl.deadline_slack_days)
        from advisor.plan import sales_deadline

        # a deadline on a sales-only part: within it on the on-demand part, as the memo's row says (salesdl35, q32)
        days = f"{tl.launch_days_low}–{tl.launch_days_high}"
        when = sales_deadline.launch_text(r, lang, days) or when
        # the sales delivery after the blockers, or the region's quote, as the memo's row says (review 26, q19/q43)
        when = sure_fallback.launch_after_fix(r, lang, days) or gpu_swap44.launch_text(r, lang, days) or \
            sure_fallback.launch_after_quote(r, lang, days, len(r.next_steps)) or when
        from advisor.plan.batch_job37 import moves_running

        # a running service's move: its cutover, as the memo's row says (blind review 27, q31: lines38)
        rows.append((t(lang, "lines38_cli.cutover" if moves_running(r) else "plan.cli.launch_label"), when))
    width = max(_width(k) for k, _ in rows)
    for k, v in rows:
        lines.append(f"{k}{' ' * (width - _width(k))}  {v}")
    from advisor.plan.result import alternative_text, lead_text

    alt = lead_text(r.start_with, lang) or alternative_text(r.findings, lang, start=r.start_with)
    if alt:  # the cheaper alternative the memo names under its headline, before the questions and reasons
        lines += ["", alt]
    deciding = [q for q in r.open_questions if q.changes_decision]
    if deciding:  # the assumptions the decision rests on, before its reasons
        lines += ["", t(lang, "plan.cli.open_questions")]
        lines += [f"? {q.text_in(lang)}" for q in deciding]
    lines += ["", t(lang, "plan.cli.why")]
    tag = {"blocker": "✗", "warning": "!", "info": "•"}
    verify = t(lang, "plan.cli.verify")
    from advisor.plan.reasons import by_weight

    for f in by_weight(r.findings):  # deciding reasons first, caveats last; rule ids are in --json
        mark = f" [{verify}]" if f.verify else ""
        lines.append(f"{tag[f.severity]} {f.title_in(lang)}{mark}")
    if r.fixes:
        lines += ["", t(lang, "plan.cli.fixes")]
        lines += [f"→ {x.text_in(lang)}" for x in r.fixes]
    if r.assumptions:
        lines += ["", t(lang, "plan.cli.assumptions")]
        lines += [f"- {a.text_in(lang)}" for a in r.assumptions]
    lines += ["", t(lang, "plan.cli.next")]
    for i, s in enumerate(r.next_steps, 1):
        lines.append(f"{i}. {s.text_in(lang)}")
        if s.command:
            lines += [f"   $ {cmd}" for cmd in s.command.splitlines()]
    lines += ["", t(lang, "plan.cli.not_advice"), ""]
    return "\n".join(lines)


def _width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
