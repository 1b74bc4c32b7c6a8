"""The cooling overhead (PUE) of servers the team owns on its own premises (ninth blind review, issue #25: a PUE of
1.5–2 was put on a desk-side RTX 4090 D box, an overhead only a data centre's or a server room's cooling has).

- a box in the office: the office's own air-conditioning takes its heat (``office_pue``, 1.0–1.2);
- a server in the team's own server room, or a multi-GPU server where the answers do not say which: a room cooled
  for it (``server_room_pue``, 1.5–2).

Colocation prices per kW include the cooling, so no PUE is put on them (``forms._own``).

The draw when idle (issue #25, pages20: "an idle box draws half its full load" was put on an office workstation,
whose idle GPUs with a model loaded draw 20–50 W of a 425–450 W card):

- a box in the office: ``office_idle_draw`` (about 10–25 % of its full load, grade C);
- a server (server room or colocation): ``server_idle_draw`` (half its full load, the stated assumption kept)."""

from __future__ import annotations

from advisor.plan import site_words
from advisor.plan.data import factor_range
from advisor.plan.office_purchase import WORKSTATION_MAX_GPUS


def in_office(c, gpus: int) -> bool:
    """``gpus`` GPUs on the team's premises stand in the office itself (not a server room), by ``site_words``."""
    site = site_words.owned_site(site_words.answered_reach(c), fleet=c.answers.current_fleet is not None)
    return site == site_words.OFFICE or (site == site_words.EITHER and gpus <= WORKSTATION_MAX_GPUS)


def premises_pue(c, gpus: int) -> tuple[float, float]:
    """(low, high) PUE of ``gpus`` GPUs on the team's premises, by where they stand (``site_words``)."""
    return factor_range("office_pue" if in_office(c, gpus) else "server_room_pue")


def idle_draw(c, gpus: int, *, premises: bool) -> tuple[float, float]:
    """(low, high) draw of the machines when idle, as a share of their full load: an office box's idle GPUs and
    desktop parts draw far less than a server's fans, CPUs and memory."""
    return factor_range("office_idle_draw" if premises and in_office(c, gpus) else "server_idle_draw")


def average_draw(c, gpus: int, *, premises: bool, utilisation: float) -> tuple[float, float]:
    """(low, high) average draw around the clock as a share of full load: busy ``utilisation`` of the hours, idle
    the rest."""
    lo, hi = idle_draw(c, gpus, premises=premises)
    u = utilisation
    return lo + (1 - lo) * u, hi + (1 - hi) * u
