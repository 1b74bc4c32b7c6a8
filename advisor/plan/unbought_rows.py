"""The price rows without the purchase price of cards the plan does not buy (s38-burst40, issue 25; blind review 29
on q39: "the memo is far too long and repetitive").

On the team's own fleet nothing is bought: the cost table says "One-off purchase: none", and the purchase row of the
card (its price and a placeholder server share) prices no figure in the memo. It stays where a figure reads it: the
cards' capital beside a paid API's cost per million tokens (``owned_capital37``), or any purchase at all (a spare
server, more cards bought beside the fleet: the form's purchase above zero). The memo's price table and the count of
weak prices beside it (``rules._weak_prices``) read the same rows.
"""

from __future__ import annotations

from typing import Any


def _sells_tokens(answers: Any) -> bool:
    """Users pay for an API: the owned cards' capital is then a figure (``owned_capital37``), read from this row."""
    def get(k: str) -> Any:
        return answers.get(k) if isinstance(answers, dict) else getattr(answers, k, None)

    return get("use_case") == "api" and get("charges_users") is True


def unbought(form: str | None, costs: Any, answers: Any) -> bool:
    """The plan runs on the team's own cards and buys nothing, and no figure reads the card's purchase price."""
    own = getattr(costs, "hybrid", None) if form == "hybrid" else getattr(costs, "owned", None) \
        if form in ("on_premises", "bare_metal") else None
    if own is None or not own.fleet_gpus or own.capex.high > 0:
        return False
    return not _sells_tokens(answers)


# the kinds of a rented GPU's price: on the team's own cards with nothing rented beside them none prices a figure
# (trim42, blind review 32, q33: "the rental price row and '2 of 2 prices used are grade C or U' are irrelevant when
# nothing is rented"); a hybrid rents its bursts, so its rows stay
RENT_KINDS = ("on_demand", "monthly", "spot", "reserved")


def _get(answers: Any, k: str) -> Any:
    return answers.get(k) if isinstance(answers, dict) else getattr(answers, k, None)


def rent_excluded(form: str | None, answers: Any) -> bool:
    """An office box bought from a one-off budget alone (no monthly budget) whose answers keep the prompts on the
    office LAN (highly sensitive data): no rent is a fallback and no figure is paid back against one, so no rental
    price row is printed (review 34, q01: "the rental row adds nothing to a no-cloud, power-only plan")."""
    if form != "on_premises" or _get(answers, "reach") != "lan" or _get(answers, "capex_budget") is None:
        return False
    if _get(answers, "monthly_budget") is not None:
        return False
    sens = _get(answers, "data_sensitivity")
    level = sens.get("level") if isinstance(sens, dict) else getattr(sens, "level", None)
    return level == "high"


def shown(rows: list[Any], form: str | None, costs: Any, answers: Any, gpu: str | None) -> list[Any]:
    """``rows`` less the purchase rows of the plan's own card ``gpu`` where ``unbought`` (and, outside a hybrid, its
    rental rows); less every rental row but the user's quotes where renting is excluded (``rent_excluded``);
    unchanged elsewhere."""
    if rent_excluded(form, answers):
        rows = [p for p in rows if getattr(p, "user_quote", False) or p.kind not in RENT_KINDS]
    if not gpu or not unbought(form, costs, answers):
        return list(rows)
    rented = form == "hybrid"
    return [p for p in rows if not (p.gpu == gpu and (p.kind == "capex" or (not rented and p.kind in RENT_KINDS)))]


__all__ = ["rent_excluded", "shown", "unbought"]
