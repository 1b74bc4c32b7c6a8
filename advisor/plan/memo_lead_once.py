"""Said once in the memo (s21-pages21, issue 25: the memo in at most 5 pages).

The hosted API weighed once where page 1 leads with it.

Where the Decision starts on a hosted API (``result.lead_text``), its paragraph gives the API's month against this
plan's, the break-even volume, the data-processing contract that meets the answers' objection and what would send
the team to the self-hosted plan. The finding weighing the same API (``cost.hosted_weighed``) said all of it again
in section 7 (q13, q34: about six lines). In the memo it keeps its title (page 1's reason), the API's rates per
million tokens with their basis (page 1 gives the month, not the rates) and the checks before taking it; the app and
``--json`` keep its full text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan import hosted_next
from advisor.plan.market_names43 import markets_text
from advisor.plan.result import Finding, Source, StartWith, render

HOSTED_FINDING = "cost.hosted_weighed"
NEEDED = ("api_in", "api_out", "basis", "checks")  # the short text's figures: without one, the full text stays
# its rates with the deprecation, and the next generation page 1 starts on; no checks: page 1 says the quality test,
# the rate limits at the peak and the speed on the team's prompts (q12, q13, q22)
NEXT_ON_PAGE1 = "apinext32.hosted_on_page1"


def next_generation_said(findings: Sequence[Finding], lead: str) -> list[Finding]:
    """The memo's findings less the hosted-API finding where ``lead``, page 1's paragraph, starts on the deprecated
    model's next generation (s31-apinext32: q12, q13, q22). That paragraph gives the API's month, the deprecation,
    the quality test and the data terms; the finding's title priced the deprecated model the memo no longer weighs
    (about ¥709 beside page 1's ¥291 on Qwen3-14B: two prices for one API a reader must reconcile) and its source
    is that deprecated model's list, which nothing else then cites. The app and ``--json`` keep the finding whole."""
    if not lead:
        return list(findings)
    return [f for f in findings
            if not (f.id == HOSTED_FINDING and isinstance(f.params.get("next_lead"), dict)
                    and all(f.params.get(k) not in (None, "", "—") for k in NEEDED))]


STOPGAP_KEYS = ("apilead34.kept.sells",)  # page 1's "A hosted API, as a stopgap only:" paragraph


def stopgap_said(findings: Sequence[Finding], result: Any) -> list[Finding]:
    """The memo's findings less the hosted-API finding where page 1 prints the stopgap paragraph for a service that
    sells tokens (``start_with`` kept on this plan, ``STOPGAP_KEYS``): that paragraph gives the API's month against
    this plan's and why it is at most a stopgap, and the Decision's first line gives its rates a million tokens
    (``unit_first``), so section 7 said it all a second time (blind review 34, q11: "the hosted-API stopgap paragraph
    appears twice (page 1 and section 7): keep one"). The app and ``--json`` keep the finding."""
    start = getattr(result, "start_with", None)
    if start is None or start.key not in STOPGAP_KEYS or not result.feasible:
        return list(findings)
    return [f for f in findings if f.id != HOSTED_FINDING]


def led_sources(result: Any) -> list[Source]:
    """The list of the API page 1 starts on where the memo drops the finding that would cite it (its next generation:
    ``next_generation_said``), numbered in the sources like every other figure's (s32-permil33, issue 25)."""
    led = getattr(getattr(result, "costs", None), "hosted_api_led", None)
    return [led.source] if led is not None and led.source is not None else []


def cite_led_source(start: StartWith | None, numbers: Mapping[tuple[str, str], int],
                    sources: Sequence[Source]) -> StartWith | None:
    """``start`` (page 1's lead) with the next generation's rates and break-even citing its numbered list ("…
    ($0.144 / $0.574 a million tokens in / out [26])") instead of naming its date and grade inline."""
    n = numbers.get((sources[0].title, sources[0].url or "")) if start is not None and sources else None
    if start is None or n is None:
        return start
    ref, params = f"[{n}]", dict(start.params)
    switch = params.get("switch")
    if isinstance(switch, dict) and switch.get("tr") == hosted_next.SWITCH_KEY:
        params["switch"] = {**switch, "tr": CITED_SWITCH, "ref": ref}
    be = params.get("be")
    if isinstance(be, dict) and isinstance(be.get("source"), dict) and be["source"].get("tr") == hosted_next.SOURCE_KEY:
        params["be"] = {**be, "source": {"tr": CITED_SOURCE, "priced_on": be["source"]["priced_on"], "ref": ref}}
    return start.model_copy(update={"params": params})


CITED_SWITCH, CITED_SOURCE = "permil33.switch", "permil33.src.cited"


def point_to_lead(rendered: list[dict[str, Any]], findings: Sequence[Finding], lead: str, lang: str,
                  api_leads: bool = False) -> None:
    """Shorten the hosted-API finding in ``rendered`` (the memo's findings, in ``findings``' order) where ``lead``,
    page 1's hosted-API paragraph, is printed. Where that paragraph starts on the API (``api_leads``), the finding is
    titled as the self-hosted fallback's comparison: "A hosted API would cost less … check it before you commit"
    argued for the path the memo already takes (s42-apif, review 36: q21, q24)."""
    if not lead:
        return
    for shown, f in zip(rendered, findings, strict=True):
        if f.id != HOSTED_FINDING:
            continue
        if api_leads and str(f.title_key).endswith(FOR_PLAN_TITLES):
            shown["title"] = render(lang, FALLBACK_TITLE, f.params)
        if all(f.params.get(k) not in (None, "", "—") for k in NEEDED):
            nxt = f.params.get("next_lead")  # s32-apinext32: page 1 starts on the deprecated model's next generation
            shown["detail"] = render(lang, NEXT_ON_PAGE1, {**f.params, **nxt, "basis": f.params["page1_basis"]}) \
                if isinstance(nxt, dict) else render(lang, "pages21.hosted_on_page1", f.params)


# the finding's titles that argue the API against the plan ("would cost less … check it before you commit")
FOR_PLAN_TITLES = (".alternative.title", ".alternative_volume.title", ".alternative_tie.title")
FALLBACK_TITLE = "apf44.fallback.title"


def reasons_past_paragraph(why: list[dict[str, Any]], paragraph: bool) -> list[dict[str, Any]]:
    """Page 1's deciding reasons less the hosted API's (session 22, issue 25), where ``paragraph``: the Decision
    prints a hosted-API paragraph under its headline (start on the API, why not an API, a cheaper alternative to
    check first, or no API serving the region priced). That paragraph gives the same comparison with its figures
    and what to do, so "5. A hosted API would cost less: … check it before you commit" (q36, q39, q42) or "5. No
    hosted API serving Hong Kong is priced here: get a quote" (q12) said it again a few lines below. The finding
    stays in section 7 (shortened there by ``point_to_lead``) and in ``--json``."""
    if not paragraph:
        return why
    return [f for f in why if f["id"] != HOSTED_FINDING]


SEA_KEYS = {"plan.rule.pi.sea_markets.detail": True, "plan.rule.pi.sea_markets.finance_id.detail": False}


def sea_in_sources(rendered: list[dict[str, Any]], findings: Sequence[Finding], lang: str) -> None:
    """The South-East Asian markets' finding said by what each law asks, in the memo: the sources it cites, listed in
    section 10, state each law's text as read (Indonesia's, Vietnam's two, Thailand's, Malaysia's two, the
    Philippines'), which the finding's full text said again (q13, q34: 12 lines). The app and ``--json`` keep it
    whole; Indonesia's banks are named only where no finding of their own says it (the finance variant)."""
    for shown, f in zip(rendered, findings, strict=True):
        banks = SEA_KEYS.get(f.detail_key)
        if banks is not None and f.params.get("markets"):
            shown["detail"] = render(lang, "pages21.sea_in_sources", {
                "markets": markets_text(lang, str(f.params["markets"])), "banks": {"tr": "pages21.sea_banks"} if banks else ""})


NO_DEADLINE = "plan.assume.launch_deadline_days"  # "No launch deadline given: assumed there is time for the filings"


def moot(a: Any, result: Any) -> bool:
    """An assumption the memo's appendix leaves out because nothing of this plan rests on it: no deadline, "time
    for the filings", where the timeline holds no step but the setup (q12, q13, q22, q43: no filing to wait for; an
    open sign-up, which would bring one, is page 1's question). ``--json`` keeps it."""
    return a.key == NO_DEADLINE and all(i.id == "setup" for i in result.timeline.items)


UTILISATION_ASSUMED = "plan.assume.utilisation"  # "Utilisation not measured: assumed 40 % for a day/night load."


def _utilisation_assumption(result: Any) -> Any:
    return next((a for a in result.assumptions if a.key == UTILISATION_ASSUMED), None)


def utilisation_in_cost_table(result: Any) -> bool:
    """The cost table's utilisation row says the assumed utilisation and the load it was assumed for, so the
    appendix does not list it again (q13, q34): a row printed for every plan but a batch job, with the plain value
    (not the one that also weighs the tokens row's share, which names the load pattern already)."""
    a = _utilisation_assumption(result)
    return a is not None and not result.costs.utilisation_measured and \
        (result.answers or {}).get("use_case") != "offline_batch" and "load" in a.params


def utilisation_value(result: Any, lang: str, value: str) -> str:
    """The utilisation row's value with the load it was assumed for, where the appendix leaves that line out."""
    if not utilisation_in_cost_table(result):
        return value
    c, a = result.costs, _utilisation_assumption(result)
    plain = translate(lang, "memo4.cost.assumed_value", utilisation=f"{c.utilisation * 100:.0f}",
                      months=c.horizon_months)
    if value != plain:  # the variant that names the load pattern and the tokens row's share: said as it is
        return value
    return render(lang, "pages21.cost.assumed_load", {"utilisation": f"{c.utilisation * 100:.0f}",
                                                      "load": a.params["load"], "months": c.horizon_months})


def not_in_appendix(a: Any, result: Any) -> bool:
    """The appendix leaves this assumption out: moot for the plan, or the utilisation the cost table states."""
    return moot(a, result) or (a.key == UTILISATION_ASSUMED and utilisation_in_cost_table(result))


__all__ = ["cite_led_source", "led_sources", "moot", "not_in_appendix", "point_to_lead", "yardstick_on_page1", "sea_in_sources", "utilisation_in_cost_table",
           "utilisation_value"]


def yardstick_on_page1(rendered: list[dict[str, Any]], findings: Sequence[Finding], paragraph: str,
                       lang: str) -> None:
    """No hosted API serving the region is priced (q09, q23, q25, q38, q43): page 1's paragraph gives the other
    region's list price as a yardstick against this plan's month, and the finding said the same sentence again before
    its checks (session 26, issue 25: each figure once). Where ``paragraph`` holds that sentence, the finding keeps
    its checks and points to page 1 for the yardstick; the app and ``--json`` keep it whole."""
    if not paragraph:
        return
    for shown, f in zip(rendered, findings, strict=True):
        yardstick = f.params.get("yardstick")
        if not (f.id == HOSTED_FINDING and f.detail_key and isinstance(yardstick, dict)):
            continue
        if render(lang, str(yardstick["tr"]), {k: v for k, v in yardstick.items() if k != "tr"}) in paragraph:
            # review 25 (q38): a list served where the prompts may not go is said on page 1 as not comparable
            said = RESIDENCY_SAID if str(yardstick["tr"]).startswith("apiweigh36.residency.") else YARDSTICK_SAID
            shown["detail"] = render(lang, f.detail_key, {**f.params, "yardstick": {"tr": said}})


YARDSTICK_SAID = "pages26.yardstick_on_page1"
RESIDENCY_SAID = "apiweigh36.residency.said"
