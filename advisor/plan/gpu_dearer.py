"""Why not a GPU that looks cheaper per card: the setup on it that meets the target costs more (ninth blind review,
q42/q19: the memo said the H20 has 4.6 × the L20's bandwidth and 2.8 × per yuan, then picked 4 × L20 without saying
why, and named the H20 only at bf16 although FP8 was allowed).

The screen ranks setups on its analytic capacity; the predictor's check then sizes the first ones on their own
curve (``engine._verify_laid_out``: the peak plus the plan's headroom on the replicas that serve, N+1 on top). A
setup ranked first on the screen can come out dearer at that size, and a setup ranked after it is chosen. That
setup is the other GPU's real alternative (at the plan's precision and its smallest layout), so it is named with
what decided: the requests one replica takes within the target on each GPU's curve, the replicas the peak with the
headroom needs, and both hourly costs; and, where fewer of its cards would carry the bare peak with N+1 for less,
that cheaper setup with the headroom it leaves.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from advisor.i18n import translate

if TYPE_CHECKING:  # result.py holds this module's output type: no import of the planning core at load time
    from advisor.plan.context import Ctx
    from advisor.plan.sizing import Candidate

MISSED = "predictor_missed"  # a candidate note: the predictor's check did not meet the target at any size tried


def mark_checked(cand: Candidate, meets: bool) -> None:
    """Record the predictor's verdict on the candidate (the last check decides)."""
    cand.notes[:] = [n for n in cand.notes if n != MISSED]
    if not meets:
        cand.notes.append(MISSED)


def missed(cand: Candidate) -> bool:
    """The predictor's check found no size of this setup that meets the target: never named as an alternative."""
    return MISSED in cand.notes


class DearerAlt(BaseModel):
    """A setup on another GPU that costs more than the chosen one at the size that meets the target."""

    model_config = ConfigDict(extra="forbid")

    gpu: str = ""  # the catalog id, to match the option the memo lists for the same GPU
    gpu_name: str
    weights: str
    tp: int
    per_replica: int  # requests one replica takes within the target on its own predicted curve
    gpus: int
    per_hour: float
    chosen_gpu_name: str
    chosen_tp: int
    chosen_per_replica: int
    chosen_gpus: int
    chosen_per_hour: float
    peak: int
    headroom_pct: int
    target: int  # the peak plus the plan's headroom, in requests at once
    serving_gpus: int  # cards of the replicas that carry the peak with the headroom (the N+1 spare not counted)
    spare_gpus: int  # cards kept spare for N+1 (and any a whole unit adds)
    whole_server: bool = False  # the setup comes as whole servers of ``unit_gpus`` cards
    unit_gpus: int = 1
    units: int | None = None  # the VMs or servers ``gpus`` come in
    leaner_gpus: int | None = None  # fewer cards that carry the bare peak with N+1
    leaner_per_hour: float | None = None
    leaner_headroom_pct: int | None = None
    currency: str = "USD"
    # s21-replica21 (round 10, q03: "H20 is called 2.8× better per unit of price yet 'takes only 6 at once'"): the
    # weighing is per card on the limiting resource at the peak; what stops one replica of this GPU one request
    # past its claim is said, from its own curve: the first token (prefill compute) or each token (decode)
    limit: str | None = None  # "ttft" or "tpot": the target the first level past ``per_replica`` misses
    limit_at: int | None = None
    limit_ms: float | None = None
    limit_target_ms: float | None = None
    # price36 (blind review 25, q03): where the plan buys, both setups' purchases (low, high, the answers' currency):
    # the clause says them, never a cloud's hourly rate inside a purchase decision
    purchase: list[float] | None = None
    chosen_purchase: list[float] | None = None

    def text_in(self, lang: str, lead: str = "pages20.dearer", figures_said: bool = False) -> str:
        """The clause; ``lead``: the keys' prefix (``gpucheap21`` says it of a cheaper card left out of the options).
        ``figures_said``: the GPU choice's opening sentence gave its requests a replica and cost (advisor.plan.gpu_lead):
        only what stops a replica and a leaner size are added (s23-pages23)."""
        p = {k: (f"{v:,.2f}" if isinstance(v, float) else v) for k, v in self.model_dump().items()}
        # pages20: said in fewer words, each cost once (the longer gpudearer19 texts, unread, removed in s26-polish26)
        key = f"{lead}.text" if lead != "pages20.dearer" else f"{lead}.text_whole" if self.whole_server and \
            self.spare_gpus else f"{lead}.text_spare" if self.spare_gpus else f"{lead}.text"
        bought = self.purchase is not None and self.chosen_purchase is not None and lead == "pages20.dearer"
        if bought:  # a purchase: the two purchases, not the rent by the hour
            key = key.replace("pages20.dearer.", "price36.dearer.")
            p.update(purchase=_range(self.purchase), chosen_purchase=_range(self.chosen_purchase))
        out = "" if figures_said and lead == "pages20.dearer" else translate(lang, key, **p)
        if lead != "pages20.dearer":  # the compact clause (a cheaper card left out): its size and cost alone
            return out
        if self.limit is not None:
            out += ("" if lang == "zh_CN" or not out else " ") + translate(
                lang, f"replica21.dearer.limit_{self.limit}", gpu_name=self.gpu_name, at=self.limit_at,
                ms=f"{self.limit_ms:,.0f}" if self.limit == "ttft" else f"{self.limit_ms:,.1f}",
                target=f"{self.limit_target_ms:,.0f}")
        if self.leaner_gpus is not None and not bought:  # its cost is an hourly rent
            out += ("" if lang == "zh_CN" or not out else " ") + translate(lang, "gpudearer19.leaner", **p)
        return out


