"""What one server down leaves, said once where page 1's hardware row weighs it for the owner (issue 25, blind review
28, q04: "the one-server-down case … is stated three times; say it once").

Where the placement finding names one more replica on busy cards, page 1's hardware row says what one machine down
leaves today and with that replica (``headline25.more_replica_clause``), and the placement finding says it in full
in section 7. The capacity finding's title said it a third time, as a page-1 reason and again in section 7
(``sizing_reason``: "The N+1 spare covers one replica failing, not a server outage: …"). Here the memo renders that
title without the clause there; the plan's JSON keeps the finding as the engine made it.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import headline25, own_target44, quote_lead35, ttft_choice42
from advisor.plan.sizing_reason import TITLE

LOSS = "q04said_.sizing.server_loss_spare"


def findings(every: list[Any], result: Any, lang: str) -> list[Any]:
    """``every`` with the capacity finding's server-down clause left out where the hardware row says it."""
    def said_there(f: Any) -> bool:
        loss = f.params.get("loss")
        # (or its twin naming a target the plan set itself: ``own_target44``)
        return f.title_key in (TITLE, own_target44.TITLES[TITLE]) and isinstance(loss, dict) and loss.get("tr") == LOSS

    # review 29 (q26 zh: "the server-level gap is repeated about five times"): also where page 1's purchase gate says
    # what one failed server leaves (``quote_lead35.own_gate``) and the N+1 finding says it in section 7
    # review 32 (q04): also where the recommendation line weighs both layouts for the same cards (``ttft_choice42``)
    said = headline25.more_replica_clause(result, lang) or ttft_choice42.weighed(result) or (
        quote_lead35.exposed(result) and quote_lead35.own_gate(result, lang))
    if not any(said_there(f) for f in every) or not said:
        return every
    return [f.model_copy(update={"params": {**f.params, "loss": ""}}) if said_there(f) else f for f in every]


__all__ = ["findings"]
