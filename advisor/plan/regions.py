"""Which offshore region serves a list of markets: the plan's region choice and the rules that name the overseas
node both read it here (it lived in the engine, which the rules could only reach through a hidden import)."""

from __future__ import annotations

EU = {"EU", "DE", "FR", "NL", "GB", "UK", "IT", "ES", "SE", "PL", "IE", "BE", "AT", "DK", "FI", "PT", "CH", "NO"}
US_EAST = {"CA", "BR", "MX", "AR", "CO", "CL"}
JAPAN = {"JP", "KR"}
HK = {"HK", "TW", "MO"}
# the plan regions with a node on the mainland (a two-node plan included): the mainland's laws bind it
MAINLAND_REGIONS = ("mainland", "mainland_plus_overseas")


def market_region(markets: list[str]) -> str:
    """The offshore region closest to most of the listed markets (US → us_west; EU → europe; SEA → singapore)."""
    if not markets:
        return "us_west"
    votes: dict[str, int] = {}
    for m in markets:
        r = (
            "us_west" if m in ("US", "global") else "europe" if m in EU else "us_east" if m in US_EAST
            else "japan" if m in JAPAN else "hong_kong" if m in HK else "singapore"
        )  # fmt: skip
        votes[r] = votes.get(r, 0) + 1
    return sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