def _range(r: list[float] | None) -> str:
    return "" if r is None else f"{r[0]:,.0f}" if round(r[0]) == round(r[1]) else f"{r[0]:,.0f}–{r[1]:,.0f}"


def _limit(c: Ctx, per: int, lv) -> dict[str, object]:
    """What one replica misses one request past its claim ``per`` (TTFT before TPOT), with its figure, read off
    ``lv``, the level at ``per + 1`` (the claim's bisection has simulated it already, as a rule). Empty where that
    level meets the target (the claim then stopped at what the KV cache holds or at the whole target)."""
    ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    if c.ttft_slo_ms is not None and ttft is not None and ttft > c.ttft_slo_ms:
        return {"limit": "ttft", "limit_at": per + 1, "limit_ms": ttft, "limit_target_ms": c.ttft_slo_ms}
    if c.tpot_slo_ms is not None and tpot is not None and tpot > c.tpot_slo_ms:
        return {"limit": "tpot", "limit_at": per + 1, "limit_ms": tpot, "limit_target_ms": c.tpot_slo_ms}
    return {}


def better_per_price(card, cards) -> bool:
    """The card (a ``gpu_weigh.CardFigure``) gives more of the limiting resource per unit of price than the chosen
    one: the weighing then makes it look the better buy, and the memo must say why it is not chosen."""
    mine = next((f for f in cards if f.chosen), None)
    if card.chosen or mine is None or not card.per_card_hour or not mine.per_card_hour:
        return False
    return card.value / card.per_card_hour > mine.value / mine.per_card_hour


