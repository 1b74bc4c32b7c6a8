"""The dated data the plan rests on: ``resources/plan/prices.json`` and ``resources/plan/facts.json``.

Every price row carries its source, date and grade; the user's quotes (project file ``plan.quotes``) replace
built-in rows with the same GPU and kind (and region, when the quote names one).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import ValidationError

from advisor.catalog import gpu_table
from advisor.plan.result import PriceRow, Source
from advisor.resources import load_json


class PlanDataError(ValueError):
    """A built-in plan data file is broken (names the file and the row)."""


@cache
def prices() -> dict[str, Any]:
    return load_json("plan", "prices.json")


@cache
def facts() -> dict[str, Any]:
    """``facts.json``, with the GPU choice's rules (``gpu_choice.json``) in its rule registry."""
    out = load_json("plan", "facts.json")
    # and the duties' rules (minors, sensitive data, data residency outside the mainland: ``duties.json``)
    out["rules"] = {**out["rules"], **gpu_choice_facts()["rules"], **load_json("plan", "duties.json")["rules"],
                    **load_json("plan", "sectors17.json")["rules"],  # s17-sectors: education, medical, MLPS, AI Act
                    **load_json("plan", "duties18.json")["rules"],  # s18-duties: 双减, consumer chat PI
                    **load_json("plan", "duties19.json")["rules"],  # s19-duties19: PDPO, HK export rules, AI Act
                    **load_json("plan", "duties20.json")["rules"],  # s20-duties20: a hosted API's processor contract
                    **load_json("plan", "operating18.json")["rules"],  # s18-steps: a public AI service's daily duties
                    **load_json("plan", "finance20.json")["rules"],  # s20-finance20: Indonesian users' financial data
                    **load_json("plan", "duties21.json")["rules"],  # s21-duties21: two zones for finance, GDPR Art. 9
                    **load_json("plan", "duties22c.json")["rules"],  # s22-duties22c: PIPL Art. 55 before export
                    **load_json("plan", "duties27.json")["rules"],  # s27-duties27: client documents' confidentiality
                    **load_json("plan", "duties34.json")["rules"],  # s33: GDPR DPIA for large-scale processing
                    **load_json("plan", "duties36.json")["rules"],  # s34: NMPA AI medical software classification
                    **load_json("plan", "procure36.json")["rules"],  # s34: a university's procurement process
                    **load_json("plan", "sources21.json")["rules"],  # s21-sources21b: HKMA GenAI, FAA, Llama licence
                    **load_json("plan", "burst23.json")["rules"],  # s23-burst23: a hybrid's rented bursts
                    **load_json("plan", "publicsaas31.json")["rules"],  # s31: a subscription's "public" risk
                    **load_json("plan", "commit38.json")["rules"]}  # review 27: peak-hour replicas on on-demand stock
    return out


@cache
def gpu_choice_facts() -> dict[str, Any]:
    """``resources/plan/gpu_choice.json``: availability, fleet, redundancy and line-bandwidth facts (with sources)."""
    return load_json("plan", "gpu_choice.json")


@cache
def builtin_rows() -> tuple[PriceRow, ...]:
    out = []
    for i, raw in enumerate(prices()["rows"]):
        try:
            out.append(PriceRow.model_validate(raw))
        except ValidationError as exc:
            raise PlanDataError(f"resources/plan/prices.json row {i}: {exc.errors()[0]['msg']}") from exc
    return tuple(out)


def gpus_by_id() -> dict[str, Any]:
    """Catalog and user GPUs by id, read once per plan (``catalog.get_gpu`` per lookup is slower)."""
    return gpu_table()


def factor(name: str) -> dict[str, Any]:
    return prices()["factors"][name]


def factor_range(name: str) -> tuple[float, float]:
    f = factor(name)
    return float(f["low"]), float(f["high"])


def rule_meta(rule_id: str) -> dict[str, Any]:
    try:
        return facts()["rules"][rule_id]
    except KeyError:
        raise PlanDataError(f"resources/plan/facts.json has no entry for rule {rule_id!r}") from None


def rule_sources(rule_id: str, variant: str | None = None) -> list[Source]:
    """The rule's sources; a rule whose cases rest on different laws (``sources_by_variant``) gives only the
    sources of the case found (``""``: the general text), so a Hong Kong finding never cites Singapore's law."""
    meta = rule_meta(rule_id)
    by_variant = meta.get("sources_by_variant")
    rows = by_variant.get(variant or "", []) if by_variant is not None else meta["sources"]
    key = (rule_id, variant)
    hit = _SOURCES.get(key)
    if hit is None or hit[0] is not rows:
        hit = _SOURCES[key] = (rows, tuple(Source.model_validate(s) for s in rows))
    return list(hit[1])


# Each rule's validated sources by the very list of rows they were validated from (held here: a patched or reloaded
# facts table is another list, so never read from an older one). A plan makes a finding per rule that fires, and its
# unanswered questions run the constraint rules again some twenty times: validating the same rows each time was
# a fiftieth of a plan's time (#27). The Source objects are shared between findings; nothing edits one in place.
_SOURCES: dict[tuple[str, str | None], tuple[list[Any], tuple[Source, ...]]] = {}


def duration(name: str) -> tuple[int, int]:
    d = facts()["durations_days"][name]
    return int(d["low"]), int(d["high"])


