"""The placement finding's recommended one-more-replica clause, read by the headline (``headline25``), the layout line
(``layout_headline40``) and the first-token choice (``ttft_choice42``); kept apart from ``headline25`` so the modules
that headline25 reaches can read it without an import cycle (test_layering)."""

from __future__ import annotations

from typing import Any

PLACEMENT = "sizing.placement"
MORE_KEYS = ("consist25.placement.one_more", "consist25.spare_pair.recommend", "gpu28.placement.one_more_server",
             "own44.placement.next_step")  # the last: page 1's next step (``layout_headline40``, review 36)


def more(params: Any) -> dict[str, Any] | None:
    """The recommended one-more-replica clause in a placement finding's params (nested ``{"tr": …}`` phrases)."""
    if isinstance(params, dict):
        if params.get("tr") in MORE_KEYS:
            return params
        for v in params.values():
            got = more(v)
            if got is not None:
                return got
    return None


__all__ = ["MORE_KEYS", "PLACEMENT", "more"]
