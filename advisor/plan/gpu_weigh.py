"""Why this GPU and not the next two, weighed as an engineer weighs them: per card, in the resource that limits this
workload, against the price of a card-hour (issue 25 item 3; blind review q42: the memo picked the L20 and never
weighed the H20's 4 TB/s for a decode-heavy chat, and dropped the H20 only because it was priced as whole servers).

The limiting resource follows deployment-facts §4 rule 10 and the sizing core's own step-cost model: the share of a
replica's GPU time at the peak that goes to decoding (bandwidth-bound) or to prefill (compute-bound); KV memory when
the cache, not the latency target, caps the requests a replica holds. Each setup's card is then stated in that
resource with its price per card-hour and the resource per unit of price. A part priced only as whole 8-GPU servers
(no sourced cloud instance with fewer cards) is said as such, with what the cards the load needs would cost at the
same per-card price: the comparison per GPU-hour is fair, and unknown instance sizes stay unknown (ask a provider).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.i18n import translate
from advisor.plan import node_shapes
from advisor.plan.sales_only import listed_on_request

if TYPE_CHECKING:  # result.py holds this module's output type: no import of the planning core at load time
    from advisor.plan.context import Ctx
    from advisor.plan.sizing import Candidate

Resource = Literal["decode_bandwidth", "prefill_compute", "kv_memory"]
GIB = 1024**3


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardFigure(_Out):
    """One setup's card in the limiting resource and its price per card-hour (the answer's currency)."""

    gpu: str
    gpu_name: str
    value: float = Field(description="TB/s (decode bandwidth), dense TFLOPS at the plan's format, or GiB of memory")
    per_card_hour: float | None = Field(None, description="mid of the price range per GPU-hour; None when unpriced")
    chosen: bool = False
    kv_requests: int | None = Field(None, description="requests of average length one replica's KV cache holds")
    tp: int = 1
    placeholder: bool = Field(False, description="per_card_hour rests on placeholder (grade U) price rows only")
    # price36: bought, the card's purchase range with its server share and what it rests on (GpuOption's own)
    buy: list[float] | None = Field(None, description="(low, high) a card with its server share, bought")
    buy_basis: dict[str, str] | None = Field(None, description="{basis: sourced | stand_in | none, grade, date}")


class WholeServerNote(_Out):
    """A setup priced as whole servers although its load needs fewer cards: what those cards cost per card."""

    gpu_name: str
    gpus: int = Field(description="cards in the rounded setup (whole servers, N+1 included)")
    unit_gpus: int
    need: int = Field(description="cards the peak needs, plus one replica spare where the plan carries N+1")
    tp: int = Field(1, description="cards a replica takes")
    per_hour_if_cards: float = Field(description="``need`` cards at the same per-card price, per hour")
    chosen_per_hour: float
    cheaper: bool = Field(description="the cards alone would cost less an hour than the chosen setup")
    # s28-memo28 (review 17, q40): a part not sold new since the Oct-2023 rule (H800/A800, deployment-facts.md §2
    # "H800 / A800", [ARTHUR], [PHILISUN_H800]) is "the better choice" only while such stock lasts, said as the
    # chosen-over list says it of the A800 (q40 offered the H800 as "the better choice" with no caveat)
    stock_only: bool = Field(False, description="the part is existing stock only since the October 2023 rule")


class GpuWeighing(_Out):
    resource: Resource
    share_pct: int | None = Field(None, description="decode's share of GPU time at the peak (100 − prefill's)")
    cards: list[CardFigure]
    whole_server: list[WholeServerNote] = Field(default_factory=list)
    currency: str = "USD"
    share_gpu: str | None = Field(None, description="the GPU whose split ``share_pct`` is: the setup a decode-heavy "
                                                    "load passed over (advisor.plan.decode_pick); None: the chosen")
    on_mainland_node: bool = Field(False, description="a plan of a mainland and an overseas node: ``share_pct`` is "
                                   "the mainland node's split, the cost row's adds both nodes (said so)")

    bought: bool = Field(False, description="per_card_hour holds each card's share of its setup's purchase (the "
                         "plan buys): the weighing is on purchases, not on rent by the hour (``on_purchase``)")
    # s36-sourced (q34/q30 stayed on their pages): the placeholder card's ratio is left out where the quote that
    # would switch to it is said (quote_switch38): its price is a placeholder there already, its card named
    quote_said: bool = False

    def on_purchase(self, per_card: dict[str, Any]) -> GpuWeighing:
        """This weighing on purchase prices, ``per_card``: each GPU's (low, high) purchase a card with its server
        share and what that rests on (``purchase_rank.purchase_basis``), None where it has none: a one-off purchase
        is not justified by rent by the hour (blind review 20, q17: "77.92 against 58.52 CNY/h"). A card's price is
        said as its range with its provenance, a placeholder no source gives as unknown, and a ratio per unit of
        price only between sourced prices (blind review 25, q01/q02: "A10 at 34,929 CNY a card", a placeholder's
        middle, read as a street price). The whole-server notes, about a cloud's instance sizes, go with the rent."""
        def card(c: CardFigure) -> CardFigure:
            got = per_card.get(c.gpu_name)
            if got is None:
                return c.model_copy(update={"per_card_hour": None, "placeholder": False})
            (lo, hi), basis = got
            return c.model_copy(update={"per_card_hour": (lo + hi) / 2, "buy": [lo, hi], "buy_basis": basis,
                                        "placeholder": (basis or {}).get("basis", "sourced") != "sourced"})

        return self.model_copy(update={"cards": [card(c) for c in self.cards], "whole_server": [], "bought": True})

    def text_in(self, lang: str) -> str:
        def fmt(v: float) -> str:
            if self.resource == "decode_bandwidth":
                return f"{v:.1f}" if v >= 1 else f"{v:.2f}"
            return f"{v:,.0f}"

        def card(c: CardFigure) -> str:
            if c.per_card_hour is None:
                return render(lang, f"plan.gpu_weigh.card_unpriced.{self.resource}", {"gpu": c.gpu_name,
                                                                                     "value": fmt(c.value)})
            if c.placeholder and not self.bought and listed_on_request(c.gpu):
                # sold only by the month through the cloud's sales, on a placeholder: no card-hour it is rented at
                # (blind review 21, q19: hourly H20 figures read as a price to rent it by the hour)
                return render(lang, f"sales33.gpu_weigh.card_monthly.{self.resource}", {"gpu": c.gpu_name,
                                                                                        "value": fmt(c.value)})
            if self.bought and c.buy is not None:
                return _bought_card(lang, self.resource, c, fmt(c.value), self.currency)
            per = c.value / c.per_card_hour if c.per_card_hour > 0 else 0.0
            # s23-pages23: the card's figure and price; the ratio per unit of price is the "best" sentence's
            key = "gpuwhy31.gpu_weigh.card_bought." if self.bought else "pages23.gpu_weigh.card."
            return render(lang, key + self.resource, {
                "gpu": c.gpu_name, "value": fmt(c.value),
                "price": f"{c.per_card_hour:,.0f}" if self.bought else f"{c.per_card_hour:,.2f}",
                "currency": self.currency, "per": f"{per:.3g}"})  # fmt: skip

        # the split of the setup passed over for this one (``decode_pick``): the one the choice rested on, named
        key = f"gpupick21.weigh_head.{self.resource}" if self.share_gpu and self.resource != "kv_memory" \
            else f"plan.gpu_weigh.head.{self.resource}"
        if self.on_mainland_node and key.startswith("plan.gpu_weigh.head.") and self.resource != "kv_memory":
            # two nodes: this split is the mainland node's (q05: 77 % decode here, s22-sizenums22); the cost row no
            # longer quotes a both-nodes split to point at (s26-usage26: the per-million row is at the month's tokens)
            key = f"usage26.gpu_weigh.head.{self.resource}_mainland"
        head = render(lang, key, {"share": self.share_pct if self.share_pct is not None else "—",
                                  "gpu": self.share_gpu or ""})
        sep = render(lang, "plan.gpu_weigh.sep")
        if self.whole_server and not any(w.cheaper for w in self.whole_server):
            # the card that looks better per price costs more even counted per card for this load: the weighing
            # decides nothing, so only that is said (06: the paragraph pushed a five-page memo onto a sixth)
            return "".join(self._whole_server_text(w, lang) for w in self.whole_server).strip()
        text = head + sep.join(card(c) for c in self.cards) + render(lang, "plan.gpu_weigh.end")
        best = max((c for c in self.cards if c.per_card_hour), key=lambda c: c.value / c.per_card_hour,  # type: ignore[operator]
                   default=None)
        mine = next((c for c in self.cards if c.chosen), None)
        if best is not None and mine is not None and not best.chosen and mine.per_card_hour:
            ratio = (best.value / best.per_card_hour) / (mine.value / mine.per_card_hour)  # type: ignore[operator]
            # a ratio on a placeholder card-hour is no fact (review 19 / pricefix29: q05, q14, q34 read "5.1 × per
            # unit of price" on the H20's placeholder): the card's own ratio is said, the price's left to a quote
            guessed = "gpuwhy30.gpu_weigh.best_placeholder." if best.placeholder else \
                "gpuwhy30.gpu_weigh.chosen_placeholder." if mine.placeholder else \
                "gpuwhy31.gpu_weigh.best_bought." if self.bought else "plan.gpu_weigh.best."
            if ratio >= 1.2 and not (best.placeholder and self.quote_said):
                text += render(lang, guessed + self.resource, {
                    "gpu": best.gpu_name, "ratio": f"{ratio:.1f}", "chosen": mine.gpu_name,
                    "card_ratio": f"{best.value / mine.value:.1f}"})  # fmt: skip
        # the requests each KV cache holds: said where memory is what decides (s23-pages23: a row of figures
        # beside a bandwidth or compute weighing the reviewers never used, on every memo's page 2)
        if self.resource == "kv_memory" and all(c.kv_requests is not None for c in self.cards):
            rows = [render(lang, "plan.gpu_weigh.kv_row", {"gpu": c.gpu_name, "n": c.kv_requests, "tp": c.tp})
                    for c in self.cards]
            text += render(lang, "plan.gpu_weigh.kv", {"rows": sep.join(rows)})
        return text + "".join(self._whole_server_text(w, lang) for w in self.whole_server)

    def per_card_hour(self, w: WholeServerNote) -> float:
        """The part's price a card-hour, as its card figure states it (the same figure in every sentence)."""
        card = next((c for c in self.cards if c.gpu_name == w.gpu_name and c.per_card_hour), None)
        return card.per_card_hour if card is not None and card.per_card_hour else w.per_hour_if_cards / max(w.need, 1)

    def _whole_server_text(self, w: WholeServerNote, lang: str) -> str:
        # cheaper per card: the reason against the part holds only while no smaller instance is offered, so it is
        # said as a condition with the price that would turn it (q42: "get H20 VM quotes before deciding")
        offered = "memo28.gpu_weigh.whole_server.if_offered_stock" if w.stock_only \
            else "prices16.gpu_weigh.whole_server.if_offered"
        verdict = (translate(lang, offered, gpu=w.gpu_name, need=w.need,
                             per_card=f"{self.per_card_hour(w):,.2f}", currency=self.currency)
                   if w.cheaper else translate(lang, "plan.gpu_weigh.whole_server.dearer"))  # fmt: skip
        return render(lang, "plan.gpu_weigh.whole_server", {
            "gpu": w.gpu_name, "gpus": w.gpus, "unit": w.unit_gpus, "need": w.need, "tp": w.tp,
            "cost": f"{w.per_hour_if_cards:,.2f}", "chosen": f"{w.chosen_per_hour:,.2f}", "currency": self.currency,
            "verdict": verdict})  # fmt: skip