def _serving(k: Candidate) -> int:
    lay = k.layout
    if lay is None:
        return k.replicas
    return max(1, k.replicas - lay.spare_units * max(1, lay.unit_gpus // max(1, lay.tp)))


def _spares(k: Candidate) -> bool:
    """The setup keeps an N+1 spare (its hour counts cards that carry none of the peak)."""
    return k.layout is not None and k.layout.spare_units > 0


def explain(c: Ctx, chosen: Candidate, alt: Candidate, conv: float, relayout, claimed_capacity,
            target: int, headroom_pct: int, probe) -> DearerAlt | None:
    """Why ``alt`` (another GPU, same standing, dearer at the size that meets the target) is not chosen; None when
    it is not dearer. ``relayout(candidate, load_replicas)`` returns a copy laid out for that many serving
    replicas (spares added back), used to try one serving replica fewer; ``claimed_capacity(candidate)`` the
    requests one replica takes within the target on its curve; ``target`` the peak with the plan's headroom;
    ``probe(candidate, need)`` (``capacity.probe_alternative``) what one replica takes searched up to ``need`` and
    the predicted level one past it (passed in: capacity sits above this module)."""
    def hour(k: Candidate) -> float:
        return round(k.price_mid * k.total_gpus * conv, 2)

    if alt.price_mid <= 0 or chosen.price_mid <= 0 or hour(alt) <= hour(chosen):
        return None
    # one replica's claim on a curve probed up to the whole target (a setup laid out for more replicas is probed
    # only up to its share, and whole units can add replicas: q03's 8 × H20 read "6 requests a replica")
    per, past = probe(relayout(alt, 1), target)
    limit = _limit(c, per, past)
    # the chosen setup's figure is the plan's own claim, the one the sizing table prints and --max-num-seqs caps the
    # engine at (round 10: q03 said 14 here beside 12 there, q31 12 beside 9, q36 164 beside 150: a one-replica copy
    # probed up to the whole target found more than the plan's layout, probed up to its share, claims)
    mine = claimed_capacity(chosen)
    # the replicas the peak with the headroom needs on its own curve: the same rule as the chosen setup's (s20-gpu20:
    # q43's A100 "takes 1 of its cards" for 36 at once at 29 a replica, q11's L20 6 cards for 48 at 10 a replica);
    # a screen's layout with fewer serving replicas is sized up to it, never said at a size that misses the rule
    serving = math.ceil(target / max(per, 1))
    if serving > _serving(alt):
        alt = relayout(alt, serving)
        if hour(alt) <= hour(chosen):
            return None
    lay = alt.layout
    serving = min(_serving(alt), serving)
    serving_gpus = serving * alt.tp
    leaner: dict[str, float | int] = {}
    if serving > 1 and serving_gpus < alt.total_gpus + 1:
        lean = relayout(alt, serving - 1)
        if lean.total_gpus < alt.total_gpus and hour(lean) < hour(chosen) and (serving - 1) * per >= c.peak:
            room = math.floor(((serving - 1) * per / max(c.peak, 1) - 1) * 100)
            leaner = {"leaner_gpus": lean.total_gpus, "leaner_per_hour": hour(lean), "leaner_headroom_pct": room}
    gpus, per_hour, spare = alt.total_gpus, hour(alt), max(0, alt.total_gpus - serving_gpus)
    if spare == 0 and _spares(chosen) and not (lay is not None and lay.whole_server):
        # like for like: the chosen hour counts its N+1 spare, so this one counts a replica's spare too (blind
        # review 19, q38: "1 H100 without a spare (4.45 USD/h) set against 2 L40S including the spare (4.30)")
        spare, gpus = alt.tp, gpus + alt.tp
        per_hour = round(per_hour + alt.price_mid * alt.tp * conv, 2)
    return DearerAlt(gpu=alt.gpu.id, gpu_name=alt.gpu.name, weights=alt.weights, tp=alt.tp, per_replica=per, gpus=gpus,
                     per_hour=per_hour, chosen_gpu_name=chosen.gpu.name, chosen_tp=chosen.tp,
                     chosen_per_replica=mine, chosen_gpus=chosen.total_gpus, chosen_per_hour=hour(chosen),
                     peak=c.peak, headroom_pct=headroom_pct, target=target, serving_gpus=serving_gpus,
                     spare_gpus=spare, currency=c.currency,
                     whole_server=bool(lay is not None and lay.whole_server),
                     unit_gpus=lay.unit_gpus if lay is not None else 1, units=lay.units if lay is not None else None,
                     **leaner, **limit)  # fmt: skip


__all__ = ["MISSED", "DearerAlt", "explain", "mark_checked", "missed"]
