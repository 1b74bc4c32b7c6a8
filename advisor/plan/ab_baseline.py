"""Where the BF16 baseline of the quantized-vs-BF16 check runs when BF16 weights do not fit the plan's own layout
(s34-fleet36, blind review 25, q33: "The BF16 A/B step needs a BF16 baseline that does not fit on TP2 4090Ds
('30.5 GiB a GPU'). Say it must run on 4 cards or on a rented GPU."). The step names the smallest tensor-parallel
group of the same card that holds the BF16 weights (the memory check the layout search uses, ``sizing._memory``),
or a rented GPU with room for them where no group of up to 8 does."""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.sizing import TP_DEGREES

GIB = 1024**3
KEY = "fleet36.next.quant_ab_where"


def where(c: Any, ch: Any) -> dict[str, Any] | None:
    """{"plan_tp", "value" (BF16 GiB a GPU at the plan's TP), "target", "place"} where BF16 weights do not fit the
    plan's layout; None where they fit (the baseline runs on the plan's own cards) or the plan is BF16 already."""
    if ch is None or ch.weights in ("bf16", "fp16"):
        return None
    engine = sizing._engine(c, ch.gpu)
    mem = sizing._memory(c, ch.gpu, "bf16", "bf16", ch.tp, engine)
    if mem.weights_fit:
        return None
    fits = next((t for t in TP_DEGREES if t > ch.tp and c.model.num_attention_heads % t == 0
                 and sizing._memory(c, ch.gpu, "bf16", "bf16", t, engine).weights_fit), None)
    place: dict[str, Any] = ({"tr": "fleet36.ab.on_cards", "tp": fits, "gpu": ch.gpu.name} if fits is not None
                             else {"tr": "fleet36.ab.rented"})
    return {"plan_tp": ch.tp, "value": round(mem.weights_bytes / GIB, 1),
            "target": round(mem.engine_budget_bytes / GIB, 1), "place": place}


__all__ = ["KEY", "where"]
