"""Advice quality: does the Decide engine reach the decision a deployment engineer would, and say what they require?

Scenarios (``bench/advice_scenarios/*.json``, one file each) were written from the rules and public facts
(``deployment-facts.md`` §2 and §4) BEFORE the engine was run on them. Each holds a situation in English and
Chinese, the team's answers (the ``advisor plan --answers`` format), the expected decision (deployment form,
region, line, feasible; a list means "any of these", null means "not scored"), and what an expert requires:
``must_mention`` (statements the memo must make) and ``must_not`` (statements it must not make). Where one can be
checked by machine, the item carries a ``check`` (a finding id, a field of ``advisor plan --json``, a next step,
a timeline item, or a pattern in the plan's texts); the rest are judged by blind reviewers.

Run:
    .venv/bin/python bench/advice_quality.py                  # table and totals
    .venv/bin/python bench/advice_quality.py --json           # the same as JSON
    .venv/bin/python bench/advice_quality.py --write-memos DIR   # memos (en, zh_CN) + blind reviewer packets
    .venv/bin/python bench/advice_quality.py --score-reviews FILE  # merge reviewer verdicts into coverage

A scenario whose answers use keys the engine does not accept yet (announced for this release: see
``NEW_ANSWER_KEYS``) is reported as "needs answers not yet supported: …" and not run; it runs once they exist.
docs/advice-quality.md explains the method and records the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCENARIO_DIR = ROOT / "bench" / "advice_scenarios"
DECISION_FIELDS = ("deployment_form", "region", "line", "feasible")
# Answer keys and forms announced for this release by the lead (names fixed); other helpers are adding them.
NEW_ANSWER_KEYS = ("capex_budget", "model_name", "checkpoint", "current_fleet", "genai_filing", "hosting_move")
ANNOUNCED_FORMS = ("on_premises", "hybrid")
GENAI_FILING = ("none", "in_progress", "registered", "filed")
CHECK_KINDS = ("finding", "finding_any", "field", "text", "next_step", "timeline_item")
FIELD_OPS = ("equals", "in", "not_in", "gte", "lte", "gt", "lt", "present", "nonempty", "not_multiple_of")
MENTION_VERDICTS = {"full": 1.0, "partial": 0.5, "missing": 0.0}
MUST_NOT_VERDICTS = ("present", "absent")
LANGS = ("en", "zh_CN")


class BenchInputError(ValueError):
    """A scenario or reviews file that cannot be used: the message names the file and the field."""


# ---- scenarios ------------------------------------------------------------------------------------------------
@dataclass
class Scenario:
    id: str
    situation: dict[str, str]
    answers: dict[str, Any]
    expected: dict[str, Any]
    must_mention: list[dict[str, Any]]
    must_not: list[dict[str, Any]]
    notes: str = ""
    path: Path | None = None

    @property
    def unsupported_keys(self) -> list[str]:
        """Announced answer keys this scenario uses that the engine does not accept yet."""
        known = _answer_fields()
        return [k for k in self.answers if k in NEW_ANSWER_KEYS and k not in known]


def _answer_fields() -> set[str]:
    from advisor.plan.answers import PlanAnswers

    return set(PlanAnswers.model_fields)


def legal_values() -> dict[str, set[Any]]:
    """Every value an expectation may name: the engine's enums plus the forms announced for this release."""
    from advisor.plan.result import DeploymentForm, Line, Region

    return {
        "deployment_form": set(get_args(DeploymentForm)) | set(ANNOUNCED_FORMS),
        "region": set(get_args(Region)),
        "line": set(get_args(Line)),
        "feasible": {True, False},
    }


def load_scenarios(directory: Path = SCENARIO_DIR) -> list[Scenario]:
    out = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BenchInputError(f"{path.name}: not a readable JSON file ({exc})") from None
        if not isinstance(data, dict):
            raise BenchInputError(f"{path.name}: expected a JSON object")
        try:
            out.append(Scenario(
                id=data["id"], situation=data["situation"], answers=data["answers"], expected=data["expected"],
                must_mention=data["must_mention"], must_not=data["must_not"], notes=data.get("notes", ""), path=path))
        except KeyError as exc:
            raise BenchInputError(f"{path.name}: missing field {exc.args[0]!r}") from None
    return out


