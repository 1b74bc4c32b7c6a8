"""A candidate's note of why its GPU was chosen over another setup, carried to the other layouts of that GPU.

The rules that choose a GPU over the one ranked first (``decode_pick``: more per unit of price for a decode-heavy
load; ``latency_pick``: one card per replica where a PCIe pair's failover TPOT nears the target) note the setup they
passed over on the chosen candidate (``<note>:<gpu id>:<tp>:<weights>:…``); the layout search may then keep another
layout of the same GPU, which must say the same."""

from __future__ import annotations

from advisor.plan.sizing import Candidate


def carry(note: str, src: Candidate, dst: Candidate) -> None:
    """``dst``, another layout of ``src``'s GPU, keeps ``src``'s ``note`` (and no older one of its own)."""
    if dst is not src and dst.gpu.id == src.gpu.id:
        dst.notes[:] = [n for n in dst.notes if not n.startswith(note + ":")] + \
            [n for n in src.notes if n.startswith(note + ":")]
