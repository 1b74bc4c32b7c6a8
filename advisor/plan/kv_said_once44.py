"""The KV cache's shortfall said once in the memo, in full where it decides: page 1's memory condition (blind review
35, q35 en: "only 2.2 GiB for the KV cache, 8 full-context requests … restated four times (section 1 box,
feasibility row, next step 2, section 2); state it once").

Where page 1 prints the memory condition (``kv_page_one37.line`` in its condition form, ``kv_condition40``: the
figures, the load and the go/no-go step), the places around it point to it instead of restating its figures:

- the go/no-go step on page 1 opens on the test, "(the memory condition above)", without the counts again;
- section 2's "what decides the size" keeps what only it says (how long the requests can be at the peak's load, the
  remedies, the engine options) and points to the condition for the GiB and the full-context count, leaving out
  the failover load and the serve command's cap the condition already reads.

The feasibility row's pointer is ``kv_replicas42.row_clause``'s (it knows the row is the memo's). The app and
``--json`` keep every sentence in full: only the memo's text is shortened.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import kv_condition40
from advisor.plan.kv_replicas42 import GATE_KEY
from advisor.plan.result import NextStep, PlanResult

STEP_KEY = "rep44.step.gate"  # the go/no-go step beside the condition: the test, not the figures again
TIGHT = "kvlimit28.tight"  # section 2's KV sentence in full
TIGHT_SAID = "rep44.tight_said"  # … pointing to page 1's condition
ALSO = ("kvfit33.also", "kvfit33.also_nodown")  # the failover load and the cap: the condition reads both


def condition_printed(result: PlanResult, api_led: bool | None = None) -> bool:
    """Page 1 prints the memory condition (a material shortfall, no hosted-API lead: ``kv_page_one37.line``).
    ``api_led``: the memo's page 1 starts on a hosted API (None: read from the plan, as ``result.lead_text`` does)."""
    if api_led is None:
        start = result.start_with
        api_led = bool(result.feasible and start is not None and start.form == "hosted_api" and start.key)
    if api_led:
        return False
    found = kv_condition40.case(result)
    return found is not None and kv_condition40.material(found[0], found[1])


def page_one_step(step: NextStep, printed: bool) -> NextStep:
    """The go/no-go step as page 1 prints it beside the condition: its test, pointing up for the figures."""
    if not printed or step.key != GATE_KEY:
        return step
    return step.model_copy(update={"key": STEP_KEY})


def section_two(then: list[dict[str, Any]], printed: bool) -> list[dict[str, Any]]:
    """Section 2's sentences after "what decides the size", less what the condition on page 1 says."""
    if not printed:
        return then
    return [{**p, "tr": TIGHT_SAID} if p.get("tr") == TIGHT else p for p in then if p.get("tr") not in ALSO]


__all__ = ["STEP_KEY", "condition_printed", "page_one_step", "section_two"]