def validate_scenario(sc: Scenario) -> list[str]:
    """What is wrong with a scenario file (empty when it is usable), one sentence per problem."""
    problems: list[str] = []
    where = sc.path.name if sc.path else sc.id
    if sc.path is not None and sc.path.stem != sc.id:
        problems.append(f"{where}: id {sc.id!r} differs from the file name")
    for lang in LANGS:
        if not isinstance(sc.situation, dict) or not str(sc.situation.get(lang, "")).strip():
            problems.append(f"{where}: situation.{lang} is empty")
    legal = legal_values()
    for name in DECISION_FIELDS:
        if name not in sc.expected:
            problems.append(f"{where}: expected.{name} is missing (null = not scored)")
            continue
        value = sc.expected[name]
        values = value if isinstance(value, list) else [value]
        if isinstance(value, list) and not value:
            problems.append(f"{where}: expected.{name} is an empty list")
        for v in values:
            if v is not None and (v not in legal[name] or isinstance(v, bool) != (name == "feasible")):
                problems.append(f"{where}: expected.{name} = {v!r} is not one of {sorted(map(str, legal[name]))}")
    if len(sc.must_mention) < 3:
        problems.append(f"{where}: {len(sc.must_mention)} must_mention items; at least 3 are required")
    for group in ("must_mention", "must_not"):
        ids = [item.get("id") for item in getattr(sc, group)]
        if len(set(ids)) != len(ids):
            problems.append(f"{where}: {group} ids repeat")
        for item in getattr(sc, group):
            for name in ("text", "text_zh_CN"):  # each reviewer reads the statements in the memo's language
                if not str(item.get(name, "")).strip():
                    problems.append(f"{where}: {group} {item.get('id')} has no {name}")
            if item.get("check") is not None:
                problems += [f"{where}: {group} {item.get('id')}: {p}" for p in _check_problems(item["check"])]
    problems += [f"{where}: answers: {p}" for p in answers_problems(sc.answers)]
    return problems


def _check_problems(check: Any) -> list[str]:
    if not isinstance(check, dict):
        return ["check must be an object"]
    kinds = [k for k in check if k in CHECK_KINDS]
    if len(kinds) != 1:
        return [f"check needs exactly one of {', '.join(CHECK_KINDS)}"]
    if kinds[0] == "field":
        ops = [k for k in check if k in FIELD_OPS]
        if len(ops) != 1 or set(check) - {"field", *FIELD_OPS}:
            return [f"a field check needs exactly one of {', '.join(FIELD_OPS)}"]
    elif kinds[0] == "text":
        try:
            re.compile(check["text"])
        except re.error as exc:
            return [f"text pattern does not compile: {exc}"]
    return []


def answers_problems(answers: dict[str, Any]) -> list[str]:
    """Problems in a scenario's answers: they must parse, apart from announced keys the engine lacks (whose
    shape is checked here so the file is right before the engine accepts them)."""
    from advisor.plan import AnswersError, answers_from_dict

    known = _answer_fields()
    pending = {k: v for k, v in answers.items() if k in NEW_ANSWER_KEYS and k not in known}
    problems = [f"{k}: {p}" for k, v in pending.items() for p in _new_key_problems(k, v)]
    try:
        answers_from_dict({k: v for k, v in answers.items() if k not in pending})
    except AnswersError as exc:
        problems += [f"{where}: {msg}" for where, msg in exc.problems]
    return problems


