"""Workload presets: valid benchmark workloads, translated names, and a faithful predictor workload."""

from __future__ import annotations

import pytest

from advisor import i18n
from advisor.bench.presets import DEFAULT_PRESET, PRESETS, get_preset, sim_workload
from advisor.bench.workload import PromptSource


def test_every_preset_is_a_valid_workload_with_both_languages():
    assert DEFAULT_PRESET in PRESETS
    assert {"short_chat", "rag", "code", "summarise"} <= set(PRESETS)
    for preset in PRESETS.values():
        w = preset.workload()
        assert w.prompt_tokens.mean == preset.prompt_mean and w.output_tokens.mean == preset.output_mean
        en = (preset.name, preset.description)
        i18n.set_language("zh_CN")
        zh = (preset.name, preset.description)
        i18n.set_language("en")
        assert en[0] != zh[0] and str(preset.prompt_mean) in zh[1]


def test_rag_prompts_are_longer_than_chat_and_code_answers_shortest():
    assert PRESETS["rag"].prompt_mean > 4 * PRESETS["short_chat"].prompt_mean
    assert PRESETS["code"].output_mean < PRESETS["short_chat"].output_mean


def test_sampled_lengths_follow_the_preset():
    preset = get_preset("rag")
    src = PromptSource(preset.workload(seed=3))
    prompts = [next(src) for _ in range(300)]
    mean_out = sum(p.max_tokens for p in prompts) / len(prompts)
    assert 0.7 * preset.output_mean < mean_out < 1.3 * preset.output_mean
    assert all(p.max_tokens <= preset.output_max for p in prompts)


def test_sim_workload_keeps_mean_and_spread():
    w = get_preset("code").workload()
    s = sim_workload(w)
    assert s.prompt.mean == 1536 and s.output.mean == 96
    assert s.prompt.kind == "lognormal" and s.prompt.cv == pytest.approx(0.5)
    assert s.output.upper <= 512


def test_unknown_preset_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown workload preset 'chatty'"):
        get_preset("chatty")