def _bought_card(lang: str, resource: str, c: CardFigure, value: str, currency: str) -> str:
    """A card bought, in the limiting resource, at its purchase range with its server share and what that rests on:
    a dated source's grade, a stand-in's, or unknown where only a placeholder no public source gives stands in."""
    basis = c.buy_basis or {"basis": "sourced", "grade": "", "date": ""}
    lo, hi = c.buy or [0.0, 0.0]
    price = f"{lo:,.0f}" if round(lo) == round(hi) else f"{lo:,.0f}–{hi:,.0f}"
    text = translate(lang, f"price36.gpu_weigh.card_{basis['basis']}.{resource}", gpu=c.gpu_name, value=value,
                     price=price, currency=currency, grade=basis.get("grade", ""), date=basis.get("date", ""))
    if basis.get("server_gpus"):  # whose server the share is (review 27, q01/q02): a smaller one costs more a card
        text += translate(lang, "buyprice38_weigh.server_share", n=basis["server_gpus"])
    return text


def render(lang: str, key: str, params: dict[str, Any] | None = None) -> str:
    """``key`` in ``lang``: a ``{"tr": key}`` parameter translated first, numbers as given (result.render's rules
    for the few kinds used here; result.py holds this module's type, so it cannot be imported from here)."""
    out = {k: translate(lang, v["tr"]) if isinstance(v, dict) else f"{v:,}" if isinstance(v, int) else v
           for k, v in (params or {}).items()}
    return translate(lang, key, **out)


