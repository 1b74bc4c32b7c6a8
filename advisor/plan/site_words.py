"""Where the team's own servers stand, in one word for the whole memo (issue 25, s15-polish).

q08 (16 Ascend cards the team runs, staff reaching the service over its private network) read "自有机房" in the
headline, "办公室或机房" in the cost table's site row and in the on-premises finding. The answers decide the word:

- the service is used on the office LAN: the box stands in the office (``office``);
- it is reached over a private network or VPN (as answered, not assumed), or it runs on a fleet the team already
  owns: a server room, reached from several places (``server_room``);
- otherwise the answers do not say: "office or server room" (``either``).
"""

from __future__ import annotations

from typing import Any

OFFICE, SERVER_ROOM, EITHER = "office", "server_room", "either"


def owned_site(reach_answered: str | None, *, fleet: bool) -> str:
    """``office``, ``server_room`` or ``either`` for servers the team owns (``reach_answered``: the answer to who can
    reach the service, None when not given)."""
    if reach_answered == "lan":
        return OFFICE
    if reach_answered == "private_network" or fleet:
        return SERVER_ROOM
    return EITHER


def answered_reach(ctx: Any) -> str | None:
    """The context's reach when the answers gave it (an assumed one says nothing about the site)."""
    if any(a.field == "reach" for a in ctx.assumptions):
        return None
    return str(ctx.reach) if ctx.reach else None


def result_site(result: Any) -> str:
    """The site of a plan's own servers, from its answers and its owning cost (a fleet the team runs)."""
    owned = result.costs.owned if result.costs is not None else None
    return owned_site((result.answers or {}).get("reach"), fleet=bool(owned is not None and owned.fleet_gpus))


# the cost table's "owned servers stand" row and a finding's "{site}" phrase, by site
SITE_ROW = {OFFICE: "memo.text15.site.office_lan", SERVER_ROOM: "memo.polish15.site.server_room",
            EITHER: "plan.forms.site.office"}  # fmt: skip
SITE_PHRASE = {OFFICE: "plan.polish15.site.office", SERVER_ROOM: "plan.polish15.site.server_room",
               EITHER: "plan.forms.site.office"}  # fmt: skip
