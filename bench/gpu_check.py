"""Check our NVML readings against nvidia-smi on a real GPU (needs PyTorch with CUDA).

    python bench/gpu_check.py [--seconds 4] [--period 0.25]

1. idle: utilisation should be low;
2. allocate known amounts with torch: our "memory used" must match nvidia-smi within 1 % and grow by
   about the amount allocated;
3. bf16 matmuls: utilisation should be high; power and the energy counter must agree;
4. sampling overhead: time per sample and share of one CPU core used by the sampler thread;
5. memory totals as each layer reports them (NVML v1 and v2, nvidia-smi, CUDA through torch): the figure
   an engine sizes from is CUDA's total (vLLM: torch.cuda.mem_get_info), which the GPU catalog's
   usable_memory_bytes records;
6. rates the roofline leans on: a bf16 8192^3 matmul's TFLOP/s and a device-to-device copy's bytes/s.

``--json-out FILE`` writes every figure as JSON too (the catalog's usable-memory row cites it).

Prints a table; exits 0 when every check passes, 1 when one fails, and 0 with a message when this
machine has no GPU, no driver or no PyTorch (nothing to check).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.telemetry.nvml import NvmlReader  # noqa: E402
from advisor.telemetry.sampler import GpuSampler  # noqa: E402

MiB = 1024**2
GiB = 1024**3


def smi(gpu: str) -> tuple[float, float, float] | None:
    """(memory.used MiB, memory.total MiB, utilization.gpu %) of one GPU from nvidia-smi."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    out = subprocess.run(
        [exe, "--query-gpu=memory.used,memory.total,utilization.gpu", "--format=csv,noheader,nounits", "-i", gpu],
        capture_output=True, text=True, timeout=20,
    )
    if out.returncode != 0:
        return None
    used, total, util = (float(x) for x in out.stdout.strip().splitlines()[0].split(","))
    return used, total, util


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="length of the idle and load phases")
    ap.add_argument("--period", type=float, default=0.25, help="sampling period")
    ap.add_argument("--json-out", type=Path, default=None, help="also write the figures here as JSON")
    args = ap.parse_args()

    try:
        import torch
    except ImportError:
        print("gpu_check: PyTorch is not installed; nothing to check (pip install torch).")
        return 0
    reader = NvmlReader(include_processes=True)
    probe = reader.open()
    if probe.state != "ok":
        print(f"gpu_check: no GPU to check (NVML state: {probe.state}; {probe.detail})")
        return 0
    if not torch.cuda.is_available():
        print("gpu_check: PyTorch cannot see a CUDA GPU; nothing to check.")
        return 0

    torch.cuda.init()
    props = torch.cuda.get_device_properties(0)
    torch_uuid = str(getattr(props, "uuid", "") or "")
    samples = reader.read()
    target = next((s for s in samples if torch_uuid and s.uuid and torch_uuid in s.uuid), None) or samples[0]
    gpu_id = target.uuid or target.index
    print(f"GPU under test: {target.name} ({gpu_id}), driver {probe.driver_version}, torch {torch.__version__}")

    def ours():
        return next(s for s in reader.read() if s.index == target.index)

    rows: list[tuple[str, str, str, bool]] = []

    def check(name: str, our: str, ref: str, ok: bool) -> None:
        rows.append((name, our, ref, ok))

    # 1. idle (after the CUDA context exists, so memory is steady)
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    sampler = GpuSampler(reader, period_s=args.period)
    sampler.start()
    time.sleep(args.seconds)
    idle = [s for s in sampler.history() if s.index == target.index and s.gpu_util_pct is not None]
    idle_util = statistics.mean(s.gpu_util_pct for s in idle[len(idle) // 3 :]) if idle else float("nan")
    ref = smi(gpu_id)
    check("idle utilisation < 10 %", f"{idle_util:.1f} %", f"{ref[2]:.0f} %" if ref else "n/a", idle_util < 10)

    # 2. memory against nvidia-smi, and growth by what we allocate
    base = ours()
    free = base.memory_free_bytes or 0
    blocks = []
    allocated = 0
    for size in (1 * GiB, 4 * GiB, 16 * GiB):
        if allocated + size > free * 0.5:
            break
        blocks.append(torch.empty(size, dtype=torch.uint8, device="cuda"))
        torch.cuda.synchronize()
        allocated += size
        time.sleep(0.5)
        now = ours()
        ref = smi(gpu_id)
        used_mib = now.memory_used_bytes / MiB
        if ref:
            diff = abs(used_mib - ref[0]) / max(ref[0], 1.0)
            v1_diff = abs(used_mib + (now.memory_reserved_bytes or 0) / MiB - ref[0]) / max(ref[0], 1.0)
            note = "" if diff <= 0.01 or v1_diff > 0.01 else " (nvidia-smi counts reserved as used)"
            check(f"memory used after {allocated // GiB} GiB (within 1 %)", f"{used_mib:.0f} MiB",
                  f"{ref[0]:.0f} MiB{note}", diff <= 0.01 or v1_diff <= 0.01)
        grown = (now.memory_used_bytes - base.memory_used_bytes) / GiB
        check(f"growth = allocated {allocated // GiB} GiB (±2 %)", f"{grown:.2f} GiB", f"{allocated / GiB:.2f} GiB",
              abs(grown * GiB - allocated) <= 0.02 * allocated + 64 * MiB)
    total_ref = smi(gpu_id)
    if total_ref and target.memory_total_bytes:
        total_mib = target.memory_total_bytes / MiB
        check("memory total (within 1 %)", f"{total_mib:.0f} MiB", f"{total_ref[1]:.0f} MiB",
              abs(total_mib - total_ref[1]) / total_ref[1] <= 0.01)
    del blocks
    torch.cuda.empty_cache()

    # 3. load
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    load_start = time.monotonic()
    mark = len(sampler.history())
    ref_util = None
    while time.monotonic() - load_start < args.seconds:
        for _ in range(20):
            a @ b  # noqa: B018 (the work is the point)
        torch.cuda.synchronize()
        if ref_util is None and time.monotonic() - load_start > args.seconds / 2:
            ref = smi(gpu_id)
            ref_util = ref[2] if ref else None
    load = [s for s in sampler.history()[mark:] if s.index == target.index]
    warm = load[len(load) // 4 :]
    util = [s.gpu_util_pct for s in warm if s.gpu_util_pct is not None]
    load_util = statistics.mean(util) if util else float("nan")
    check("utilisation under matmuls > 80 %", f"{load_util:.1f} %", f"{ref_util:.0f} %" if ref_util is not None else "n/a",
          load_util > 80)
    energy = [(s.t_s, s.energy_mj) for s in warm if s.energy_mj is not None]
    power = [s.power_w for s in warm if s.power_w is not None]
    if len(energy) >= 2 and power:
        from_counter = (energy[-1][1] - energy[0][1]) / 1000.0 / (energy[-1][0] - energy[0][0])
        mean_power = statistics.mean(power)
        check("energy counter ≈ mean power (±15 %)", f"{from_counter:.0f} W", f"{mean_power:.0f} W (power reading)",
              abs(from_counter - mean_power) <= 0.15 * mean_power)
    reasons = sorted({r for s in load for r in (s.clock_event_reasons or [])})
    sampler.stop()  # also closes the reader

    # 4. overhead
    stats = sampler.stats()
    timing = NvmlReader(include_processes=False)
    timing.open()
    t0 = time.perf_counter()
    for _ in range(50):
        timing.read()
    bare_ms = (time.perf_counter() - t0) / 50 * 1000
    timing.close()

    totals = memory_totals(torch, gpu_id, target.index)
    rates = matmul_and_copy_rates(torch)

    width = max(len(r[0]) for r in rows)
    print(f"\n{'check'.ljust(width)}  {'ours':>14}  {'nvidia-smi':>24}  result")
    for name, our, ref, ok in rows:
        print(f"{name.ljust(width)}  {our:>14}  {ref:>24}  {'PASS' if ok else 'FAIL'}")
    print(f"\nclock limits seen under load: {', '.join(reasons) or 'none'}")
    print(
        f"sampling overhead: {stats.mean_tick_ms:.2f} ms per sample of all GPUs (max {stats.max_tick_ms:.2f} ms), "
        f"{stats.busy_share * 100:.2f} % of one CPU core at a {args.period} s period; "
        f"{bare_ms:.2f} ms per read without the process list"
    )
    print("\nmemory totals (bytes):")
    for key, value in totals.items():
        print(f"  {key:<34} {value}")
    print(
        f"bf16 {rates['matmul_n']}^3 matmul: {rates['bf16_matmul_tflops']:.0f} TFLOP/s; "
        f"device-to-device copy: {rates['copy_bytes_per_s'] / 1e12:.2f} TB/s (bytes read + written)"
    )
    failed = [r for r in rows if not r[3]]
    if args.json_out is not None:
        report = {
            "gpu": target.name, "driver": probe.driver_version, "torch": torch.__version__,
            "checks": [{"check": n, "ours": o, "nvidia_smi": r, "pass": ok} for n, o, r, ok in rows],
            "memory_totals_bytes": totals, "rates": rates,
            "sampling": {"mean_tick_ms": stats.mean_tick_ms, "max_tick_ms": stats.max_tick_ms,
                         "busy_share": stats.busy_share, "bare_read_ms": bare_ms, "period_s": args.period},
            "clock_limits_under_load": reasons,
        }
        args.json_out.write_text(json.dumps(report, indent=1))
    return 1 if failed else 0


def memory_totals(torch, gpu_id: str, index: int) -> dict[str, int | None]:
    """The GPU's memory total as NVML v1, NVML v2, nvidia-smi and CUDA each report it."""
    import pynvml

    out: dict[str, int | None] = {}
    pynvml.nvmlInit()
    try:
        h = pynvml.nvmlDeviceGetHandleByIndex(int(str(index).split(":")[0]))
        v1 = pynvml.nvmlDeviceGetMemoryInfo(h)
        out["nvml_v1_total"] = int(v1.total)
        try:
            v2 = pynvml.nvmlDeviceGetMemoryInfo(h, version=pynvml.nvmlMemory_v2)
            out["nvml_v2_total"] = int(v2.total)
            out["nvml_v2_reserved"] = int(v2.reserved)
        except Exception:  # an old driver has no v2
            out["nvml_v2_total"] = out["nvml_v2_reserved"] = None
    finally:
        pynvml.nvmlShutdown()
    exe = shutil.which("nvidia-smi")
    if exe:
        res = subprocess.run([exe, "--query-gpu=memory.total,memory.reserved", "--format=csv,noheader,nounits",
                              "-i", gpu_id], capture_output=True, text=True, timeout=20)
        try:
            total_mib, reserved_mib = (int(float(x)) for x in res.stdout.strip().splitlines()[0].split(","))
            out["nvidia_smi_total"] = total_mib * MiB
            out["nvidia_smi_reserved"] = reserved_mib * MiB
        except (ValueError, IndexError):
            out["nvidia_smi_total"] = out["nvidia_smi_reserved"] = None
    free, total = torch.cuda.mem_get_info()
    out["cuda_mem_get_info_total"] = int(total)
    out["cuda_mem_get_info_free"] = int(free)
    out["torch_total_memory"] = int(torch.cuda.get_device_properties(0).total_memory)
    return out


def matmul_and_copy_rates(torch, n: int = 8192, reps: int = 10) -> dict[str, float]:
    """A bf16 n^3 matmul's TFLOP/s (mean of ``reps`` after 3 warm-ups) and a 4 GiB device copy's bytes/s."""
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a @ b  # noqa: B018
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        a @ b  # noqa: B018
    end.record()
    torch.cuda.synchronize()
    matmul_s = start.elapsed_time(end) / 1000 / reps
    src = torch.empty(4 * GiB, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    dst.copy_(src)
    torch.cuda.synchronize()
    start.record()
    for _ in range(reps):
        dst.copy_(src)
    end.record()
    torch.cuda.synchronize()
    copy_s = start.elapsed_time(end) / 1000 / reps
    return {"matmul_n": n, "bf16_matmul_tflops": 2 * n**3 / matmul_s / 1e12, "copy_bytes_per_s": 2 * src.numel() / copy_s}


if __name__ == "__main__":
    sys.exit(main())
