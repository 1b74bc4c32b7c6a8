"""The cost per million tokens said on the month it divides, once (s31-permillion31, issue 25, blind review 20).

Reviewers read the per-million row as alarming noise or as contradicting itself: q24's "18.9–51.1 USD per million
output tokens at the estimated volume" was computed on the busiest-hour floor's 100,000,000 tokens, while the floor
row beside it said 43–116 USD "at the estimate" (q12 likewise, 875–1,246 beside 433–617); q03's 784–1,158 CNY and
q10's 4,323–10,613 CNY at 1-5 % use alarmed without context. So the row now:

- names the month it divides (the estimate, the busiest-hour floor the costs were raised to, or the user's own) with
  the monthly cost and the tokens, so a reader multiplies it out (monthly × GPU-time share ÷ tokens);
- where the setup is little used (under ``LOW_USE``), says in plain words that the figure is the month's cost
  spread over few tokens, the GPUs idle most of the time, and gives the full-load figure and a priced hosted API's
  rates beside it;
- is the only per-million figure of the table: the floor and peak sentences no longer print their own
  (``volume_peak._other``).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import people_volume, volume_peak, volume_range
from advisor.plan.money_text import money_range, round_money
from advisor.plan.result import MoneyRange, render
from advisor.plan.volume_low_end import FLOOR

# under this share of the setup's capacity used (the high end of the GPU-use range), a token's cost is mostly idle
# GPU-hours: the row says so beside the full-load figure (the brief of issue 25: "say under ~20 %")
LOW_USE = 0.2


def basis(costs: Any) -> str:
    """Which month the per-million figures divide: "floor" (the estimate raised to its busiest hour's floor, the
    costed month), "own" (the user's answered volume) or "estimated"."""
    if ((getattr(costs, "volume_basis", None) or {}).get(FLOOR)):
        return "floor"
    own = (costs.per_million_basis or {}).get("own_volume") or {}
    return "own" if own.get("answered") else "estimated"


def volume_clause(costs: Any, lang: str, busy: str) -> str:
    """"2,338–6,308 USD a month over the busiest-hour floor's 380,000,000 / 100,000,000 tokens (the costed month,
    not the estimate; 1–5 % of capacity): input …; output …": the row's head, "" without the month's figures."""
    own = (costs.per_million_basis or {}).get("own_volume") or {}
    monthly = costs.per_million_monthly
    if monthly is None or "input" not in own or "output" not in own:
        return ""
    cur = costs.currency
    # a little-used setup's share is said once, in the idle words that open the row (``idle_clause``), to keep it short
    said = "" if low_use(costs) else translate(lang, "permillion31.per_million.busy", busy=busy)
    # a month raised to what the people can send is named as that, as its own row is (review 20b, q08)
    key = "misc32.per_million.people_cap" if volume_peak.people_capped(costs) else \
        f"permillion31.per_million.{basis(costs)}"
    return translate(lang, key, monthly=money_range(monthly, cur),
                     tin=_tokens(costs, float(own["input_tokens"])), tout=_tokens(costs, float(own["output_tokens"])),
                     busy=said, input=_range(own["input"], cur), output=_range(own["output"], cur))


def _tokens(costs: Any, v: float) -> str:
    """The month's tokens as the tokens row prints them (``volume_range.volume_text``): the label and the row agree."""
    if basis(costs) == "floor":  # the floor's own figures: whole (the floor row says them so)
        return round_money(v)
    return volume_range.volume_text(costs.volume_basis, v)


def low_use(costs: Any) -> bool:
    """The setup used under ``LOW_USE`` at the GPU-use range's high end."""
    return max(costs.utilisation or 0.0, costs.usage_high or 0.0) < LOW_USE


def idle_clause(costs: Any, lang: str, busy: str, per_person: bool = False) -> str:
    """The plain words after the figures where the setup is little used ("" where it is not); ``per_person``: the
    month rests on the requests-a-person assumption, which the same sentence names (twice as many halve it);
    ``busy``: the share of capacity used, said here rather than in the head."""
    if not low_use(costs):
        return ""
    note = people_volume.per_million_note(costs.volume_basis) if per_person else None
    if note is None:
        return translate(lang, "permillion31.per_million.idle", busy=busy)
    return render(lang, "permillion31.per_million.idle_per_person", {"busy": busy, "per": note["per"],
                                                                    "day": note["day"]})


def hosted_clause(costs: Any, lang: str) -> str:
    """"; a hosted API: input …; output …" where one is priced (its list prices, another model's named in the
    hosted row; the next generation's, named, where page 1 starts on it: ``Costs.hosted_api_led``), "" where none
    is."""
    cur, led = costs.currency, getattr(costs, "hosted_api_led", None)
    if led is not None:  # page 1 starts on another model of the same list (its next generation): its rates, named, so
        # the row agrees with the lead's month and rates (s32-permil33, blind review 21, q12/q22)
        return translate(lang, "permil33.per_million.hosted_led", model=led.model_name,
                         input=money_range(led.input, cur), output=money_range(led.output, cur))
    i, o = costs.hosted_api_input_per_million, costs.hosted_api_output_per_million
    if i is None or o is None:
        return ""
    other = getattr(costs, "hosted_api_priced_on", None)
    if other:  # another model's list: named here too, as page 1 and the hosted row name it (q24: Qwen3-32B)
        return translate(lang, "permil33.per_million.hosted_led", model=other, input=money_range(i, cur),
                         output=money_range(o, cur))
    return translate(lang, "permillion31.per_million.hosted", input=money_range(i, cur), output=money_range(o, cur))


def _range(r: dict[str, float], cur: str) -> str:
    return money_range(MoneyRange(low=float(r["low"]), high=float(r["high"])), cur)


__all__ = ["LOW_USE", "basis", "hosted_clause", "idle_clause", "low_use", "volume_clause"]
