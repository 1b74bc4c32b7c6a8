"""Page 1's purchase line: the expected price a server first, the quote ceiling as the guard, the servers counted, a
pilot where the first token is close (issue 25, blind review 28, q03).

Review 28 read q03's "order only if the quotes come in at or under about ¥1,050,000 a server" — more than twice the
memo's own ¥340,000–¥460,000 a server — as the price procurement would aim at: "state the expected price and treat
the budget ceiling as a secondary guard". The headline also said "Buy your own server" for two servers, and ordered
both although the chosen layout's predicted P99 first token (3.1 s against 4 s) lay inside the predictor's error: "add
a pilot on one server before the second is ordered".

Here the line says the purchase a server as the estimate gives it (``price_gate``'s servers, the owned or bare-metal
purchase range), then the ceiling (the monthly budget's, or the rent's break-even), named as a ceiling; the owned
form's headline counts its servers (``form_text``); and where the predicted P99 first token is inside the
predictor's error (``memo_one_server.thin_ttft``) and more than one server is bought, one server is piloted and
measured before the rest are ordered.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.memo_one_server import thin_ttft
from advisor.plan.money_text import symbol_range

# the second server in the plan for level 3's hot redundancy (``sizing.single_point``'s "added" variant): a duty
DUTY_SECOND = "plan.rule.sizing.single_point.added.title"

# the owned form's headline keys with a count of servers (one server keeps its own wording)
PLURAL = {"memo.form.on_premises": "quote39_form.on_premises",
          "memo.polish15.form.on_premises.server_room": "quote39_form.on_premises.server_room",
          "memo.text15.form.on_premises.lan": "quote39_form.on_premises.lan"}


def servers_bought(result: Any) -> int:
    """The servers an owned or bare-metal plan buys (its layout's units), 0 where it buys none or rents VMs."""
    lay = result.hardware.layout
    if lay is None or lay.unit != "server" or lay.basis == "fleet":
        return 0
    return int(lay.units or 0)


def form_text(result: Any, lang: str, key: str) -> str:
    """The form's headline words, "Buy 2 servers of your own …" where the plan buys more than one."""
    n = servers_bought(result)
    if n > 1 and key in PLURAL and result.deployment_form == "on_premises":
        return translate(lang, PLURAL[key], n=n)
    return translate(lang, key)


def _purchase(result: Any) -> Any:
    c = result.costs
    if result.deployment_form == "on_premises" and c.owned is not None:
        return c.owned.capex
    return c.bare_metal_capex


def expected(result: Any, gate: dict[str, Any]) -> str:
    """"¥340,000–¥460,000" a server: the estimated purchase split over the servers bought, or "" where unknown."""
    capex, servers = _purchase(result), int(gate.get("servers") or 0)
    if capex is None or servers < 1:
        return ""
    return symbol_range(round(capex.low / servers, -3), round(capex.high / servers, -3), gate["currency"])


def pilot(result: Any, lang: str, servers: int) -> str:
    """"; pilot one server first …" where the predicted P99 first token is inside the predictor's error and more than
    one server is bought; "" otherwise."""
    thin = thin_ttft(result) if result.feasible else ""
    if not isinstance(thin, dict) or servers < 2:
        return ""
    key = "quote39_pilot.second" if servers == 2 else "quote39_pilot.rest"
    if servers == 2 and any(f.title_key == DUTY_SECOND for f in result.findings):
        # blind review 32 (q03): level 3's hot redundancy requires the second server before go-live, so the pilot
        # gate sets when it is ordered, not whether (page 1 said "only once", section 7 "in the plan")
        key = "red42.pilot.second_required"
    return translate(lang, key, n=servers - 1, s=thin["s"], target=thin["target"])


__all__ = ["PLURAL", "expected", "form_text", "pilot", "servers_bought"]
