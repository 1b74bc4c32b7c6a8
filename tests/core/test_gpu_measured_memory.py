"""Usable GPU memory in the catalog equals what a real GPU reported, where we measured one."""

import json
from pathlib import Path

from advisor.catalog import get_gpu

MEASUREMENTS = Path(__file__).resolve().parents[2] / "docs" / "measurements"


def test_h200_usable_memory_is_the_measured_cuda_total():
    report = json.loads((MEASUREMENTS / "2026-12-04-h200-gpu-check.json").read_text())
    totals = report["memory_totals_bytes"]
    gpu = get_gpu("h200-141g")
    # CUDA's total (what vLLM sizes from) is NVML's total less what the driver reserves.
    assert totals["nvml_v2_total"] - totals["nvml_v2_reserved"] == totals["cuda_mem_get_info_total"]
    assert gpu.usable_memory_bytes == totals["cuda_mem_get_info_total"]
    assert gpu.effective_memory_bytes == totals["cuda_mem_get_info_total"]
    # The 98.5 % rule this replaces was 0.9 GiB short of the card.
    assert gpu.effective_memory_bytes - int(gpu.memory_bytes * 0.985) > 0.8 * 1024**3
