"""The power price an owned server is costed on, said as a stand-in where it is another region's (issue 25, blind
review 20b, q17: "the electricity price is a generic 0.06–0.12 USD/kWh from a US TCO tool rather than a campus
tariff").

The built-in price list has two power rows: a US TCO tool's, and mainland China's national average business rate
(s35-ownpower37, blind review 26, q01/q02/q17: "a US rate standing in for a Shanghai tariff"; China Briefing 2024 and
Statista 2024-03, grade C). A mainland node is costed on the mainland row, said as a national average and not the
local tariff, which is asked for; a plan elsewhere on the US row, said as standing in for the team's own tariff and
asked for (unknown stays unknown: no local tariff is invented here); and, for a server in the team's own room, that
the room's circuit and cooling must take the server's full draw (review 20b: "whether the room ... can take a 2 kW
server").
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate


def power_rows(book: Any, gpu: str, region: str | None) -> list[Any]:
    """The power rows a plan's owned server is costed on: the team's quote where it gave one; a mainland node's the
    mainland row (s35-ownpower37, blind review 26, q01/q02/q17: "a US rate standing in for a Shanghai tariff"; a
    national average business rate, closer than a US tool's but still not the local tariff, so still asked for);
    every other region's the rows of no mainland region (the US tool's), never the mainland average."""
    rows = book.find(gpu, "power")
    quoted = [r for r in rows if r.user_quote]
    if quoted:
        return quoted
    if region == "mainland":
        return [r for r in rows if r.region == "mainland"] or [r for r in rows if r.region != "mainland"]
    return [r for r in rows if r.region != "mainland"]


def national(rows: list[Any], region: str) -> list[Any]:
    """The rows when they are the mainland's national average, not the team's local tariff; [] otherwise."""
    return [r for r in rows if region == "mainland" and r.region == "mainland" and not r.user_quote]


# the cost findings' power source names the US tool's price beside the server factor; a mainland node is costed on
# the mainland row, so there the source says the factor and that row (its Chinese form in source_titles_zh.json)
US_POWER_TITLES = (
    "Node power 10.2 kW per 8×H100 node (server factor 1.6–1.9 × GPU TDP); power $0.06–0.12/kWh (v2-pseo-ai TCO tool)",
    "Power inputs the power row uses: $0.06–0.12/kWh and a server's draw at 1.6–1.9 × its GPUs' TDP (v2-pseo-ai TCO "
    "tool, worked there on an 8×H100 node)",
)
MAINLAND_POWER_TITLE = ("Power inputs the power row uses: a server's draw at 1.6–1.9 × its GPUs' TDP (v2-pseo-ai TCO "
                        "tool, worked there on an 8×H100 node) and mainland China's national average business rate, "
                        "$0.088–0.09/kWh (China Briefing 2024, Statista 2024-03), not a local tariff")


MAINLAND_POWER_URL = "https://www.china-briefing.com/news/china-electricity-prices-industrial-consumers/"


def national_sources(findings: list[Any], book: Any, gpu: str | None, region: str) -> list[Any]:
    """``findings`` with the US power price in their power source replaced by the mainland row's where the plan's
    power is costed on it (``national``); unchanged elsewhere."""
    if book is None or gpu is None or not national(power_rows(book, gpu, region), region):
        return findings
    from advisor.plan.result import Source

    out = []
    for x in findings:
        if not any(s.title in US_POWER_TITLES for s in x.sources):
            out.append(x)
            continue
        sources = [Source(title=MAINLAND_POWER_TITLE, url=MAINLAND_POWER_URL, date="2024", grade="C")
                   if s.title in US_POWER_TITLES else s for s in x.sources]
        out.append(x.model_copy(update={"sources": sources}))
    return out


def foreign_rows(rows: list[Any], region: str) -> list[Any]:
    """The power rows when none is the team's quote or of the plan's region (``us`` matches ``us_west``); [] when the
    price is the team's own or local."""
    if not rows or any(r.user_quote or (r.region and region.startswith(r.region)) for r in rows):
        return []
    return rows


def stand_in(book: Any, gpu: str, region: str, conv: float, money: Any, *, kw: float | None,
             servers: int = 1) -> dict[str, Any] | None:
    """The clause saying the power price stands in for the team's tariff ({"tr", "price", "local", "room"}), with
    the room check where ``kw`` (a server in the team's own room) is given; None where the price is the team's own
    or local. ``conv``: USD to the answers' currency; ``money(v)``: an amount in it, to two decimals. ``kw``: all
    ``servers``' draw together, said as theirs, with each one's (q03: "'the server's 4.2 kW' is the two servers
    together, not one", blind reviews 21 and 22)."""
    found = power_rows(book, gpu, region) if book is not None else []
    average = national(found, region)
    rows = average or foreign_rows(found, region)
    usd = [r for r in rows if r.unit == "USD/kWh"]
    if not usd:
        return None
    lo, hi = min(r.low for r in usd), max(r.high for r in usd)
    room: dict[str, Any] | str = ""
    if kw and servers > 1:
        room = {"tr": "arith33.power.room_servers", "servers": servers, "kw": f"{kw:.1f}", "each": f"{kw / servers:.1f}"}
    elif kw:
        room = {"tr": "campus32.power.room", "kw": f"{kw:.1f}"}
    local = "" if conv == 1 else {"tr": "campus32.power.local", "low": money(lo * conv), "high": money(hi * conv)}
    key = "ownpower37.power.national" if average else "campus32.power.stand_in"
    return {"tr": key, "price": f"{lo:g}–{hi:g} USD/kWh", "local": local, "room": room}


def offer_note(row: Any, region: str, lang: str, rows: list[Any] | None = None) -> str:
    """Beside the power row's name in the memo's price table where it is another region's tariff: whose it is and
    that it stands in for the plan's region (s33-tokens33, blind review 21, q01/q02 zh: "a USD tariff from a US TCO
    tool, not a Shanghai / Shenzhen commercial rate"); the mainland row said as the national average it is (s35).
    "" for another row, the team's own quote or a local tariff. ``rows``: the plan's price rows (a two-node plan's
    US row stands in for the overseas node alone where the mainland node has its own)."""
    split = region == "mainland_plus_overseas"  # a two-node plan: its mainland node on the mainland row (s35)
    if getattr(row, "kind", None) == "power" and region and national([row], "mainland" if split else region):
        return translate(lang, "ownpower37.power.national_note")
    if getattr(row, "kind", None) != "power" or row.region != "us" or not region or not foreign_rows([row], region):
        return ""  # another row's origin is not guessed at
    if split:  # a two-node plan: each node's own tariff; the overseas node's alone where the mainland one has its row
        if any(getattr(r, "kind", None) == "power" and national([r], "mainland") for r in rows or []):
            return translate(lang, "ownpower37.power.stand_in_overseas")
        return translate(lang, "tokens33.power.stand_in_nodes")
    where = translate(lang, f"plan.region.{region}")
    return "" if where == f"plan.region.{region}" else translate(lang, "tokens33.power.stand_in", region=where)


__all__ = ["MAINLAND_POWER_TITLE", "US_POWER_TITLES", "foreign_rows", "national", "national_sources", "offer_note", "power_rows", "stand_in"]
