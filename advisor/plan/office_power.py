"""The cooling overhead (PUE) of servers the team owns on its own premises (ninth blind review, issue #25: a PUE of
1.5–2 was put on a desk-side RTX 4090 D box, an overhead only a data centre's or a server room's cooling has).

- a box in the office: the office's own air-conditioning takes its heat (``office_pue``, 1.0–1.2);
- a server in the team's own server room, or a multi-GPU server where the answers do not say which: a room cooled
  for it (``server_room_pue``, 1.5–2).

Colocation prices per kW include the cooling, so no PUE is put on them (``forms._own``)."""

from __future__ import annotations

from advisor.plan import site_words
from advisor.plan.data import factor_range
from advisor.plan.office_purchase import WORKSTATION_MAX_GPUS


def premises_pue(c, gpus: int) -> tuple[float, float]:
    """(low, high) PUE of ``gpus`` GPUs on the team's premises, by where they stand (``site_words``)."""
    site = site_words.owned_site(site_words.answered_reach(c), fleet=c.answers.current_fleet is not None)
    in_office = site == site_words.OFFICE or (site == site_words.EITHER and gpus <= WORKSTATION_MAX_GPUS)
    return factor_range("office_pue" if in_office else "server_room_pue")
