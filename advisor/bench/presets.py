"""Workload presets a newcomer recognises, as prompt/output token-length distributions.

Each preset fills the benchmark's :class:`~advisor.domain.bench.WorkloadConfig` lengths and, for the measured
vs predicted curve, the predictor's :class:`~advisor.domain.sim.SimWorkload`. Names and descriptions are
translated (``bench.preset.<id>.name`` / ``.desc`` in ``resources/i18n/*/benchpage.json``).

The shapes follow public traces and common benchmark settings: short chat ≈ ShareGPT-like turns (prompts a
few hundred tokens, answers about as long); RAG stuffs several retrieved chunks into the prompt (thousands of
tokens) for a short answer; code completion sends a file prefix and gets a few lines back; batch summarisation
sends a long document and asks for a paragraph or two.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.domain.bench import LengthDist, WorkloadConfig
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.i18n import tr


@dataclass(frozen=True)
class WorkloadPreset:
    id: str
    prompt_mean: int
    prompt_std: int
    prompt_max: int
    output_mean: int
    output_std: int
    output_max: int

    @property
    def name(self) -> str:
        return tr(f"bench.preset.{self.id}.name")

    @property
    def description(self) -> str:
        return tr(f"bench.preset.{self.id}.desc", prompt=self.prompt_mean, output=self.output_mean)

    def prompt_dist(self) -> LengthDist:
        return LengthDist(
            kind="lognormal", mean=self.prompt_mean, std=self.prompt_std, min=8, max=self.prompt_max
        )

    def output_dist(self) -> LengthDist:
        return LengthDist(
            kind="lognormal", mean=self.output_mean, std=self.output_std, min=1, max=self.output_max
        )

    def scaled(self, prompt_mean: int, output_mean: int) -> tuple[LengthDist, LengthDist]:
        """The preset's prompt and answer distributions moved to other means, keeping their shape: the spread
        and the ceiling grow in proportion (a ceiling never below its mean)."""
        pm, om = prompt_mean, output_mean
        prompt = LengthDist(kind="lognormal", mean=pm, std=pm * self.prompt_std / self.prompt_mean, min=8,
                            max=max(pm, self.prompt_max * pm // self.prompt_mean))
        output = LengthDist(kind="lognormal", mean=om, std=om * self.output_std / self.output_mean, min=1,
                            max=max(om, self.output_max * om // self.output_mean))
        return prompt, output

    def workload(self, **overrides: object) -> WorkloadConfig:
        return WorkloadConfig(prompt_tokens=self.prompt_dist(), output_tokens=self.output_dist(), **overrides)


PRESETS: dict[str, WorkloadPreset] = {
    p.id: p
    for p in (
        WorkloadPreset("short_chat", 256, 192, 2048, 256, 160, 1024),
        WorkloadPreset("rag", 4096, 1024, 12_000, 256, 128, 1024),
        WorkloadPreset("code", 1536, 768, 8192, 96, 64, 512),
        WorkloadPreset("summarise", 3072, 1024, 16_000, 512, 192, 2048),
    )
}
DEFAULT_PRESET = "short_chat"


def get_preset(preset_id: str) -> WorkloadPreset:
    try:
        return PRESETS[preset_id]
    except KeyError:
        raise ValueError(f"unknown workload preset {preset_id!r} (known: {', '.join(PRESETS)})") from None


def sim_workload(workload: WorkloadConfig, seed: int = 0) -> SimWorkload:
    """The predictor's workload for a benchmark workload (same means and spread), for the predicted curve."""

    def conv(d: LengthDist) -> LengthDistribution:
        mean = max(1, round(d.mean))
        lo = min(d.min, mean)
        hi = max(mean, min(d.max, 10_000_000))
        kind = d.kind if d.kind in ("fixed", "uniform", "normal", "lognormal") else "fixed"
        cv = min(5.0, d.std / mean) if d.std else (0.0 if kind == "fixed" else 0.5)
        return LengthDistribution(kind=kind, mean=mean, min=lo, max=hi, cv=cv)

    return SimWorkload(prompt=conv(workload.prompt_tokens), output=conv(workload.output_tokens), seed=seed)