def limiting_resource(c: Ctx, k: Candidate, decode_pct: int | None) -> tuple[Resource, int | None]:
    """KV memory when the cache holds fewer requests per replica than the target allows; else decode bandwidth when
    decoding takes most of the GPU time (chat, long answers), prefill compute when prompts do (rule 10).
    ``decode_pct``: decode's share of the setup's GPU time (``token_split.decode_pct``, the one split the memo
    quotes; passed in, as token_split reads the sizing core this module's output type must not depend on)."""
    kv_cap = k.memory.kv_tokens // max(c.prompt_avg + c.output_avg, 1)
    if 0 < kv_cap < k.c_max:
        return "kv_memory", None
    if decode_pct is None:  # no prompt or no answer: the side that exists decides
        return ("decode_bandwidth" if c.output_avg > 0 else "prefill_compute"), None
    return ("decode_bandwidth" if decode_pct >= 50 else "prefill_compute"), decode_pct


def card_value(resource: Resource, k: Candidate) -> float:
    g = k.gpu
    if resource == "decode_bandwidth":
        return g.bandwidth_bytes_per_s / 1e12
    if resource == "prefill_compute":  # the tensor rate the plan's weights run at
        return float(g.fp8_tflops_dense if k.weights.startswith("fp8") and g.fp8_tflops_dense else g.bf16_tflops_dense)
    return g.memory_bytes / GIB