def _new_key_problems(key: str, value: Any) -> list[str]:
    if value is None:
        return []
    if key == "capex_budget":
        ok = isinstance(value, dict) and set(value) <= {"amount", "currency"} and isinstance(value.get("amount"), int | float) \
            and value.get("currency", "CNY") in ("CNY", "USD")
        return [] if ok else ["expected {amount, currency: CNY|USD}"]
    if key in ("model_name", "checkpoint"):
        return [] if isinstance(value, str) and value.strip() else ["expected a non-empty text"]
    if key == "current_fleet":
        from advisor.catalog import CatalogError, get_gpu

        if not (isinstance(value, dict) and set(value) == {"gpu", "count"} and isinstance(value["count"], int)
                and value["count"] >= 1):
            return ["expected {gpu: catalog id, count: whole number ≥ 1}"]
        try:
            get_gpu(value["gpu"])
        except CatalogError:
            return [f"unknown GPU {value['gpu']!r} (see `advisor gpus`)"]
        return []
    if key == "genai_filing":
        return [] if value in GENAI_FILING else [f"expected one of {', '.join(GENAI_FILING)}"]
    if key == "hosting_move":
        return [] if isinstance(value, bool) else ["expected true or false"]
    return []


# ---- running and scoring ------------------------------------------------------------------------------------
@dataclass
class Outcome:
    """One scenario's run: ``status`` is ran | needs_answers | error; ``plan`` the --json form (en) when ran."""

    scenario: Scenario
    status: str
    message: str = ""
    plan: dict[str, Any] | None = None
    texts: str = ""
    result: Any = None
    score: dict[str, Any] = field(default_factory=dict)


def run_scenario(sc: Scenario) -> Outcome:
    """The engine in-process on one scenario (what `advisor plan --answers … --json` computes)."""
    from advisor.plan import AnswersError, answers_from_dict, make_plan

    missing = sc.unsupported_keys
    if missing:
        return Outcome(sc, "needs_answers", f"needs answers not yet supported: {', '.join(missing)}")
    try:
        result = make_plan(answers_from_dict(sc.answers))
        plan = result.to_json("en")
        texts = "\n".join([plan_texts(plan), plan_texts(result.to_json("zh_CN"))])
    except AnswersError as exc:
        return Outcome(sc, "error", "answers refused: " + "; ".join(f"{w}: {m}" for w, m in exc.problems))
    except Exception as exc:  # noqa: BLE001 - one scenario's crash is a finding, never the end of the run
        return Outcome(sc, "error", f"{type(exc).__name__}: {exc}")
    out = Outcome(sc, "ran", plan=plan, texts=texts, result=result)
    out.score = score_plan(sc, plan, texts)
    return out


def plan_texts(plan: dict[str, Any]) -> str:
    """The sentences a reader of the plan sees (findings, assumptions, questions, fixes, next steps, commands,
    binding constraint, GPU choice, timeline), without sources or price rows, for ``text`` checks."""
    parts: list[str] = []
    for f in plan.get("findings") or []:
        parts += [f.get("title", ""), f.get("detail", "")]
    for name in ("assumptions", "open_questions", "fixes"):
        parts += [x.get("text", "") for x in plan.get(name) or []]
    for s in plan.get("next_steps") or []:
        parts += [s.get("text", ""), s.get("command") or ""]
    for name in ("binding_constraint", "gpu_choice"):
        if plan.get(name):
            parts.append(plan[name].get("text", ""))
    parts.append((plan.get("hardware") or {}).get("command") or "")
    parts += [i.get("label", "") for i in (plan.get("timeline") or {}).get("items", [])]
    return "\n".join(p for p in parts if p)