def quote_rows(quotes: list[dict[str, Any]] | None) -> list[PriceRow]:
    """The user's quotes as price rows (grade A: the user's own offer). Bad rows raise ValueError with the index."""
    rows = []
    for i, q in enumerate(quotes or []):
        if isinstance(q, PriceRow):
            rows.append(q.model_copy(update={"user_quote": True}))
            continue
        if not isinstance(q, dict):
            raise ValueError(f"quotes[{i}]: expected an object with gpu, kind, low, high")
        data = {
            "id": f"quote.{i}", "offer": q.get("offer", "your quote"), "gpu": q.get("gpu", "*"), "kind": q.get("kind", "on_demand"),
            "region": q.get("region", ""), "low": q.get("low", q.get("price")), "high": q.get("high", q.get("low", q.get("price"))),
            "unit": q.get("unit", "USD/GPU-hour"), "date": q.get("date", ""), "source": q.get("source", "user quote"),
            "url": q.get("url", ""), "grade": "A", "user_quote": True,
        }  # fmt: skip
        if q.get("vm_gpus") is not None:  # the offer's own shape: GPUs per VM or server (e.g. [8] for a whole node)
            data["vm_gpus"] = q["vm_gpus"]
        _check_quote(i, data)
        try:
            rows.append(PriceRow.model_validate(data))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ValueError(f"quotes[{i}].{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return rows


_MONEY = ("USD", "CNY")
_PER = ("GPU-hour", "GPU", "kW-month", "kWh", "FTE-month")
QUOTE_UNITS = tuple(f"{m}/{p}" for m in _MONEY for p in _PER)
FX_UNITS = ("CNY/USD",)


def _check_quote(i: int, q: dict[str, Any]) -> None:
    """A quote that would turn into a wrong plan is refused, naming the row and field: a price that is not a
    positive finite number (a negative one gave a negative cost, 0 a division by zero, NaN vanished), low above
    high, a unit the cost model does not convert, a GPU id no catalog knows (it silently replaced nothing)."""
    from advisor.i18n import tr

    for key in ("low", "high"):
        v = q.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise ValueError(tr("plan.quote.bad_price", i=i, field=key, value=str(v)[:40]))
    if q["low"] > q["high"]:
        raise ValueError(tr("plan.quote.low_above_high", i=i, low=q["low"], high=q["high"]))
    units = FX_UNITS if q.get("kind") == "fx" else QUOTE_UNITS
    if q.get("kind") == "fx" and q.get("unit") == "USD/GPU-hour":  # the default, for an fx row without a unit
        q["unit"] = "CNY/USD"
    if q.get("unit") not in units:
        raise ValueError(tr("plan.quote.bad_unit", i=i, unit=str(q.get("unit"))[:40], units=", ".join(units)))
    gpu = q.get("gpu")
    if gpu != "*" and q.get("kind") != "fx" and (not isinstance(gpu, str) or gpu not in gpus_by_id()):
        raise ValueError(tr("plan.quote.unknown_gpu", i=i, gpu=str(gpu)[:60]))


@dataclass(frozen=True)
class PriceBook:
    rows: tuple[PriceRow, ...]

    @classmethod
    def build(cls, quotes: list[dict[str, Any]] | None = None) -> PriceBook:
        user = quote_rows(quotes)
        replaced = {(q.gpu, q.kind) for q in user}
        kept = tuple(r for r in builtin_rows() if (r.gpu, r.kind) not in replaced)
        return cls(tuple(user) + kept)

    @functools.cached_property
    def _by_kind(self) -> dict[str, tuple[PriceRow, ...]]:
        """The rows of each kind, in the book's order: ``find`` runs thousands of times a plan (every setup's price
        rows, tiers and costs), and scanning every row of the book each time was a tenth of a cached plan (#27)."""
        out: dict[str, list[PriceRow]] = {}
        for r in self.rows:
            out.setdefault(r.kind, []).append(r)
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def _found(self) -> dict[tuple[str, str, str | None], tuple[PriceRow, ...]]:
        return {}  # find's answers: the book never changes (frozen, its rows a tuple)

    @functools.cached_property
    def derived(self) -> dict[tuple, Any]:
        """Answers of functions of this book alone (``cost.cloud_rows``), kept as long as the book: a plan builds its
        own book, so they go with it (issue #27)."""
        return {}

    def find(self, gpu: str, kind: str, region: str | None = None) -> list[PriceRow]:
        key = (gpu, kind, region)
        hit = self._found.get(key)
        if hit is None:
            hit = self._found[key] = tuple(self._find(gpu, kind, region))
        return list(hit)  # a list of its own: a caller may sort or extend it

    def _find(self, gpu: str, kind: str, region: str | None) -> list[PriceRow]:
        rows = [r for r in self._by_kind.get(kind, ()) if r.gpu in (gpu, "*")]
        if region is not None:
            local = [r for r in rows if r.region == region or r.user_quote]
            if local:
                return local
            if region == "mainland":
                return []
            rows = [r for r in rows if r.region != "mainland"]
        return rows

    def fx(self) -> dict[str, Any]:
        for r in self.rows:
            if r.kind == "fx" and r.user_quote:
                return {"cny_per_usd": (r.low + r.high) / 2, "date": r.date, "source": r.source, "grade": "A"}
        return dict(prices()["fx"])
