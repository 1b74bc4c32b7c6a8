"""Which built-in price rows a plan may be costed on, and the regional uplift sourced for its region.

- **Eligibility.** A service in a regulated sector (a bank, an insurer, a hospital) or with data marked highly
  sensitive is never costed on a GPU marketplace (RunPod's listed rates, AutoDL-style rentals: machines of many
  owners, no data-centre contract a regulator's outsourcing review accepts). It is the batch rule's own test
  (``batch_policy.sensitive_data``, which keeps such a job off marketplace consumer cards), widened to the regulated
  sector itself: a bank's outsourcing duties hold whatever its prompts contain. The user's own quotes always stay.
- **Uplift by region.** A region with data-centre rows of its own (AWS's Tokyo and Europe list prices for the
  L40S, L4 and A10G; Google Cloud's L4 in Singapore, Tokyo and Europe) is costed on them; US rows stand in for a part a region has no row for, times an uplift sourced
  for that region: Hong Kong and Singapore the Asia-Pacific survey's 20-40 %; Tokyo and Europe their own (AWS's list price
  there over N. Virginia's for the same instance). A region with no sourced uplift gets none (none is invented).
- **A premium line's host.** A Hong Kong or Singapore node on a CN2 GIA or three-network line is sold by hosts that
  price the server with the line; no such host's row is sourced, so the plan says its GPU price is a stand-in and
  names the kind of host to ask.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.plan import batch_policy
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, factor
from advisor.plan.memo_text15 import price_offer
from advisor.plan.price_basis import PriceBasis
from advisor.plan.result import NextStep, PriceRow, RegionUplift
from advisor.plan.site_words import answered_reach

MARKETPLACE = "marketplace"
# the factor in prices.json sourced for each region priced from US rows (a region not named has none)
UPLIFT_FACTOR = {"hong_kong": "apac_uplift", "singapore": "apac_uplift", "japan": "japan_uplift",
                 "europe": "europe_uplift"}
PROXY_REGIONS = ("hong_kong", "singapore")
PREMIUM_OFFSHORE_LINES = ("cn2_gia", "three_network")


def regulated_sector(c: Ctx) -> bool:
    """A sector under a regulator's outsourcing and data rules (the batch policy's list: finance, health)."""
    return any(s in c.sector for s in batch_policy.SENSITIVE_SECTORS)


def own_site(c: Ctx) -> bool:
    """An internal tool reached on the office LAN or the organisation's private network: it runs on a box the team
    owns in its office or server room, so its data never goes to a marketplace host."""
    return c.internal_only and answered_reach(c) in ("lan", "private_network")


def marketplace_allowed(c: Ctx) -> bool:
    """A GPU marketplace's rows may cost this plan: neither a regulated sector nor sensitive data; or a tool on the
    team's own site, where the rental rows only rank the cards (q01's contracts on an office 4090 D; q03's
    hospital, whose GeForce card is set aside by name for the patients' records, not left unpriced)."""
    return own_site(c) or not (regulated_sector(c) or batch_policy.sensitive_data(c))


def eligible_book(book: PriceBook, c: Ctx) -> PriceBook:
    """``book`` without the rows this plan may not be costed on (the user's quotes always stay): a regulated or
    sensitive plan loses the marketplace rows; any other keeps, for a part a marketplace lists, the marketplace's
    rows of that kind only, so every part is compared tier for tier (a hyperscaler's L40S beside RunPod's L4 turned
    2 L40S into 4 L4): the hyperscaler's row is the one a regulated plan is costed on instead."""
    if not marketplace_allowed(c):
        return PriceBook(tuple(r for r in book.rows if r.user_quote or r.provider != MARKETPLACE))
    # by region too (s18-prices): a hyperscaler's Tokyo or Frankfurt list price is what that region is costed on,
    # not a US marketplace rate times an uplift; it is set aside only beside a marketplace row of its own region
    listed = {(r.gpu, r.kind, r.region) for r in book.rows if r.provider == MARKETPLACE and not r.user_quote}
    return PriceBook(tuple(r for r in book.rows if r.user_quote or r.provider != "hyperscaler"
                           or (r.gpu, r.kind, r.region) not in listed))  # fmt: skip


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


def basis(c: Ctx, full: PriceBook, used: list[PriceRow], region: str, line: str) -> PriceBasis | None:
    """What the memo says about the rows the plan was costed on; None when there is nothing to say. ``full``: the
    book before eligibility (to name the marketplace offers left out for the GPU the plan uses)."""
    out = PriceBasis()
    gpus = {r.gpu for r in used if r.kind in ("on_demand", "reserved", "spot")}
    if not marketplace_allowed(c):
        out.marketplace_left_out = sorted({r.id for r in full.rows if r.provider == MARKETPLACE and r.gpu in gpus
                                           and not r.user_quote})  # fmt: skip
        rows = [r for r in full.rows if r.id in set(out.marketplace_left_out)]
        # the offer's name without its bracketed detail ("RunPod L40S"), once however many rows it has
        out.offers = {lang: list(dict.fromkeys(re.split(r"\s*[(（]", price_offer(r, lang))[0] for r in rows))
                      for lang in ("en", "zh_CN")}
        out.why = "sector" if regulated_sector(c) else "sensitive"
        out.sector = c.sector
    cloud = [r for r in used if r.kind in ("on_demand", "reserved")]
    if region in PROXY_REGIONS and line in PREMIUM_OFFSHORE_LINES and cloud and not any(r.user_quote for r in cloud):
        out.proxy_line, out.proxy_region = line, region
    if not out.marketplace_left_out and out.proxy_line is None:
        return None
    return out


def quote_steps(steps: list[NextStep], pb: PriceBasis | None) -> list[NextStep]:
    """The "replace the built-in prices with quotes" step names the host to ask where the GPU price is a stand-in
    for a premium line's host (q22/q43: "replace RunPod pricing with quotes from HK hosts that sell those lines")."""
    if pb is None or pb.proxy_line is None or pb.proxy_region is None:
        return steps
    params = {"region": {"tr": f"plan.region.{pb.proxy_region}"}, "line": {"tr": f"prices16.line.{pb.proxy_line}"}}
    return [s.model_copy(update={"key": "prices16.next.quotes_line_host", "params": params}) if s.id == "quotes"
            else s for s in steps]  # fmt: skip


RENTED_FORMS = ("cloud", "cloud_then_bare_metal")


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


__all__ = ["MARKETPLACE", "basis", "eligible_book", "fewer_cards_first", "marketplace_allowed", "quote_steps", "region_uplift",
           "regulated_sector", "uplift_factor"]
