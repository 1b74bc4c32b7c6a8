"""Which built-in price rows a plan may be costed on, and the regional uplift sourced for its region.

- **Eligibility.** A service in a regulated sector (a bank, an insurer, a hospital), with data marked highly
  sensitive, or whose prompts carry anyone's personal information (customers', employees') is never costed on a GPU
  marketplace (RunPod's listed rates, AutoDL-style rentals: machines of many owners, no data-centre contract a
  regulator's outsourcing review or a data-processing agreement accepts). It is the batch rule's own test
  (``batch_policy.sensitive_data``, which keeps such a job off marketplace consumer cards), widened to the regulated
  sector itself (a bank's outsourcing duties hold whatever its prompts contain) and to personal information of any
  business (s18-rows, seventh blind review: q34's Singapore node, q38's German HR assistant on RunPod rows). Only an
  office box on the LAN keeps them: there the rental rows only rank the cards it stands beside (q01/q02/q33). The
  user's own quotes always stay.
- **A stand-in price.** A node in a region with no sourced row of its own is priced from another region's rows
  times an uplift; the memo says the figure is a stand-in, and asking a data centre there for a quote comes first
  among the next steps (q34, q43: "never present it as the price").
- **Uplift by region.** A region with data-centre rows of its own (AWS's Tokyo and Europe list prices for the
  L40S, L4 and A10G; Google Cloud's L4 in Singapore, Tokyo and Europe) is costed on them; US rows stand in for a part a region has no row for, times an uplift sourced
  for that region: AWS's list price there over N. Virginia's for the same instance (Hong Kong the g5's ×1.54, Singapore
  the p4d's and p4de's ×1.20, Tokyo and Europe the g6e's; s30-prices30 replaced Hong Kong's and Singapore's survey
  range of 20-40 %, whose source gave no instance). A region with no sourced uplift gets none (none is invented).
- **A premium line's host.** A Hong Kong or Singapore node on a CN2 GIA or three-network line is sold by hosts that
  price the server with the line; no such host's row is sourced, so the plan says its GPU price is a stand-in and
  names the kind of host to ask.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.plan import batch_policy
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, factor, gpus_by_id, prices
from advisor.plan.memo_text15 import price_offer
from advisor.plan.price_basis import NotOffered, PriceBasis
from advisor.plan.result import NextStep, PriceRow, RegionUplift
from advisor.plan.site_words import answered_reach

MARKETPLACE = "marketplace"
# the factor in prices.json sourced for each region priced from US rows (a region not named has none)
UPLIFT_FACTOR = {"hong_kong": "hong_kong_uplift", "singapore": "singapore_uplift", "japan": "japan_uplift",
                 "europe": "europe_uplift"}
PROXY_REGIONS = ("hong_kong", "singapore")
PREMIUM_OFFSHORE_LINES = ("cn2_gia", "three_network")
RENTED_FORMS = ("cloud", "cloud_then_bare_metal")


def regulated_sector(c: Ctx) -> bool:
    """A sector under a regulator's outsourcing and data rules (the batch policy's list: finance, health)."""
    return any(s in c.sector for s in batch_policy.SENSITIVE_SECTORS)


def office_desk(c: Ctx) -> bool:
    """An internal tool reached on the office LAN: it runs on a box in the office, so its data never goes to a
    marketplace host and the rental rows only rank the cards (q01's contracts on an office 4090 D). A server room
    reached over a private network is not one: its plan may well rent, and a rent costed on marketplace rows is no
    price for personal data (q38: "the rent comparison uses marketplace rows unsuitable for employee data")."""
    return c.internal_only and answered_reach(c) == "lan"


def personal_data(c: Ctx) -> bool:
    """The prompts carry personal information (customers', employees'), as answered."""
    return c.personal_info or (c.sensitive_subjects or 0) > 0


def left_out_why(c: Ctx) -> str | None:
    """Why the marketplace rows may not cost this plan (``sector``, ``sensitive``, ``personal``), None when they
    may: never on an office box on the LAN."""
    if office_desk(c):
        return None
    if regulated_sector(c):
        return "sector"
    if batch_policy.sensitive_data(c):
        return "sensitive"
    return "personal" if personal_data(c) else None


def marketplace_allowed(c: Ctx) -> bool:
    """A GPU marketplace's rows may cost this plan: no regulated sector, no sensitive or personal data; or an office
    box on the LAN, where the rental rows only rank the cards."""
    return left_out_why(c) is None


def eligible_book(book: PriceBook, c: Ctx) -> PriceBook:
    """``book`` without the rows this plan may not be costed on (the user's quotes always stay): a regulated or
    sensitive plan loses the marketplace rows; any other keeps, for a part a marketplace lists, the marketplace's
    rows of that kind only, so every part is compared tier for tier (a hyperscaler's L40S beside RunPod's L4 turned
    2 L40S into 4 L4): the hyperscaler's row is the one a regulated plan is costed on instead."""
    if not marketplace_allowed(c):
        ranks = _ranks_consumer_cards(c)
        return PriceBook(tuple(r for r in book.rows if r.user_quote or r.provider != MARKETPLACE
                               or (ranks and _consumer(r.gpu))))  # fmt: skip
    # by region too (s18-prices): a hyperscaler's Tokyo or Frankfurt list price is what that region is costed on,
    # not a US marketplace rate times an uplift; it is set aside only beside a marketplace row of its own region
    listed = {(r.gpu, r.kind, r.region) for r in book.rows if r.provider == MARKETPLACE and not r.user_quote}
    return PriceBook(tuple(r for r in book.rows if r.user_quote or r.provider != "hyperscaler"
                           or (r.gpu, r.kind, r.region) not in listed))  # fmt: skip


def _ranks_consumer_cards(c: Ctx) -> bool:
    """An internal tool in the team's own server room keeps a consumer card's marketplace rows, to rank it and set
    it aside by name (q03: "set aside for the patients' records", not left unpriced): a server room holds a
    data-centre part (``gpu_grade``), so the card is never rented at that price."""
    return c.internal_only and answered_reach(c) in ("lan", "private_network")


def _consumer(gpu_id: str) -> bool:
    g = gpus_by_id().get(gpu_id)
    return g is not None and g.market == "consumer"


def uplift_factor(region: str) -> dict[str, Any] | None:
    """The uplift sourced for ``region`` (a prices.json factor), or None where US rows apply as they are."""
    name = UPLIFT_FACTOR.get(region)
    return factor(name) if name else None


def region_uplift(region: str) -> RegionUplift | None:
    up = uplift_factor(region)
    if up is None:
        return None
    return RegionUplift(low=float(up["low"]), high=float(up["high"]), source=str(up["source"]), date=str(up["date"]),
                        grade=str(up["grade"]))  # fmt: skip


def _offer_names(rows: list[PriceRow]) -> dict[str, list[str]]:
    """The offers' names without their bracketed detail ("RunPod L40S"), once however many rows each has."""
    return {lang: list(dict.fromkeys(re.split(r"\s*[(（]", price_offer(r, lang))[0] for r in rows))
            for lang in ("en", "zh_CN")}


def basis(c: Ctx, full: PriceBook, used: list[PriceRow], region: str, line: str,
          node_region: str | None = None, rented: dict[str, int] | None = None) -> PriceBasis | None:
    """What the memo says about the rows the plan was costed on; None when there is nothing to say. ``full``: the
    book before eligibility (to name the marketplace offers left out for the GPU the plan uses); ``node_region``:
    the overseas node's region of a mainland + overseas plan; ``rented``: GPUs the plan rents, by GPU id (a row that
    is the per-GPU share of an instance sold only whole is said so where fewer are rented)."""
    out = PriceBasis()
    gpus = {r.gpu for r in used if r.kind in ("on_demand", "reserved", "spot")}
    if not marketplace_allowed(c):
        out.marketplace_left_out = sorted({r.id for r in full.rows if r.provider == MARKETPLACE and r.gpu in gpus
                                           and not r.user_quote})  # fmt: skip
    if out.marketplace_left_out:
        out.offers = _offer_names([r for r in full.rows if r.id in set(out.marketplace_left_out)])
        out.why = left_out_why(c)  # type: ignore[assignment]
        out.sector = c.sector
    cloud = [r for r in used if r.kind in ("on_demand", "reserved")]
    if region in PROXY_REGIONS and line in PREMIUM_OFFSHORE_LINES and cloud and not any(r.user_quote for r in cloud):
        out.proxy_line, out.proxy_region = line, region
    where = node_region or region
    offshore = [r for r in cloud if r.region != "mainland"]  # the overseas node's rows on a two-node plan
    if uplift_factor(where) is not None and offshore and not any(r.user_quote or r.region == where for r in offshore):
        out.stand_in_region = where  # no row of the region's own: another region's rows times its uplift (s18-rows)
        out.stand_in_offers = _offer_names(offshore)
        out.stand_in_marketplace = all(r.provider == MARKETPLACE for r in offshore)
    if out.stand_in:
        out.not_offered = not_offered(offshore, where)
    _per_gpu_share(out, cloud, rented or {})
    if not out.marketplace_left_out and not out.stand_in and out.share_instance_gpus is None:
        return None
    return out


def not_offered(rows: list[PriceRow], region: str) -> list[NotOffered]:
    """The rows standing in for ``region`` whose provider sells no such instance there (prices.json
    ``not_offered``, sourced): said so, never passed off as that provider's price there."""
    out: list[NotOffered] = []
    ids = {r.id for r in rows if not r.user_quote}
    for n in prices().get("not_offered", {}).get("rows", []):
        if region in n["regions"] and ids & set(n["row_ids"]):
            g = gpus_by_id().get(n["gpu"])
            out.append(NotOffered(provider=n["provider"], instance=n["instance"], gpu_name=g.name if g else n["gpu"],
                                  region=region, url=n.get("url", ""), date=n["date"], grade=n["grade"]))  # fmt: skip
    return out


def _per_gpu_share(out: PriceBasis, cloud: list[PriceRow], rented: dict[str, int]) -> None:
    """The cloud rows that are the per-GPU share of an instance sold only whole (``whole_instance_gpus``), where the
    plan rents fewer of that GPU than the instance holds: the price is a share, not an offer of that many GPUs."""
    shares = [r for r in cloud if r.whole_instance_gpus and 0 < rented.get(r.gpu, 0) < r.whole_instance_gpus]
    if shares:
        out.share_offers = _offer_names(shares)
        out.share_instance_gpus = max(int(r.whole_instance_gpus or 0) for r in shares)
        out.share_gpus = min(rented[r.gpu] for r in shares)


def quote_steps(steps: list[NextStep], pb: PriceBasis | None, form: str = "cloud",
                export_gpus: str = "", planned: str = "", users_data: bool = False) -> list[NextStep]:
    """Where the GPU price is a stand-in, the "replace the built-in prices with quotes" step names the host to ask: a
    premium line's host (q22/q43: "replace RunPod pricing with quotes from HK hosts that sell those lines"), else a
    data centre in the node's region (q34: "use datacenter cloud quotes" for the Singapore node). It comes first
    where the plan rents at that price; an owned box only compares with it. ``export_gpus``: the names of the GPUs
    the Hong Kong export finding flags (``duties19_rules.hk_export_gpus``); a Hong Kong quote also asks for written
    confirmation that they can be supplied (s19-duties19b: a quote for cards the provider cannot bring in is void).
    ``planned``: the parts to quote ("2 × NVIDIA L40S 48GB"), named in the step; ``users_data``: a public service or
    one handling personal data, whose quote goes to data-centre clouds, not a GPU marketplace, where the price standing
    in is a marketplace's (blind review 34, q20: "a consumer chat app processing personal data should not run on
    marketplace hosts")."""
    if pb is None or not pb.stand_in:
        return steps
    asked = pb.proxy_region if pb.proxy_line is not None and pb.proxy_region is not None else pb.stand_in_region
    supply: Any = {"tr": "duties19b.next.confirm_supply", "gpus": export_gpus} if (
        export_gpus and asked == "hong_kong") else ""
    if pb.proxy_line is not None and pb.proxy_region is not None:
        key = "prices16.next.quotes_line_host"
        region = {"tr": f"plan.region.{pb.proxy_region}"}
        # the rows standing in, named as the cost basis names them (a marketplace's or a cloud's, times the uplift),
        # or the region's own cloud rows (no uplift) that do not sell the line: never "US cloud rows" for RunPod (q22)
        basis: dict[str, Any] = ({"tr": "quotes18_ui18.basis.uplift", "kind": {
            "tr": "rows18.basis.kind." + ("marketplace" if pb.stand_in_marketplace else "cloud")}}
            if pb.stand_in_region else {"tr": "quotes18_ui18.basis.own", "region": region})
        params: dict[str, Any] = {"region": region, "line": {"tr": f"prices16.line.{pb.proxy_line}"}, "basis": basis,
                                  "supply": supply}
    else:
        dc = bool(pb.stand_in_marketplace and users_data)
        key, params = "rows18.next.quotes_region", {"region": {"tr": f"plan.region.{pb.stand_in_region}"},
                                                    "supply": supply,
                                                    "who": {"tr": "pb43.quote.who_dc" if dc else "pb43.quote.who"},
                                                    "not_market": {"tr": "pb43.quote.not_market"} if dc else "",
                                                    "planned": {"tr": "pb43.quote.parts", "parts": planned} if planned
                                                    else {"tr": "pb43.quote.planned"}}
    steps = [s.model_copy(update={"key": key, "params": params}) if s.id == "quotes" else s for s in steps]
    if form not in RENTED_FORMS:
        return steps
    return [s for s in steps if s.id == "quotes"] + [s for s in steps if s.id != "quotes"]


def fewer_cards_first(steps: list[NextStep], choice: Any, form: str) -> list[NextStep]:
    """A rented plan whose part was set aside only because it is priced as whole servers, though its cards alone
    would cost less than the chosen setup: asking for an instance with fewer of them comes first (q42: "get H20 VM
    quotes before deciding")."""
    weighing = getattr(choice, "weighing", None)
    if weighing is None or form not in RENTED_FORMS:
        return steps
    notes = [w for w in weighing.whole_server if w.cheaper]
    if not notes:
        return steps
    w = min(notes, key=lambda n: n.per_hour_if_cards)
    first = NextStep(id="quote_fewer_cards", key="prices16.next.quote_fewer_cards", params={
        "gpu": w.gpu_name, "need": w.need, "per_card": f"{weighing.per_card_hour(w):,.2f}",
        "cost": f"{w.per_hour_if_cards:,.2f}", "chosen": f"{w.chosen_per_hour:,.2f}", "currency": weighing.currency})
    return [first, *steps]


__all__ = ["MARKETPLACE", "basis", "eligible_book", "fewer_cards_first", "left_out_why", "marketplace_allowed", "not_offered",
           "office_desk", "personal_data", "quote_steps", "region_uplift", "regulated_sector", "uplift_factor"]