def _lookup(plan: dict[str, Any], path: str) -> Any:
    value: Any = plan
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def check_holds(check: dict[str, Any], plan: dict[str, Any], texts: str) -> bool:
    """Whether the plan shows what ``check`` describes. A field check on an absent value never holds."""
    ids = {f.get("id") for f in plan.get("findings") or []}
    if "finding" in check:
        return check["finding"] in ids
    if "finding_any" in check:
        return any(i in ids for i in check["finding_any"])
    if "next_step" in check:
        return check["next_step"] in {s.get("id") for s in plan.get("next_steps") or []}
    if "timeline_item" in check:
        return check["timeline_item"] in {i.get("id") for i in (plan.get("timeline") or {}).get("items", [])}
    if "text" in check:
        return re.search(check["text"], texts, re.IGNORECASE) is not None
    value = _lookup(plan, check["field"])
    if "present" in check:
        return (value is not None) == bool(check["present"])
    if "nonempty" in check:
        return bool(value) == bool(check["nonempty"])
    if value is None:
        return False
    if "equals" in check:
        return value == check["equals"]
    if "in" in check:
        return value in check["in"]
    if "not_in" in check:
        return value not in check["not_in"]
    if "not_multiple_of" in check:
        return isinstance(value, int) and value % int(check["not_multiple_of"]) != 0
    op = next(k for k in ("gte", "lte", "gt", "lt") if k in check)
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    limit = check[op]
    return {"gte": value >= limit, "lte": value <= limit, "gt": value > limit, "lt": value < limit}[op]


def decision_agrees(expected: Any, got: Any) -> bool | None:
    """None when not scored (expected null); a list is any of its values."""
    if expected is None:
        return None
    return got in expected if isinstance(expected, list) else got == expected


def score_plan(sc: Scenario, plan: dict[str, Any], texts: str | None = None) -> dict[str, Any]:
    """Decisions and machine checks of one plan (``advisor plan --json`` form) against one scenario."""
    texts = plan_texts(plan) if texts is None else texts
    decisions = {}
    for name in DECISION_FIELDS:
        agree = decision_agrees(sc.expected.get(name), plan.get(name))
        decisions[name] = {"expected": sc.expected.get(name), "got": plan.get(name), "agree": agree}
    mentions = [{"id": m["id"], "text": m["text"], "met": None if m.get("check") is None
                 else check_holds(m["check"], plan, texts)} for m in sc.must_mention]
    nots = [{"id": n["id"], "text": n["text"], "violated": None if n.get("check") is None
             else check_holds(n["check"], plan, texts)} for n in sc.must_not]
    return {
        "decisions": decisions,
        "decision_agrees": all(d["agree"] is not False for d in decisions.values()),
        "must_mention": mentions,
        "must_not": nots,
    }


def totals(outcomes: list[Outcome]) -> dict[str, Any]:
    ran = [o for o in outcomes if o.status == "ran"]
    mentions = [m for o in ran for m in o.score["must_mention"]]
    checked = [m for m in mentions if m["met"] is not None]
    nots = [n for o in ran for n in o.score["must_not"]]
    field_agree = {name: sum(1 for o in ran if o.score["decisions"][name]["agree"] is not False)
                   for name in DECISION_FIELDS}
    return {
        "scenarios": len(outcomes),
        "ran": len(ran),
        "needs_answers": sum(1 for o in outcomes if o.status == "needs_answers"),
        "errors": sum(1 for o in outcomes if o.status == "error"),
        "decisions_agree": sum(1 for o in ran if o.score["decision_agrees"]),
        "field_agree": field_agree,
        "must_mention_items": len(mentions),
        "must_mention_checked": len(checked),
        "must_mention_met": sum(1 for m in checked if m["met"]),
        "machine_coverage": (sum(1 for m in checked if m["met"]) / len(checked)) if checked else None,
        "must_not_checked": sum(1 for n in nots if n["violated"] is not None),
        "must_not_violations": sum(1 for n in nots if n["violated"]),
        "reviewer_items": len(mentions) - len(checked) + sum(1 for n in nots if n["violated"] is None),
    }


# ---- output -------------------------------------------------------------------------------------------------
def _short(value: Any) -> str:
    if isinstance(value, list):
        return "|".join(map(str, value))
    return "-" if value is None else str(value)


def _decision_cell(d: dict[str, Any]) -> str:
    mark = "" if d["agree"] is not False else " ✗"
    return f"{_short(d['expected'])} → {_short(d['got'])}{mark}"


