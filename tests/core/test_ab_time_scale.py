"""Issue #26 item 2: an A/B against simulated servers sped up by a time scale reports speeds at the simulated GPU's
real speed and says the scale. Two A/Bs of the same setup at ×0.1 and ×0.4 must then show about the same TPOT
(their raw figures are 4× apart), and each verdict names its scale. Not ×0.05: a scheduling delay of δ ms on a loaded
CI box reads as δ / scale ms at real speed (20 δ at ×0.05, which pushed the ratio past 1.6 under load; 10 δ here)."""

from __future__ import annotations

import pytest

from advisor.bench.ab import AbConfig, run_ab
from advisor.i18n import set_language
from tests.support.sims import ab_specs, running_sims

MODEL = "qwen2.5-7b-instruct"


def _ab_at(scale: float):
    with running_sims(*ab_specs(time_scale=scale, model=MODEL)) as urls:
        config = AbConfig.model_validate({"a": {"url": urls[0], "model": MODEL, "label": "bf16"},
                                          "b": {"url": urls[1], "model": MODEL, "label": "awq-int4"},
                                          "answers": 2, "requests": 4, "concurrency": [1], "max_tokens": 24})
        return run_ab(config, store=False)


def test_a_sped_up_ab_is_shown_at_real_speed_and_says_its_scale():
    set_language("en")
    fast, slower = _ab_at(0.1), _ab_at(0.4)
    for result, scale in ((fast, 0.1), (slower, 0.4)):
        assert result.status == "completed", result
        assert result.a.time_scale == pytest.approx(scale) and result.b.time_scale == pytest.approx(scale)
        assert any(f"×{scale:g} faster than real time" in line for line in result.verdict_lines)
    tpot_fast, tpot_slower = fast.levels[0].a_tpot_p50_ms, slower.levels[0].a_tpot_p50_ms
    assert tpot_fast is not None and tpot_slower is not None
    # at real speed both are the simulated L4's TPOT (tens of ms for a 7B in BF16); raw they would be 4× apart
    assert tpot_fast > 20 and 0.6 < tpot_fast / tpot_slower < 1.6
