"""The quote that would make a passed-over placeholder part the plan (s36-sourced, issue 25, blind review 27).

Where a part priced only by a placeholder (grade U) and of unsure supply (sold through a cloud's sales, or
export-sensitive) is passed over for a part with a public price that meets the target within the budget
(``gpu_choice.Tiers.supply``), the memo says, in one sentence, the monthly quote under which the other part would
cost less than this plan. Both sides are one basis, a month's bill: the placeholder part is sold by the month, all
its cards all month, and this plan's month is the cost row's low end (its cheapest basis), so a quote under the
threshold beats the plan however it is billed (q42 zh: "compares on-demand L20 (¥42,720) with reserved H20; put
both on the same price basis"). Never a figure the cost model did not give; not on a plan of a mainland and an
overseas node, whose month adds a node the part would not replace (q05, q34: the passed-over clause stands alone).
The setup named keeps the plan's redundancy: a second unit the plan added after the GPU choice (an internal tool at
classified protection level 3) is counted on the other part too (s37-spare, review 28, q41 zh: "1 × H20" beside the
plan's 等保三级 hot redundancy), and the threshold is the plan's month over those cards.
"""

from __future__ import annotations

from advisor.plan.data import facts, gpus_by_id
from advisor.plan.result import PlanResult
from advisor.plan.sure_first38 import unsure_supply


def _spare_after_choice(result: PlanResult) -> int:
    """Spare units the plan carries that the GPU choice's sizes leave out: those ``second_unit`` added to an internal
    tool (classified protection level 3, a basic-ops team). A spare laid out with the choice (``gpu_choice.
    apply_layout``: a public, paid or business service) is in every size it weighed and has ``redundancy`` set."""
    lay = result.hardware.layout if result.hardware is not None else None
    return lay.spare_units if lay is not None and lay.spare_units and lay.redundancy is None else 0


def export_sensitive(gpu_id: str) -> bool:
    """The part's export status has changed and may again (facts.json ``gpu_availability.export_sensitive``)."""
    return gpu_id in set(facts()["gpu_availability"]["export_sensitive"])


def attach(result: PlanResult) -> None:
    """Set ``gpu_choice.quote_switch`` ({"gpu", "n", "per_card", "plan_low"}) where the chosen part's price is sourced
    and the cheaper-looking one passed over is a placeholder part of unsure supply; leave it None elsewhere."""
    g, costs = result.gpu_choice, result.costs
    if g is None or not g.chosen.price_sourced or g.chosen.purchase is not None or costs is None:
        return
    if result.region == "mainland_plus_overseas":  # the month adds the overseas node the part would not replace
        return
    if result.deployment_form == "hybrid":  # s38-burst40 (q39): the owned base stays; a part sold by the month was
        return  # passed over for the bursts' days (``burst_gpu.hourly_first``), not a whole plan to switch to
    u = g.unsourced_cheaper
    month = costs.recommended_monthly
    if u is None or u.price_sourced or not unsure_supply(str(u.gpu)) or month is None or u.gpus <= 0:
        return
    # the same redundancy as the plan (review 28, q41 zh: "1 × H20" beside the plan's second VM for 等保三级 hot
    # redundancy): a spare the plan added after the GPU choice (``second_unit``: no ``redundancy`` on its layout)
    # was not in the sizes the choice weighed, so the part is counted with as many units more
    n = u.gpus + _spare_after_choice(result) * max(1, u.unit_gpus or 1)
    switch = {"gpu": u.gpu_name, "n": n, "per_card": round(month.low / n), "plan_low": round(month.low)}
    if export_sensitive(str(u.gpu)) and result.region == "mainland":
        # its supply can be cut off (deployment facts rule 8: US export rules changed in 2025 and since, Chinese
        # import guidance shifted): the switch holds only if it can be delivered (blind review 29, q19: "add a supply
        # caveat to the H20 switch rule"); said once, in the quote step where there is one (quote_first39)
        switch["export"] = True
    # why it takes fewer cards, where it does: the most memory bandwidth a card of the GPUs weighed (q42's m2: "H20's
    # ~4 TB/s bandwidth serves most tokens per card of the three" stays said with the L20 as the plan)
    parts = gpus_by_id()
    bw = {str(o.gpu): parts[str(o.gpu)].bandwidth_bytes_per_s for o in (g.chosen, *g.alternatives, u)
          if str(o.gpu) in parts}
    if n < g.chosen.gpus and bw.get(str(u.gpu), 0) >= max(bw.values(), default=0) > 0:
        switch.update(bw=round(bw[str(u.gpu)] / 1e12, 1), chosen_n=g.chosen.gpus, chosen=g.chosen.gpu_name)
    result.gpu_choice = g.model_copy(update={"quote_switch": switch})


__all__ = ["attach"]
