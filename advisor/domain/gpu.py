"""GPU specifications: the catalog rows in ``resources/gpus/catalog.json`` and user-added GPUs."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.i18n import tr  # a custom GPU's problems read in the UI language

GiB = 1024**3
Confidence = Literal["high", "medium", "low"]
Interconnect = Literal["nvlink", "pcie", "infinity-fabric", "hccs", "none"]


class GpuSpec(BaseModel):
    """One accelerator model. Throughput figures are *dense* (not 2:4-sparse) tensor-core peaks."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # Infinity TFLOPS is no GPU

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", description="what --gpu accepts, e.g. h100-sxm-80g")
    name: str = Field(min_length=1)
    name_zh: str | None = Field(
        None, min_length=1, description="the name Chinese text uses where it differs (华为昇腾 910B 64GB); None: the name"
    )
    vendor: str = "NVIDIA"
    architecture: str = ""
    market: Literal["datacenter", "workstation", "consumer"] = "datacenter"
    china_market: bool = Field(False, description="export-compliant part sold in mainland China (H20, L20, 4090D …)")
    memory_bytes: int = Field(gt=0, description="on-board memory as built (e.g. 80 GiB for an 80 GB HBM card)")
    usable_memory_bytes: int | None = Field(
        None, gt=0, description="what CUDA reports as total (torch.cuda.mem_get_info) when known; ECC/driver reserve excluded"
    )
    usable_memory_source: str | None = Field(
        None, min_length=1, description="where usable_memory_bytes comes from: a measurement file or a published report's URL"
    )
    usable_memory_reading: Literal["cuda_total", "driver_total"] = Field(
        "cuda_total",
        description="what the figure is: the CUDA/HIP/NPU runtime's total (driver reserve already out) or, where no "
        "runtime total was published, the driver tool's total (nvidia-smi/NVML, rocm-smi), which still includes the "
        "driver's reserve of about 0.5-0.7 GiB",
    )
    memory_type: str = ""
    bandwidth_bytes_per_s: float = Field(gt=0)
    bf16_tflops_dense: float = Field(gt=0, description="dense BF16 tensor TFLOP/s (FP32 accumulate)")
    fp16_tflops_dense: float | None = Field(None, gt=0)
    fp8_tflops_dense: float | None = Field(None, gt=0, description="None when the GPU has no FP8 tensor cores")
    int8_tops_dense: float | None = Field(None, gt=0)
    int4_tops_dense: float | None = Field(None, gt=0)
    tdp_watts: float = Field(gt=0)
    interconnect: Interconnect = "pcie"
    interconnect_bytes_per_s: float | None = Field(None, gt=0, description="per-GPU bidirectional link bandwidth")
    max_gpus_per_node: int = Field(8, ge=1, le=16)
    release_year: int | None = Field(None, ge=2012, le=2030)
    source: str = Field(min_length=1, description="where the figures come from (datasheet URL or document)")
    confidence: Confidence = "high"
    notes: str = ""
    user_defined: bool = False

    @field_validator("memory_bytes")
    @classmethod
    def _sane_memory(cls, v: int) -> int:
        if v < 1 * GiB:
            raise ValueError(tr("domain.gpu.memory_small", value=v, example=24 * GiB))
        if v > 2048 * GiB:
            raise ValueError(tr("domain.gpu.memory_large"))
        return v

    @field_validator("bandwidth_bytes_per_s")
    @classmethod
    def _sane_bandwidth(cls, v: float) -> float:
        if not 1e10 <= v <= 1e14:
            raise ValueError(tr("domain.gpu.bandwidth_range"))
        return v

    @model_validator(mode="after")
    def _usable_not_above_physical(self) -> GpuSpec:
        if self.usable_memory_bytes is not None and self.usable_memory_bytes > self.memory_bytes:
            raise ValueError(tr("domain.gpu.usable_above_memory"))
        return self

    @property
    def usable_memory_basis(self) -> Literal["measured", "published", "driver_total", "estimate"]:
        """Where ``effective_memory_bytes`` comes from: our own measurement (a file under docs/measurements),
        a published report of the CUDA total (a URL in ``usable_memory_source``), a published driver-tool total
        (nvidia-smi's Total, which still includes the driver's reserve: CUDA sees a little less), or the 98.5 %
        estimate."""
        if self.usable_memory_bytes is None:
            return "estimate"
        if (self.usable_memory_source or "").startswith("docs/measurements/"):
            return "measured"
        return "published" if self.usable_memory_reading == "cuda_total" else "driver_total"

    @property
    def effective_memory_bytes(self) -> int:
        """Total memory an engine sees: the measured CUDA total when known, else 98.5 % of the built memory
        (driver/ECC reserve; e.g. an 80 GiB H100 reports about 79.1 GiB)."""
        if self.usable_memory_bytes is not None:
            return self.usable_memory_bytes
        return int(self.memory_bytes * 0.985)

    def tflops_for(self, compute_dtype: str) -> float:
        """Dense tensor throughput for the dtype the matmuls run in (falls back to BF16 when unsupported)."""
        table = {
            "bf16": self.bf16_tflops_dense,
            "fp16": self.fp16_tflops_dense or self.bf16_tflops_dense,
            "fp8": self.fp8_tflops_dense,
            "int8": self.int8_tops_dense,
            "int4": self.int4_tops_dense,
        }
        value = table.get(compute_dtype)
        return value if value else self.bf16_tflops_dense
