"""Capacity of the simulated server: concurrent streams and chunks per second it serves on this machine
before its own timing slips.

The server runs in its own process (`advisor sim`, as users run it); a raw-socket asyncio client in this
process keeps N streams open (each finished request is replaced at once). Per level it prints the chunks/s
delivered, and the server's timing slip: how late each engine step ended versus its deadline (step slip)
and how late each content chunk was handed to the transport versus the engine's schedule (chunk slip).
The model is a small one on a fast GPU so that steps are short (~4 ms) and the chunk rate is high.

Run: `.venv/bin/python bench/sim_server_capacity.py [--levels 8,32,128,256] [--seconds 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL = "qwen2.5-3b"
SLIP_BUDGET_MS = 5.0  # a p99 chunk slip above this is "its own timing slips"


async def stream_once(host: str, port: int, body: bytes) -> int:
    reader, writer = await asyncio.open_connection(host, port)
    head = (
        f"POST /v1/completions HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    writer.write(head + body)
    chunks = 0
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            chunks += data.count(b"data: {")
            if b"data: [DONE]" in data:
                break
    finally:
        writer.close()
    return chunks


async def level(host: str, port: int, streams: int, seconds: float, max_tokens: int) -> dict:
    body = json.dumps({"model": MODEL, "prompt": "capacity " * 32, "max_tokens": max_tokens, "stream": True}).encode()
    stop = time.monotonic() + seconds
    counts = {"chunks": 0, "requests": 0, "errors": 0}

    async def user() -> None:
        while time.monotonic() < stop:
            try:
                n = await stream_once(host, port, body)  # not `+= await`: that reads the old total first
                counts["chunks"] += n
                counts["requests"] += 1
            except OSError:
                counts["errors"] += 1

    await get_json(host, port, "/debug/stats?reset=1")
    started = time.monotonic()
    await asyncio.gather(*(user() for _ in range(streams)))
    elapsed = time.monotonic() - started
    stats = await get_json(host, port, "/debug/stats")
    return {"streams": streams, "elapsed": elapsed, **counts, "stats": stats}


async def get_json(host: str, port: int, path: str) -> dict:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    raw = await reader.read()
    writer.close()
    return json.loads(raw.split(b"\r\n\r\n", 1)[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="8,32,128,256,512")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--max-tokens", type=int, default=200)
    parser.add_argument("--gpu", default="h200-141g")
    args = parser.parse_args()
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "sim", "--model", MODEL, "--gpu", args.gpu, "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("listening on "):
            print("the simulated server did not start", file=sys.stderr)
            return 1
        host, port = line.removeprefix("listening on http://").split(":")
        print(f"server: {line} (model {MODEL} on {args.gpu}, own process); cores: {os.cpu_count()}")
        print(f"{'streams':>7} {'req/s':>7} {'chunks/s':>9} {'step slip p50/p99/max ms':>26} "
              f"{'chunk slip p50/p99/max ms':>27} {'resyncs':>7} {'errors':>6}")
        for n in [int(x) for x in args.levels.split(",")]:
            r = asyncio.run(level(host, int(port), n, args.seconds, args.max_tokens))
            st = r["stats"]
            ss, cs = st["step_slip"], st["chunk_slip"]
            ok = "" if cs["p99_ms"] <= SLIP_BUDGET_MS else f"  <- p99 chunk slip over {SLIP_BUDGET_MS:g} ms"
            print(f"{n:>7} {r['requests'] / r['elapsed']:>7.1f} {r['chunks'] / r['elapsed']:>9.0f} "
                  f"{ss['p50_ms']:>8.2f}/{ss['p99_ms']:>7.2f}/{ss['max_ms']:>8.1f} "
                  f"{cs['p50_ms']:>8.2f}/{cs['p99_ms']:>7.2f}/{cs['max_ms']:>8.1f} "
                  f"{st['resyncs']:>7} {r['errors']:>6}{ok}")
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
