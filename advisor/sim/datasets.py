"""Length samples of public benchmark datasets the simulator can draw requests from (resources/workloads/)."""

from __future__ import annotations

from functools import cache

import numpy as np

from advisor.resources import load_json


@cache
def sharegpt_pairs() -> tuple[np.ndarray, np.ndarray]:
    """(prompt tokens, output tokens) of vLLM's ShareGPT benchmark sample, one pair per index (read-only)."""
    data = load_json("workloads", "sharegpt.json")
    prompts = np.asarray(data["prompt_tokens"], dtype=float)
    outputs = np.asarray(data["output_tokens"], dtype=float)
    if prompts.shape != outputs.shape or prompts.size == 0 or prompts.min() < 1 or outputs.min() < 1:
        raise ValueError("resources/workloads/sharegpt.json: prompt_tokens and output_tokens must pair up, all ≥ 1")
    prompts.flags.writeable = outputs.flags.writeable = False
    return prompts, outputs
