"""Memory outside PyTorch's allocator per GPU (cuBLAS workspaces, NCCL communicators, custom all-reduce buffers), by
tensor-parallel degree.

One GPU: the engine setting ``non_torch_bytes`` (0.25 GiB by default). vLLM logs 0.13-0.16 GiB on an H100 (llm-d's
DEBUG profiles, vllm-project/vllm#12126), 0.03 on an RTX 4060 (#13882), 0.35 on an RTX 3090 (#10517).

Tensor parallelism over NVLink adds the communicators' buffers on every GPU: NCCL's peer-to-peer and NVLink SHARP
buffers and the custom all-reduce's IPC buffers (vLLM and SGLang each open a PyNccl communicator beside PyTorch's
own). What the logs show:

- vLLM, 2 × H100 SXM: non-torch memory 0.55 GiB per rank against 0.13-0.14 for the same runs on one GPU (llm-d's
  profiles of Llama-3.3-70B FP8 at TP 2, tests/fixtures/reference/kv_available_logs.json).
- SGLang, 8 × H200: its distributed start-up alone takes 1.96-2.01 GB per rank ("Init torch distributed ends. mem
  usage=2.01 GB", sgl-project/sglang#11716), before any cuBLAS workspace.

0.28 GiB more per added GPU fits both (TP 2: 0.53 modelled, 0.55 logged; TP 8: 2.21 modelled, 2.01 + 0.13-0.16 of
one GPU's = 2.14-2.17 logged). Over PCIe no growth is logged: 0.25 GiB per rank on 2 × RTX 4090 (vLLM, #13061),
0.20 on 23.58 GiB (RTX 3090-class) ranks (#14447), and SGLang's distributed start-up 0.13 GB on 4 × 24 GB-class
cards (sgl-project/sglang#4127) and 0.39 GB on 4 × sm_120 cards (#40558): the one-GPU setting stands. A setting the user chose is their per-GPU figure
and is kept whatever the TP degree.
"""

from __future__ import annotations

from advisor.domain.gpu import GiB
from advisor.domain.sizing import EngineSettings

NVLINK_BYTES_PER_ADDED_GPU = int(0.28 * GiB)  # fitted to vLLM's TP 2 and SGLang's TP 8 logs above


def non_torch_bytes(engine: EngineSettings, tp: int, nvlink: bool) -> int:
    """Per-GPU memory outside PyTorch's allocator at this TP degree: the engine setting, plus the NVLink
    communicators' buffers for each GPU beyond the first unless the user set the figure themselves."""
    if "non_torch_bytes" in engine.model_fields_set or not nvlink or tp <= 1:
        return engine.non_torch_bytes
    return engine.non_torch_bytes + NVLINK_BYTES_PER_ADDED_GPU * (tp - 1)
