"""CPU cost of vLLM's API server per request and per streamed token, measured on this machine.

Why: under a burst of hundreds of streams, published runs are 25–60 % slower than the GPU work alone
(docs/predictor-accuracy.md). vLLM's API server is one Python process (one GIL) that admits every request
(HTTP, validation, chat template, tokenization, hand-off to the engine core) and renders every streamed token
(detokenization, JSON, SSE, HTTP write). This script measures those two costs as the API server's own CPU time
(utime + stime of the process, all its threads, from /proc), which does not depend on the GPU: the engine core
is a separate process, pinned to another core, serving a tiny random-weight model.

    c_request = CPU(burst of N, 1 output token) / N
    c_token   = (CPU(burst of N, 1 + K output tokens) − CPU(burst of N, 1 output token)) / (N · K)

Run (needs the vLLM CPU venv that tools/interop/run.sh builds in .interop/vllm; any Python re-runs it there):
    .venv/bin/python bench/frontend_costs.py [--requests 256] [--tokens 32] [--repeat 3] [--api completions]
Prints one line per burst and the derived costs; nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VLLM_PYTHON = ROOT / ".interop" / "vllm" / "bin" / "python"

try:  # the vLLM venv has both (and vLLM); `make bench` runs every script with .venv's Python
    import aiohttp
    import psutil
except ModuleNotFoundError:
    if VLLM_PYTHON.exists() and Path(sys.prefix).resolve() != VLLM_PYTHON.parents[1].resolve():
        os.execv(str(VLLM_PYTHON), [str(VLLM_PYTHON), __file__, *sys.argv[1:]])
    print("skipped: needs vLLM's CPU build in .interop/vllm (tools/interop/run.sh builds it)")
    raise SystemExit(0) from None

MODEL = ROOT / ".interop" / "tiny-hf"
WORDS = "the quick brown fox jumps over the lazy dog while a small server answers every request".split()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def prompt(i: int, words: int) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(words))


async def one(session: aiohttp.ClientSession, url: str, api: str, i: int, words: int, tokens: int) -> tuple[float, int]:
    body: dict = {"model": "tiny", "max_tokens": tokens, "stream": True, "ignore_eos": True, "temperature": 0.0}
    if api == "chat":
        body["messages"] = [{"role": "user", "content": prompt(i, words)}]
        path = "/v1/chat/completions"
    else:
        body["prompt"] = prompt(i, words)
        path = "/v1/completions"
    start = time.perf_counter()
    ttft = -1.0
    chunks = 0
    async with session.post(url + path, json=body) as resp:
        resp.raise_for_status()
        async for line in resp.content:
            if not line.startswith(b"data: ") or line.startswith(b"data: [DONE]"):
                continue
            data = json.loads(line[6:])
            if data.get("choices"):
                chunks += 1
                if ttft < 0:
                    ttft = time.perf_counter() - start
    return ttft, chunks


async def burst(url: str, api: str, n: int, words: int, tokens: int) -> tuple[float, list[float], int]:
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=600)) as session:
        started = time.perf_counter()
        results = await asyncio.gather(*(one(session, url, api, i, words, tokens) for i in range(n)))
        wall = time.perf_counter() - started
    return wall, [r[0] for r in results], sum(r[1] for r in results)


def start_server(port: int, max_seqs: int) -> subprocess.Popen:
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE="2", VLLM_CPU_OMP_THREADS_BIND="nobind", OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(MODEL), "--served-model-name", "tiny",
           "--host", "127.0.0.1", "--port", str(port), "--dtype", "bfloat16", "--max-model-len", "2048",
           "--max-num-seqs", str(max_seqs), "--gpu-memory-utilization", "0.5"]  # fmt: skip
    log = open(ROOT / ".interop" / "frontend-costs-server.log", "w")  # noqa: SIM115 (lives as long as the server)
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT, env=env)


def wait_ready(url: str, proc: subprocess.Popen, timeout: float = 300.0) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the vLLM server exited ({proc.returncode}); see .interop/frontend-costs-server.log")
        try:
            with urllib.request.urlopen(url + "/v1/models", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(1.0)
    raise SystemExit("the vLLM server did not come up in time")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=256)
    ap.add_argument("--tokens", type=int, default=32, help="extra output tokens of the long burst (K)")
    ap.add_argument("--words", type=int, default=100, help="prompt length in words")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--api", choices=["chat", "completions"], default="chat")
    args = ap.parse_args()
    if psutil.cpu_count() < 2:
        raise SystemExit("needs two cores: the API server on one, the engine core and this client on the other")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_server(port, max_seqs=max(args.requests, 8))
    try:
        wait_ready(url, proc)
        api_pid = proc.pid
        children = psutil.Process(api_pid).children(recursive=True)
        psutil.Process(api_pid).cpu_affinity([0])  # the API server alone on core 0 (its threads follow)
        for child in children:
            child.cpu_affinity([1])  # the engine core (and any helper) on core 1
        psutil.Process().cpu_affinity([1])  # this client too
        version = subprocess.run([sys.executable, "-c", "import vllm; print(vllm.__version__)"], capture_output=True,
                                 text=True).stdout.strip()  # fmt: skip
        print(f"vLLM {version} API server pid {api_pid} on core 0; engine core {[c.pid for c in children]} on core 1")
        asyncio.run(burst(url, args.api, 16, args.words, 4))  # warm up
        per: dict[int, list[float]] = {1: [], 1 + args.tokens: []}
        for _ in range(args.repeat):
            for tokens in per:
                before = cpu_seconds(api_pid)
                wall, ttfts, chunks = asyncio.run(burst(url, args.api, args.requests, args.words, tokens))
                time.sleep(0.5)  # let the server finish its bookkeeping
                used = cpu_seconds(api_pid) - before
                per[tokens].append(used)
                print(f"{args.api}: {args.requests} requests × {tokens} tokens: API-server CPU {used:.3f} s "
                      f"({used / args.requests * 1000:.2f} ms/request), wall {wall:.2f} s, TTFT median "
                      f"{statistics.median(ttfts) * 1000:.0f} ms, {chunks} chunks")  # fmt: skip
        short, long = statistics.median(per[1]), statistics.median(per[1 + args.tokens])
        c_request = short / args.requests
        c_token = (long - short) / (args.requests * args.tokens)
        print(f"\nper request (admission + one token + end): {c_request * 1000:.2f} ms of API-server CPU")
        print(f"per further streamed token: {c_token * 1e6:.0f} µs of API-server CPU "
              f"(a ceiling of {1 / c_token:,.0f} tokens/s for one API server)")  # fmt: skip
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