def table(outcomes: list[Outcome]) -> str:
    head = ("scenario", "form exp → got", "region exp → got", "line exp → got", "feasible", "agree", "mention",
            "must-not")
    rows: list[tuple[str, ...]] = [head]
    for o in outcomes:
        if o.status != "ran":
            rows.append((o.scenario.id, o.message))  # a scenario not run: its reason on one line
            continue
        d = o.score["decisions"]
        ms = [m for m in o.score["must_mention"] if m["met"] is not None]
        ns = [n for n in o.score["must_not"] if n["violated"]]
        rows.append((o.scenario.id, *(_decision_cell(d[name]) for name in DECISION_FIELDS),
                     "yes" if o.score["decision_agrees"] else "NO", f"{sum(m['met'] for m in ms)}/{len(ms)}",
                     ",".join(n["id"] for n in ns) or "-"))
    full = [r for r in rows if len(r) == len(head)]
    widths = [max(len(r[i]) for r in full) for i in range(len(head))]
    lines = []
    for r in rows:
        if len(r) != len(head):
            lines.append(f"{r[0]:<{widths[0]}}  {r[1]}")
        else:
            lines.append("  ".join(f"{c:<{w}}" for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


def totals_text(t: dict[str, Any]) -> str:
    cov = "n/a" if t["machine_coverage"] is None else f"{t['machine_coverage'] * 100:.0f} %"
    fa = t["field_agree"]
    return "\n".join([
        f"scenarios: {t['scenarios']} (ran {t['ran']}, needs answers not yet supported {t['needs_answers']}, "
        f"errors {t['errors']})",
        f"decisions agree: {t['decisions_agree']}/{t['scenarios']} ({t['decisions_agree']}/{t['ran']} of those run); "
        f"by field (of those run): form {fa['deployment_form']}, region {fa['region']}, line {fa['line']}, "
        f"feasible {fa['feasible']}",
        f"machine must-mention coverage: {t['must_mention_met']}/{t['must_mention_checked']} = {cov} "
        f"({t['must_mention_items']} items in the scenarios run, the rest judged by reviewers)",
        f"must-not violations (machine): {t['must_not_violations']} of {t['must_not_checked']} checked",
        f"items left to blind reviewers: {t['reviewer_items']}",
    ])


def outcome_json(o: Outcome) -> dict[str, Any]:
    out: dict[str, Any] = {"id": o.scenario.id, "status": o.status}
    if o.message:
        out["message"] = o.message
    if o.status == "ran":
        out.update(o.score)
        out["finding_ids"] = [f["id"] for f in o.plan.get("findings") or []]
    return out


# ---- memos and blind review ---------------------------------------------------------------------------------
def statement(item: dict[str, Any], lang: str) -> str:
    """A must-mention or must-not statement in ``lang`` (``text`` is English, ``text_zh_CN`` Chinese)."""
    return (item.get("text_zh_CN") or item["text"]) if lang == "zh_CN" else item["text"]


def reviewer_packet(sc: Scenario, lang: str, memo: str) -> str:
    """What one blind reviewer reads: the situation, the statements to look for, the memo in ONE language.
    Never the expected decision, the checks or rule ids."""
    mentions = "\n".join(f"- **{m['id']}**: {statement(m, lang)}" for m in sc.must_mention)
    nots = "\n".join(f"- **{n['id']}**: {statement(n, lang)}" for n in sc.must_not)
    return (
        f"# Review packet: {sc.id} ({lang})\n\n"
        "You are reviewing a deployment decision memo as a senior deployment engineer. You did not write the "
        "rules that produced it. Read the situation and the memo below, then for each statement say whether the "
        "memo makes it: `full` (stated, correct and specific), `partial` (hinted, vague or only half right) or "
        "`missing`. For each objection say `present` (the memo says it) or `absent`. Judge only this memo; do "
        "not run the tool.\n\n"
        f"## Situation\n\n{sc.situation[lang]}\n\n"
        f"## Statements the memo must make\n\n{mentions}\n\n"
        f"## Statements the memo must not make\n\n{nots or '- (none)'}\n\n"
        "## Your verdict (JSON, one object)\n\n```json\n"
        + json.dumps({"scenario": sc.id, "lang": lang, "reviewer": "YOUR_NAME",
                      "must_mention": {m["id"]: "full | partial | missing" for m in sc.must_mention},
                      "must_not": {n["id"]: "present | absent" for n in sc.must_not}},
                     ensure_ascii=False, indent=2)
        + "\n```\n\n---\n\n## The memo\n\n" + memo
    )


def write_memos(outcomes: list[Outcome], directory: Path) -> int:
    from advisor.atomic import write_text_atomic
    from advisor.plan.memo import memo_document

    written = 0
    template: list[dict[str, Any]] = []
    for o in outcomes:
        if o.status != "ran":
            continue
        for lang in LANGS:
            memo = memo_document(o.result, lang).markdown()
            write_text_atomic(directory / "memos" / f"{o.scenario.id}.{lang}.md", memo, make_parents=True)
            write_text_atomic(directory / "packets" / f"{o.scenario.id}.{lang}.md",
                              reviewer_packet(o.scenario, lang, memo), make_parents=True)
            template.append({"scenario": o.scenario.id, "lang": lang, "reviewer": None,
                             "must_mention": {m["id"]: None for m in o.scenario.must_mention},
                             "must_not": {n["id"]: None for n in o.scenario.must_not}})
            written += 1
    # the file --score-reviews reads, every verdict still null: one entry per packet handed out
    write_text_atomic(directory / "reviews.template.json",
                      json.dumps({"reviews": template}, ensure_ascii=False, indent=2) + "\n", make_parents=True)
    return written


def score_reviews(reviews: Any, scenarios: list[Scenario]) -> dict[str, Any]:
    """Reviewer verdicts → coverage: full share, full-or-partial share (partial counts half in ``score``), and
    must-not statements found present, per language and overall. Several reviewers of one item all count."""
    by_id = {s.id: s for s in scenarios}
    items = reviews.get("reviews") if isinstance(reviews, dict) else reviews
    if not isinstance(items, list):
        raise BenchInputError("reviews: expected {\"reviews\": [...]} or a JSON list of verdicts")
    stats: dict[str, dict[str, float]] = {}
    per_scenario: dict[str, dict[str, Any]] = {}
    for i, r in enumerate(items):
        where = f"reviews[{i}]"
        if not isinstance(r, dict):
            raise BenchInputError(f"{where}: expected an object")
        sc = by_id.get(r.get("scenario"))
        if sc is None:
            raise BenchInputError(f"{where}.scenario: unknown scenario {r.get('scenario')!r}")
        lang = r.get("lang")
        if lang not in LANGS:
            raise BenchInputError(f"{where}.lang: expected one of {', '.join(LANGS)}")
        mm, mn = r.get("must_mention") or {}, r.get("must_not") or {}
        want_m, want_n = {m["id"] for m in sc.must_mention}, {n["id"] for n in sc.must_not}
        if set(mm) != want_m:
            raise BenchInputError(f"{where}.must_mention: expected verdicts for {sorted(want_m)}, got {sorted(mm)}")
        if set(mn) - want_n:
            raise BenchInputError(f"{where}.must_not: unknown ids {sorted(set(mn) - want_n)}")
        for key, verdict in mm.items():
            if verdict not in MENTION_VERDICTS:
                raise BenchInputError(f"{where}.must_mention.{key}: {verdict!r} is not full, partial or missing")
        for key, verdict in mn.items():
            if verdict not in MUST_NOT_VERDICTS:
                raise BenchInputError(f"{where}.must_not.{key}: {verdict!r} is not present or absent")
        for bucket in (lang, "all"):
            s = stats.setdefault(bucket, {"items": 0, "full": 0, "partial": 0, "score": 0.0, "must_not_present": 0,
                                          "must_not_judged": 0, "reviews": 0})
            s["reviews"] += 1
            s["items"] += len(mm)
            s["full"] += sum(1 for v in mm.values() if v == "full")
            s["partial"] += sum(1 for v in mm.values() if v == "partial")
            s["score"] += sum(MENTION_VERDICTS[v] for v in mm.values())
            s["must_not_judged"] += len(mn)
            s["must_not_present"] += sum(1 for v in mn.values() if v == "present")
        ps = per_scenario.setdefault(sc.id, {"reviews": 0, "missing": set(), "present": set()})
        ps["reviews"] += 1
        ps["missing"] |= {k for k, v in mm.items() if v == "missing"}
        ps["present"] |= {k for k, v in mn.items() if v == "present"}
    out = {}
    for bucket, s in stats.items():
        n = s["items"] or 1
        out[bucket] = {**s, "full_share": s["full"] / n, "full_or_partial_share": (s["full"] + s["partial"]) / n,
                       "weighted": s["score"] / n}
    return {"coverage": out, "scenarios": {k: {"reviews": v["reviews"], "missing": sorted(v["missing"]),
                                               "must_not_present": sorted(v["present"])}
                                           for k, v in sorted(per_scenario.items())}}


def reviews_text(merged: dict[str, Any]) -> str:
    lines = []
    for bucket in ("en", "zh_CN", "all"):
        s = merged["coverage"].get(bucket)
        if s:
            lines.append(f"{bucket:>5}: {s['reviews']} reviews, must-mention full {s['full_share'] * 100:.0f} %, "
                         f"full or partial {s['full_or_partial_share'] * 100:.0f} %, "
                         f"must-not present {s['must_not_present']} of {s['must_not_judged']}")
    for sid, s in merged["scenarios"].items():
        if s["missing"] or s["must_not_present"]:
            lines.append(f"  {sid}: missing {','.join(s['missing']) or '-'}; "
                         f"must-not present {','.join(s['must_not_present']) or '-'}")
    return "\n".join(lines)


# ---- command line -------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the per-scenario scores and totals as JSON")
    ap.add_argument("--only", metavar="ID[,ID…]", help="run only these scenario ids")
    ap.add_argument("--write-memos", metavar="DIR", help="write each scenario's memo (en, zh_CN) and blind packets")
    ap.add_argument("--score-reviews", metavar="FILE", help="merge reviewer verdicts (JSON) into coverage figures")
    ap.add_argument("--scenarios", metavar="DIR", default=str(SCENARIO_DIR), help="scenario folder")
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)
    try:
        scenarios = load_scenarios(Path(args.scenarios))
        if not scenarios:
            raise BenchInputError(f"{args.scenarios}: no scenario files (*.json)")
        if args.score_reviews:
            try:
                raw = json.loads(Path(args.score_reviews).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise BenchInputError(f"{args.score_reviews}: not a readable JSON file ({exc})") from None
            merged = score_reviews(raw, scenarios)
            print(json.dumps(merged, ensure_ascii=False, indent=2) if args.json else reviews_text(merged))
            return 0
    except BenchInputError as exc:
        print(f"advice_quality: {exc}", file=sys.stderr)
        return 2
    if args.only:
        wanted = {s.strip() for s in args.only.split(",") if s.strip()}
        unknown = wanted - {s.id for s in scenarios}
        if unknown:
            print(f"advice_quality: --only: unknown scenario ids {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        scenarios = [s for s in scenarios if s.id in wanted]
    outcomes = [run_scenario(s) for s in scenarios]
    t = totals(outcomes)
    if args.write_memos:
        from advisor.atomic import UnsafeTargetError

        try:
            n = write_memos(outcomes, Path(args.write_memos))
        except (OSError, UnsafeTargetError) as exc:
            print(f"advice_quality: --write-memos {args.write_memos}: {exc}", file=sys.stderr)
            return 3
        print(f"wrote {n} memos and reviewer packets under {args.write_memos}", file=sys.stderr)
    if args.json:
        print(json.dumps({"totals": t, "scenarios": [outcome_json(o) for o in outcomes]}, ensure_ascii=False,
                         indent=2))
    else:
        print(table(outcomes))
        print()
        print(totals_text(t))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
