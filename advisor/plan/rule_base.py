"""The rule registry every rule module registers into, like a linter's: ``@rule(id, phase)`` on a small pure
function from the plan's ``Facts`` to findings, ``finding(id, …)`` to build one with its metadata and sources,
``run_rules`` to apply them in phase order. The rules themselves live in ``rules`` (filings, data, lines, GPU
support, sizing, cost), ``gpu_rules``, ``duties_rules``, ``rules_fleet`` and ``rules_forms``; ``rules`` imports the
others so that importing it registers every rule, in a fixed order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import gpus_by_id, rule_meta, rule_sources
from advisor.plan.result import SEVERITY_ORDER, Finding

PHASES = ("constraint", "sizing", "cost")
OFFSHORE = ("hong_kong", "singapore", "japan", "us_west", "us_east", "europe")


@dataclass
class Facts:
    """What the rules look at: the resolved answers and every number the engine computed."""

    ctx: Ctx
    region: str
    line: str
    form: str = "cloud"
    region_reason: str = ""
    gpu_ids: list[str] = field(default_factory=list)
    chosen: Any = None  # sizing.Candidate or None
    near: Any = None  # best candidate that fits but misses the SLO
    fits_anywhere: bool = True
    sim_ttft_p99: float | None = None
    sim_tpot_p99: float | None = None
    meets_slo: bool = False
    batch_hours_needed: float | None = None
    cost: Any = None  # cost.CostOutcome
    within_budget: bool | None = None
    budget_needed: float | None = None  # the HIGH end of the recommended form's cost, in the answer's currency
    budget_straddles: bool = False  # the budget lies inside the cost range
    launch_days: tuple[int, int] = (0, 0)
    hosted_monthly: tuple[float, float] | None = None
    serve_command: str | None = None
    claimed_c_max: int | None = None  # concurrency one replica takes within the target on the plan's own curve
    # s13-reviewfix: the P99 TTFT the memo's capacity card shows (a finding quoting it says the same number)
    card_ttft_p99: float | None = None
    card_tpot_p99: float | None = None  # s14-plan: the card's P99 TPOT, quoted alike (sizing.plan)
    # s13-reviewfix: the overseas node of a mainland + overseas plan on a part sold there (overseas_node.py)
    overseas_node: Any = None
    # s14-plan: a two-node plan laid out per node: the mainland node's context (its share of the peak) the chosen
    # setup is sized for, and the cost outcome the form was decided on (the single setup's, before the nodes)
    node_ctx: Any = None
    form_cost: Any = None
    # s14-plan: why each other GPU type of the team's fleet is left aside ({"tr": phrase key, …} each)
    fleet_others: list[Any] = field(default_factory=list)
    # a job's other setups that finish within its deadline, as the screen ranked them (``batch_gpu_why``)
    batch_others: list[Any] = field(default_factory=list)
    # s16-capacity: one server/VM and no spare: a second one priced (advisor.plan.second_unit.SecondUnit)
    second_unit: Any = None
    # s20-precision20: 4-bit weights and a budget that also covers a setup at a higher precision (higher_precision)
    higher_precision: Any = None
    # s21-tie21: a lower precision kept on as many GPUs for its first token (first_token_tie.FirstTokenTie)
    first_token_tie: Any = None
    # s21-fp8pick21b: FP8 kept over BF16 on as many GPUs for what it gives on them (fp8_gain.Fp8Gain)
    fp8_gain: Any = None
    # s21-batch21b: one request's first token alone on the planned setup, P99 ms (the latency curve's first level)
    ttft_alone_ms: float | None = None
    # s23-burst23: the plan's price book, for a rule that weighs another part's rent (burst_bill_rules)
    book: Any = None

    @property
    def sized_ctx(self) -> Ctx:
        """The context the chosen setup is sized for: the mainland node's on a two-node plan, else the plan's."""
        return self.node_ctx if self.node_ctx is not None else self.ctx

    @property
    def offshore(self) -> bool:
        return self.region in OFFSHORE

    @property
    def serves_mainland_from_mainland(self) -> bool:
        return self.region in ("mainland", "mainland_plus_overseas")


RuleFn = Callable[[Facts], "list[Finding] | Finding | None"]


@dataclass(frozen=True)
class Rule:
    id: str
    phase: str
    fn: RuleFn
    doc: str

    @property
    def severity(self) -> str:
        return rule_meta(self.id)["severity"]

    @property
    def confidence(self) -> str:
        return rule_meta(self.id)["confidence"]


RULES: dict[str, Rule] = {}


def rule(rule_id: str, phase: str) -> Callable[[RuleFn], RuleFn]:
    def deco(fn: RuleFn) -> RuleFn:
        if rule_id in RULES:
            raise ValueError(f"rule {rule_id} defined twice")
        RULES[rule_id] = Rule(rule_id, phase, fn, (fn.__doc__ or "").strip())
        return fn

    return deco


def finding(rule_id: str, *, severity: str | None = None, verify: bool | None = None, variant: str | None = None,
            **params: Any) -> Finding:
    """``variant``: the rule's texts for one case of it (``plan.rule.<id>.<variant>.title``/``.detail``), e.g. an
    ICP filing already done, where the general text's "plan 21–35 days" would be wrong."""
    meta = rule_meta(rule_id)
    sources = rule_sources(rule_id, variant)
    base = f"plan.rule.{rule_id}" + (f".{variant}" if variant else "")
    return Finding(
        id=rule_id,
        severity=severity or meta["severity"],
        title_key=f"{base}.title",
        detail_key=f"{base}.detail",
        params=params,
        sources=sources,
        verify=any(s.needs_verify for s in sources) if verify is None else verify,
        confidence=meta["confidence"],
    )