def _whole_server(c: Ctx, k: Candidate, chosen_per_hour: float, conv: float, spare: bool,
                  stock_only: bool = False) -> WholeServerNote | None:
    """A setup rounded up to whole servers only because no cloud instance with fewer of its cards is sourced."""
    lay = k.layout
    if lay is None or not lay.whole_server or lay.basis not in node_shapes.WHOLE_BASES or k.price_mid <= 0:
        return None
    need = lay.load_gpus + (k.tp if spare else 0)
    if need >= lay.total_gpus:
        return None
    per_hour = round(need * k.price_mid * conv, 2)
    return WholeServerNote(gpu_name=k.gpu.name, gpus=lay.total_gpus, unit_gpus=lay.unit_gpus, need=need, tp=k.tp,
                           per_hour_if_cards=per_hour, chosen_per_hour=round(chosen_per_hour, 2),
                           cheaper=per_hour < round(chosen_per_hour, 2),  # as shown: q41 read "13.27 against 13.27"
                           stock_only=stock_only)


def weigh(c: Ctx, chosen: Candidate, others: list[Candidate], conv: float, *, spare: bool,
          on_fleet: bool = False, decode_pct: int | None = None, split_of: Candidate | None = None,
          stock_parts: frozenset[str] | set[str] = frozenset(),
          placeholder: frozenset[str] | set[str] = frozenset()) -> GpuWeighing | None:
    """The chosen setup and the next ones on other GPUs, per card in the limiting resource; None with no other.
    ``split_of``: the setup ``decode_pct`` is the split of, when not the chosen one (``decode_pick``);
    ``stock_parts``: the GPUs ranked as existing stock only (``gpu_choice.Tiers.stock``); ``placeholder``: the GPUs
    whose price here rests on placeholder rows only (``gpu_choice.placeholder_priced``)."""
    if not others:
        return None
    resource, share = limiting_resource(c, split_of or chosen, decode_pct)
    if split_of is not None:  # another setup's split: it decides the resource, no figure beside the plan's own split
        share = None
    per_request = max(c.prompt_avg + c.output_avg, 1)
    cards = [CardFigure(gpu=k.gpu.id, gpu_name=k.gpu.name, value=round(card_value(resource, k), 3),
                        per_card_hour=round(k.price_mid * conv, 2) if k.price_mid > 0 else None, chosen=k is chosen,
                        kv_requests=k.memory.kv_tokens // per_request, tp=k.tp, placeholder=k.gpu.id in placeholder)
             for k in (chosen, *others)]  # fmt: skip
    chosen_per_hour = chosen.price_mid * chosen.total_gpus * conv
    # on the team's own fleet the choice is the cards it has: another part's smaller instance would replace them,
    # not compete with a rental (q39: "6 H20 would be the better choice" beside 16 owned L20, sixth blind review)
    notes = [] if on_fleet else [n for k in others
                                 if (n := _whole_server(c, k, chosen_per_hour, conv, spare, k.gpu.id in stock_parts)) is not None]
    return GpuWeighing(resource=resource, share_pct=share, cards=cards, whole_server=notes, currency=c.currency,
                       share_gpu=split_of.gpu.name if split_of is not None else None)


__all__ = ["GpuWeighing", "card_value", "limiting_resource", "weigh"]
