"""Tensor parallelism over a vendor's own full-mesh link (Huawei HCCS on an Atlas 800 910B node, AMD Infinity Fabric on
an MI300X baseboard) is priced at that link's published bandwidth, not as PCIe (twelfth blind review, q08: a 6k-token
prefill of a 72B model "looks far too pessimistic for HCCS-linked Atlas 800 cards")."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.plan.single_card import over_pcie
from advisor.sizing.links import fast_link, link_kind
from advisor.sizing.roofline import ALLREDUCE_BUS_SHARE, StepCostModel, allreduce_params, tp_efficiency

ASCEND, MI300X = get_gpu("ascend-910b"), get_gpu("mi300x")


def _as_pcie(gpu):
    """The same part with its mesh taken away: what the speed model priced it as before."""
    return gpu.model_copy(update={"interconnect": "pcie", "interconnect_bytes_per_s": None})


def test_the_catalog_carries_each_mesh_links_published_bandwidth_with_its_source():
    # deployment-facts GPU table: HCCS 56 GB/s per peer x 7 = 392 GB/s (grade C); Infinity Fabric 7 x 128 = 896 GB/s
    assert (ASCEND.interconnect, ASCEND.interconnect_bytes_per_s) == ("hccs", 392e9)
    assert "HCCS" in ASCEND.source and "392" in ASCEND.source
    assert (MI300X.interconnect, MI300X.interconnect_bytes_per_s) == ("infinity-fabric", 896e9)


def test_link_kinds():
    assert link_kind(get_gpu("h100-sxm-80g")) == "nvlink"
    assert link_kind(ASCEND) == link_kind(MI300X) == "mesh"
    assert link_kind(get_gpu("rtx-4090")) == "pcie" and not fast_link(get_gpu("rtx-4090"))
    # a mesh whose bandwidth nobody published stays PCIe: an unknown link is never priced as a fast one
    assert link_kind(ASCEND.model_copy(update={"interconnect_bytes_per_s": None})) == "pcie"


@pytest.mark.parametrize("gpu", [ASCEND, MI300X], ids=["910b", "mi300x"])
def test_the_all_reduce_runs_at_the_mesh_bandwidth(gpu):
    model = get_model("qwen2.5-72b-instruct")
    _, _, _, bus = allreduce_params(model, gpu, 8)
    assert bus == pytest.approx(gpu.interconnect_bytes_per_s / 2 * ALLREDUCE_BUS_SHARE["mesh"])
    _, _, _, pcie_bus = allreduce_params(model, _as_pcie(gpu), 8)
    assert bus > 3 * pcie_bus  # 392 / 896 GB/s against PCIe's 64
    assert tp_efficiency(gpu, 8, SpeedFactors()) > tp_efficiency(_as_pcie(gpu), 8, SpeedFactors())


@pytest.mark.parametrize("gpu", [ASCEND, MI300X], ids=["910b", "mi300x"])
@pytest.mark.parametrize("tp", [4, 8])
def test_tensor_parallel_over_the_mesh_is_predicted_faster_than_over_pcie(gpu, tp):
    model = get_model("qwen2.5-72b-instruct")
    mesh = StepCostModel.build(model, "bf16", "bf16", gpu, tp, SpeedFactors())
    pcie = StepCostModel.build(model, "bf16", "bf16", _as_pcie(gpu), tp, SpeedFactors())
    assert mesh.prefill_seconds(6000) < pcie.prefill_seconds(6000)
    assert mesh.decode_step_seconds(32, 4000) < pcie.decode_step_seconds(32, 4000)
    # one TP group of the mesh part is no PCIe split in the plan's ranking either
    assert not over_pcie(type("K", (), {"tp": tp, "gpu": gpu})())