def run_rules(f: Facts, only: list[str] | None = None) -> list[Finding]:
    out: list[Finding] = []
    # a set: ``only`` is a list of up to ~80 ids, asked once per rule and phase (a plan's unanswered questions call
    # this with the constraint rules some twenty times; the list's scans were a tenth of a plan's own time)
    wanted = None if only is None else set(only)
    for phase in PHASES:
        for r in RULES.values():
            if r.phase != phase or (wanted is not None and r.id not in wanted):
                continue
            got = r.fn(f)
            if got is None:
                continue
            out.extend(got if isinstance(got, list) else [got])
    # blockers first, then warnings, then info; within a severity the rule order (phase, registry) stays
    order = _registry_order()
    out.sort(key=lambda x: (SEVERITY_ORDER[x.severity], PHASES.index(RULES[x.id].phase), order[x.id]))
    return out


_ORDER: tuple[tuple[str, ...], dict[str, int]] = ((), {})


def _registry_order() -> dict[str, int]:
    """Each rule's place in the registry, made again only when the registry is not the one it was made from."""
    global _ORDER
    ids = tuple(RULES)
    if ids != _ORDER[0]:
        _ORDER = (ids, {rid: i for i, rid in enumerate(ids)})
    return _ORDER[1]


def _region(region: str) -> dict[str, str]:
    return {"tr": f"plan.region.{region}"}


def _gpu_names(ids: list[str]) -> str:
    table = gpus_by_id()
    return ", ".join(table[g].name if g in table else g for g in ids)


def _money(v: float | None, f: Facts) -> str:
    if v is None:
        return "—"
    sym = "¥" if f.ctx.currency == "CNY" else "$"
    if 0 < abs(v) < SMALL_MONEY and round(v) != v:
        # under 10 in cents, so a month of a few tokens never reads "$0–$1" (blind review 22, q15: "should read
        # '<$2/month' so it does not look like a rounding error"; its cost table says 0.15–1.2)
        return f"{sym}{v:,.2f}"
    return f"{sym}{v:,.0f}"


SMALL_MONEY = 10.0  # amounts below this print to the cent


def _range(lo: float | None, hi: float | None, f: Facts) -> str:
    a, b = _money(lo, f), _money(hi, f)
    return a if a == b else f"{a}–{b}"  # one list price: one figure, not "¥1,804–¥1,804"
