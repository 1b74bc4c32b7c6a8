"""One run configuration for every caller (issue #27): ``advisor bench`` and the Benchmark page both turn their
inputs into :class:`RunChoices` and call :func:`advisor.bench.run_config.build_config`; the levels the live view
shows are the runner's own (:func:`run_levels`). Qt-free."""

import argparse

import pytest
from pydantic import ValidationError

from advisor.bench.presets import get_preset
from advisor.bench.run_config import (
    RunChoices,
    auto_client_processes,
    build_config,
    run_levels,
    soak_window_s,
)
from advisor.bench.runner import Runner
from advisor.cli import bench as bench_cli
from advisor.domain.bench import ScheduleConfig

URL = "http://127.0.0.1:8000"


def cli_config(*flags):
    parser = argparse.ArgumentParser()
    bench_cli.register(parser.add_subparsers())
    return bench_cli.build_config(parser.parse_args(["bench", "--url", URL, "--model", "m", *flags]))


def test_the_cli_and_plain_choices_give_the_same_config():
    # what the page sends for a ramp to 64 with an SLO, and the same run typed on the command line
    prompt, output = get_preset("short_chat").scaled(512, 128)
    page = build_config(RunChoices(url=URL, model="m", shape="ramp", requests=32, max_concurrency=64,
                                   client_processes=1, prompt_tokens=prompt, output_tokens=output, ignore_eos=True,
                                   slo_ttft_ms=1500, slo_percentile=99))
    cli = cli_config("--ramp", "--max-concurrency", "64", "--requests", "32", "--slo-ttft-ms", "1500",
                     "--slo-percentile", "99", "--ignore-eos", "--prompt-tokens", "lognormal:512:384",
                     "--max-tokens", "lognormal:128:80")
    assert page.schedule == cli.schedule and page.slo == cli.slo and page.endpoint == cli.endpoint
    assert page.workload.ignore_eos and cli.workload.ignore_eos
    assert (page.workload.prompt_tokens.mean, page.workload.prompt_tokens.std) == (512, 384)
    assert (cli.workload.prompt_tokens.mean, cli.workload.prompt_tokens.std) == (512, 384)


def test_each_shape_from_the_command_line():
    assert cli_config("--single").schedule.kind == "single"
    fixed = cli_config("--concurrency", "1,4,8", "--requests", "40", "--warmup", "0").schedule
    assert (fixed.kind, fixed.concurrency, fixed.requests, fixed.warmup_requests) == ("fixed", [1, 4, 8], 40, 0)
    ramp = cli_config("--ramp", "2,6,12", "--past-knee", "--no-stagger", "--min-step-s", "5").schedule
    assert (ramp.concurrency, ramp.continue_past_knee, ramp.stagger, ramp.min_step_s) == ([2, 6, 12], True, False, 5)
    soak = cli_config("--soak", "30m", "--soak-concurrency", "16").schedule
    assert (soak.kind, soak.concurrency, soak.duration_s, soak.window_s) == ("soak", [16], 1800.0, 60.0)
    rate = cli_config("--rate", "2.5", "--burstiness", "0.5", "--max-concurrency", "32").schedule
    assert (rate.kind, rate.rate, rate.burstiness, rate.max_concurrency) == ("rate", 2.5, 0.5, 32)
    # the command line's default is one client process (the page's default is "auto")
    assert cli_config("--concurrency", "128").schedule.client_processes == 1


def test_the_soak_window_is_a_tenth_of_the_soak_between_5_and_60_s():
    assert [soak_window_s(d) for d in (20, 300, 7200)] == [5.0, 30.0, 60.0]
    with pytest.raises(ValueError, match="duration"):
        build_config(RunChoices(url=URL, model="m", shape="soak", levels=(8,)))


def test_auto_client_processes_follow_the_runs_highest_level(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 16)
    assert build_config(RunChoices(url=URL, model="m", shape="ramp", max_concurrency=256)).schedule.client_processes == 2
    assert build_config(RunChoices(url=URL, model="m", shape="ramp", max_concurrency=32)).schedule.client_processes == 1
    assert build_config(RunChoices(url=URL, model="m", shape="fixed", levels=(64,))).schedule.client_processes == 2
    assert build_config(RunChoices(url=URL, model="m", shape="rate", rate=1.0, max_concurrency=64)
                        ).schedule.client_processes == 2  # fmt: skip
    assert build_config(RunChoices(url=URL, model="m", shape="single")).schedule.client_processes == 1
    # set by hand, the count is kept
    assert build_config(RunChoices(url=URL, model="m", levels=(256,), client_processes=3)).schedule.client_processes == 3
    assert auto_client_processes(256, cpus=2) == 1 and auto_client_processes(63, cpus=16) == 1


def test_bad_choices_name_their_field():
    with pytest.raises(ValidationError, match="url"):
        build_config(RunChoices(url="127.0.0.1:8000", model="m"))
    with pytest.raises(ValidationError, match="concurrency"):
        build_config(RunChoices(url=URL, model="m", levels=(0,)))


@pytest.mark.parametrize(("schedule", "levels"), [
    ({"kind": "single"}, [1]),
    ({"kind": "ramp", "max_concurrency": 64}, [1, 2, 4, 8, 16, 32, 64]),
    ({"kind": "ramp", "max_concurrency": 100}, [1, 2, 4, 8, 16, 32, 64]),
    ({"kind": "ramp", "concurrency": [2, 6, 12]}, [2, 6, 12]),  # a ramp's own levels (the page's copy ignored them)
    ({"kind": "fixed", "concurrency": [4, 8]}, [4, 8]),
    ({"kind": "soak", "concurrency": [16], "duration_s": 60}, [16]),
    ({"kind": "rate", "rate": 3, "max_concurrency": 48}, [48]),
])
def test_the_levels_are_the_runners_own(schedule, levels):
    sch = ScheduleConfig.model_validate(schedule)
    assert run_levels(sch) == levels
    config = build_config(RunChoices(url=URL, model="m"))
    assert Runner(config.model_copy(update={"schedule": sch}))._levels() == levels


def test_a_presets_shape_moves_with_its_means():
    prompt, output = get_preset("short_chat").scaled(512, 512)  # short chat: 256 ± 192 (≤ 2048), 256 ± 160 (≤ 1024)
    assert (prompt.mean, prompt.std, prompt.min, prompt.max) == (512, 384, 8, 4096)
    assert (output.mean, output.std, output.min, output.max) == (512, 320, 1, 2048)
    small, _ = get_preset("rag").scaled(100, 10)  # a ceiling is never below its mean
    assert small.max >= small.mean
