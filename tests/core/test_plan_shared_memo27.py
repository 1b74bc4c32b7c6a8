"""What a plan shares between candidates of the same setups (#27): the levels raised to a running maximum
(``sizing.shared_monotone``) and the knee found on them (``sizing.shared_knee``), kept by the very level objects, and
the platform data folder (``advisor.paths``), kept per value of the environment platformdirs reads. Each answer must
be exactly what working it out again gives, and never one made from other levels, other limits or another
environment."""

from __future__ import annotations

from advisor import paths
from advisor.domain.sim import LevelPrediction, Percentiles
from advisor.plan import sizing
from advisor.sim.engine import EngineLimits
from advisor.sim.monotone import monotone_latency
from advisor.sim.predict import find_knee


def _pct(p99: float) -> Percentiles:
    return Percentiles(mean=p99 / 2, p50=p99 / 2, p90=p99 * 0.8, p95=p99 * 0.9, p99=p99)


def _level(c: int, ttft_p99: float, tpot_p99: float, tok_s: float) -> LevelPrediction:
    return LevelPrediction(concurrency=c, requests=32, ttft_ms=_pct(ttft_p99), tpot_ms=_pct(tpot_p99),
                           itl_ms=_pct(tpot_p99), e2e_ms=_pct(ttft_p99 * 10), output_tokens_per_s=tok_s,
                           requests_per_s=tok_s / 200, kv_usage={"mean": 0.2, "max": 0.3},
                           queue={"mean": 0.0, "max": 0.0}, running={"mean": float(c), "max": float(c)},
                           preemptions=0, mean_in_flight=float(c))  # fmt: skip


def _levels() -> tuple[LevelPrediction, ...]:
    # the second level's TTFT p99 lies below the first's (a short sample's noise): the running maximum raises it
    return (_level(1, 300.0, 20.0, 50.0), _level(4, 250.0, 22.0, 190.0), _level(8, 400.0, 30.0, 300.0),
            _level(16, 2000.0, 90.0, 320.0))  # fmt: skip


LIMITS = EngineLimits(kv_blocks=4096, block_size=16, max_num_seqs=256, max_num_batched_tokens=8192)


def test_the_shared_running_maximum_is_the_one_worked_out_again_and_raises_the_noisy_level(cold_plan_caches) -> None:
    sizing.clear_level_cache()
    levels = _levels()
    got = sizing.shared_monotone(levels)
    fresh = monotone_latency(list(levels))
    assert [lv.model_dump() for lv in got] == [lv.model_dump() for lv in fresh]
    assert got[1].ttft_ms.p99 == 300.0  # raised to the level below it
    assert sizing.shared_monotone(levels) is got  # the same levels: the kept answer


def test_equal_levels_that_are_other_objects_are_not_answered_from_the_memo(cold_plan_caches) -> None:
    sizing.clear_level_cache()
    first, second = _levels(), _levels()
    got = sizing.shared_monotone(first)
    assert sizing.shared_monotone(second) is not got  # only the very objects it was made from
    edited = (*first[:3], _level(16, 100.0, 10.0, 320.0))  # one level replaced: another answer
    assert sizing.shared_monotone(edited)[3].ttft_ms.p99 == 400.0


def test_the_knee_is_kept_per_levels_and_limits(cold_plan_caches) -> None:
    sizing.clear_level_cache()
    points = list(_levels())
    knee = sizing.shared_knee(points, LIMITS)
    assert knee.model_dump() == find_knee(points, LIMITS).model_dump()
    assert sizing.shared_knee(points, LIMITS) is knee
    other = EngineLimits(kv_blocks=4096, block_size=16, max_num_seqs=16, max_num_batched_tokens=8192)
    assert sizing.shared_knee(points, other) is not knee  # other limits: worked out again
    assert sizing.shared_knee(points[:3], LIMITS) is not knee


def test_the_memos_are_bounded_and_emptied_with_the_level_cache(cold_plan_caches, monkeypatch) -> None:
    sizing.clear_level_cache()
    monkeypatch.setattr(sizing, "SHARED_MEMO_SIZE", 3)
    kept = [_levels() for _ in range(5)]  # held, so no id is reused while the test runs
    for levels in kept:
        sizing.shared_monotone(levels)
        sizing.shared_knee(list(levels), LIMITS)
    assert 0 < len(sizing._SHARED_MONOTONE) <= 3 and 0 < len(sizing._SHARED_KNEES) <= 3
    sizing.clear_level_cache()
    assert not sizing._SHARED_MONOTONE and not sizing._SHARED_KNEES


def test_the_platform_data_folder_follows_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("ADVISOR_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "one"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    first = paths.data_dir_path()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "two"))
    second = paths.data_dir_path()
    assert first != second
    import platformdirs

    assert second == type(second)(platformdirs.user_data_dir(paths.APP_NAME, appauthor=False))
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "portable"))
    assert paths.data_dir_path() == tmp_path / "portable" / "data"
