"""Client fidelity: how far are measured TTFT and ITL from the server's true chunk send times?

A load generator measures itself as well as the server: when its event loop is busy, bytes wait in the
socket buffer and get a late timestamp; gaps between tokens shrink and grow. This script runs streams
against a server that records the monotonic send time of every chunk (CLOCK_MONOTONIC is shared by all
processes of a machine) and compares, per token, the client's arrival time with the server's send time:

- TTFT error = measured first-token time − true send time of the first token (≥ 0: it is lateness)
- ITL error  = |measured gap − true gap| between consecutive tokens

Servers: ``--server truth`` (default) is a minimal asyncio server in its own process that writes one
vLLM-style chunk per token every ``--itl-ms`` and keeps its send times; ``--server sim`` starts the simulated
server (``advisor sim``) and reads its ground-truth endpoint. Clients compared: the raw asyncio-protocol
transport and httpx, on one event loop or split over several processes.

Run: ``.venv/bin/python bench/client_fidelity.py [--levels 1,64,256,512] [--variants raw,httpx,raw-2proc]``.
Prints a Markdown table (p50/p99 of each error, in ms) and the maximum chunk rate parsed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.bench.client import StreamClient, build_record  # noqa: E402
from advisor.bench.metrics import quantile  # noqa: E402
from advisor.bench.runner import quiet_gc  # noqa: E402

# ----------------------------------------------------------------------------------------------------------
# The ground-truth server (runs in its own process)
# ----------------------------------------------------------------------------------------------------------


def _chunk(i: int) -> bytes:
    payload = (b'{"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,'
               b'"delta":{"content":" tok%d"},"logprobs":null,"finish_reason":null}]}' % i)
    data = b"data: " + payload + b"\n\n"
    return b"%x\r\n%s\r\n" % (len(data), data)


_FINAL = (b'data: {"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,'
          b'"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}\n\n'
          b'data: {"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"m","choices":[],'
          b'"usage":{"prompt_tokens":8,"completion_tokens":%d,"total_tokens":%d}}\n\ndata: [DONE]\n\n')


class _TruthProtocol(asyncio.Protocol):
    truth: dict[str, list[float]] = {}

    def __init__(self) -> None:
        self.buf = b""
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            if len(self.buf) < end + 4 + length:
                return
            body = self.buf[end + 4:end + 4 + length]
            self.buf = self.buf[end + 4 + length:]
            path = head.split(" ", 2)[1]
            if head.startswith("GET") and path == "/truth":
                data_out = json.dumps(self.truth).encode()
                self.transport.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n"
                                     % len(data_out) + data_out)
                continue
            req = json.loads(body)
            self._stream(req.get("user", "?"), int(req.get("max_tokens", 16)), float(req.get("itl_ms", 20)) / 1e3)

    def _stream(self, rid: str, n: int, itl: float) -> None:
        times: list[float] = []
        self.truth[rid] = times
        tr = self.transport
        tr.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
        t0 = time.monotonic() + 0.005
        loop = self.loop

        def send(i: int) -> None:
            if tr.is_closing():
                return
            times.append(time.monotonic())  # just before the write (syscall) that sends the chunk
            tr.write(_chunk(i))
            if i + 1 < n:
                loop.call_at(t0 + (i + 1) * itl, send, i + 1)
            else:
                final = _FINAL % (n, n + 8)
                tr.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(final), final))

        loop.call_at(t0, send, 0)


def _serve_truth(port_pipe) -> None:  # pragma: no cover - subprocess
    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(_TruthProtocol, "127.0.0.1", 0, backlog=2048)
        port_pipe.send(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()

    asyncio.run(main())


def start_truth_server() -> tuple[str, mp.Process]:
    parent, child = mp.Pipe()
    proc = mp.Process(target=_serve_truth, args=(child,), daemon=True)
    proc.start()
    port = parent.recv()
    return f"http://127.0.0.1:{port}", proc


MODEL = "m"


def fetch_truth(url: str, ids: list[str]) -> dict[str, list[float]]:
    import httpx

    return httpx.get(url + "/truth", timeout=30).json()


def start_sim_server(model: str, gpu: str, time_scale: float) -> tuple[str, subprocess.Popen]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "sim", "--model", model, "--gpu", gpu, "--weights", "bf16", "--port", "0",
         "--time-scale", str(time_scale), "--max-num-seqs", "1024"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise SystemExit(f"advisor sim did not start: {line!r}")
    return line.split("listening on ", 1)[1].strip(), proc


def fetch_sim_truth(url: str, ids: list[str]) -> dict[str, list[float]]:
    """The simulator's ground truth: the monotonic time each content chunk was handed to the transport."""
    import httpx

    out = {}
    with httpx.Client(timeout=30) as client:
        for rid in ids:
            resp = client.get(url + "/debug/ground-truth", params={"request_id": rid})
            if resp.status_code == 200:
                out[rid] = [c["t"] for c in resp.json()["chunks"] if c["kind"] == "content"]
    return out


# ----------------------------------------------------------------------------------------------------------
# The client side
# ----------------------------------------------------------------------------------------------------------


async def _client_streams(url: str, transport: str, ids: list[str], tokens: int, itl_ms: float,
                          per_stream: int) -> tuple[list[dict], float, float]:
    client = StreamClient(url, "chat", transport=transport, max_connections=len(ids) + 8, read_timeout_s=60)
    out: list[dict] = []
    lags: list[float] = []
    stop = False

    async def lag() -> None:
        while not stop:
            t = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append((time.monotonic() - t - 0.01) * 1e3)

    async def stream(sid: str) -> None:
        for k in range(per_stream):
            rid = f"{sid}-{k}"
            body = {"model": MODEL, "messages": [{"role": "user", "content": "Tell me a story."}], "stream": True,
                    "max_tokens": tokens, "user": rid, "itl_ms": itl_ms, "ignore_eos": True,
                    "stream_options": {"include_usage": True}}
            ex = await client.send(body, headers={"X-Request-Id": rid})
            rec = build_record(ex, seq=0)
            out.append({"id": rid, "ok": rec.ok, "t_start": rec.t_start, "times": rec.token_times,
                        "late_merged": rec.late_merged_tokens})

    lag_task = asyncio.create_task(lag())
    cpu0 = time.process_time()
    t0 = time.monotonic()
    await asyncio.gather(*(stream(s) for s in ids))
    wall = time.monotonic() - t0
    cpu = time.process_time() - cpu0
    stop = True
    await lag_task
    await client.aclose()
    out.append({"lags": lags})
    return out, wall, cpu


def _client_proc(args: tuple) -> tuple[list[dict], float, float]:
    url, transport, ids, tokens, itl_ms, per_stream, default_gc = args
    if default_gc:
        return asyncio.run(_client_streams(url, transport, ids, tokens, itl_ms, per_stream))
    with quiet_gc():  # as the runner does
        return asyncio.run(_client_streams(url, transport, ids, tokens, itl_ms, per_stream))


def run_level(url: str, variant: str, streams: int, tokens: int, itl_ms: float, per_stream: int,
              truth_getter) -> dict:
    # variant: CLIENT[-Nproc][+gc]; CLIENT raw | raw-loop | raw-h11 | httpx; +gc keeps Python's default GC settings
    default_gc = variant.endswith("+gc")
    name = variant.removesuffix("+gc")
    transport = next((t for t in ("raw-loop", "raw-h11") if name.startswith(t)), name.split("-")[0])
    procs = 1
    if name.endswith("proc"):
        procs = int(name.rsplit("-", 1)[1].removesuffix("proc"))
    tag = f"{variant}-{streams}-{time.monotonic_ns()}"
    ids = [f"{tag}-{i}" for i in range(streams)]
    all_ids = [f"{sid}-{k}" for sid in ids for k in range(per_stream)]
    if procs == 1:
        results = [_client_proc((url, transport, ids, tokens, itl_ms, per_stream, default_gc))]
    else:
        groups = [ids[i::procs] for i in range(procs)]
        with mp.get_context("fork").Pool(procs) as pool:
            results = pool.map(_client_proc, [(url, transport, g, tokens, itl_ms, per_stream, default_gc)
                                              for g in groups])
    records = [r for res in results for r in res[0] if "lags" not in r]
    lags = sorted(lag for res in results for r in res[0] if "lags" in r for lag in r["lags"])
    coalesced = 0
    late_merged = sum(r.get("late_merged", 0) for r in records)
    wall = max(res[1] for res in results)
    cpu = sum(res[2] for res in results)
    truth = truth_getter(all_ids)
    ttft_err: list[float] = []
    itl_err: list[float] = []
    chunks = 0
    failed = 0
    for r in records:
        sent = truth.get(r["id"])
        got = r["times"]
        if not r["ok"] or not sent or len(sent) != len(got):
            failed += 1
            continue
        chunks += len(got)
        ttft_err.append((got[0] - sent[0]) * 1e3)
        for i in range(1, len(got)):
            itl_err.append(abs((got[i] - got[i - 1]) - (sent[i] - sent[i - 1])) * 1e3)
            coalesced += got[i] == got[i - 1]
    ttft_err.sort()
    itl_err.sort()

    def q(v: list[float], p: float) -> float | None:
        return quantile(v, p) if v else None

    return {"variant": variant, "streams": streams, "requests": len(records), "failed": failed,
            "ttft_err_p50": q(ttft_err, 0.5), "ttft_err_p99": q(ttft_err, 0.99),
            "itl_err_p50": q(itl_err, 0.5), "itl_err_p99": q(itl_err, 0.99),
            "chunks_per_s": chunks / wall if wall else 0.0, "chunks_per_cpu_s": chunks / cpu if cpu else 0.0,
            "coalesced_pct": 100.0 * coalesced / max(1, len(itl_err)), "loop_lag_p99": q(lags, 0.99),
            "late_merged_pct": 100.0 * late_merged / max(1, chunks),
            "cpu_util": cpu / wall if wall else 0.0}


def _fmt(v: float | None) -> str:
    return "—" if v is None else f"{v:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="1,64,256,512")
    ap.add_argument("--variants", default="raw,httpx,raw-2proc")
    ap.add_argument("--tokens", type=int, default=64, help="tokens per request")
    ap.add_argument("--itl-ms", type=float, default=20.0, help="the server's gap between tokens")
    ap.add_argument("--per-stream", type=int, default=2, help="requests per stream")
    ap.add_argument("--max-rate", action="store_true", help="also measure the maximum chunk rate parsed (itl 0)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--server", choices=("truth", "sim"), default="truth")
    ap.add_argument("--sim-model", default="qwen2.5-3b")
    ap.add_argument("--sim-gpu", default="h100-sxm-80g")
    ap.add_argument("--sim-time-scale", type=float, default=1.0)
    args = ap.parse_args()
    global MODEL
    if args.server == "sim":
        MODEL = args.sim_model
        url, proc = start_sim_server(args.sim_model, args.sim_gpu, args.sim_time_scale)
        truth = fetch_sim_truth
    else:
        url, proc = start_truth_server()
        truth = fetch_truth
    rows = []
    try:
        for variant in args.variants.split(","):
            for streams in (int(x) for x in args.levels.split(",")):
                row = run_level(url, variant, streams, args.tokens, args.itl_ms, args.per_stream,
                                lambda ids: truth(url, ids))
                rows.append(row)
                print(f"{variant:>10} {streams:>4} streams: TTFT err p50 {_fmt(row['ttft_err_p50'])} "
                      f"p99 {_fmt(row['ttft_err_p99'])} ms · ITL err p50 {_fmt(row['itl_err_p50'])} "
                      f"p99 {_fmt(row['itl_err_p99'])} ms · {row['chunks_per_s']:.0f} chunks/s "
                      f"· same read {row['coalesced_pct']:.1f}% (late {row['late_merged_pct']:.1f}%) "
                      f"· loop lag p99 {_fmt(row['loop_lag_p99'])} ms "
                      f"· client CPU {row['cpu_util']:.2f} ({row['failed']} failed)", file=sys.stderr, flush=True)
        if args.max_rate:
            for variant in args.variants.split(","):
                row = run_level(url, variant, 64, 256, 0.0, 2, lambda ids: truth(url, ids))
                row["max_rate"] = True
                rows.append(row)
                print(f"{variant:>10} max rate: {row['chunks_per_s']:.0f} chunks/s wall, "
                      f"{row['chunks_per_cpu_s']:.0f} chunks per client CPU second", file=sys.stderr, flush=True)
    finally:
        proc.kill()
        proc.wait() if isinstance(proc, subprocess.Popen) else proc.join(5)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        server = ("ground-truth asyncio server, ITL " + f"{args.itl_ms:g} ms" if args.server == "truth" else
                  f"advisor sim {args.sim_model} on {args.sim_gpu}, time scale {args.sim_time_scale:g}")
        print(f"\nmachine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end; server: {server}; "
              f"{args.tokens} tokens/request, {args.per_stream} requests per stream\n")
        print("| client | streams | TTFT err p50 | TTFT err p99 | ITL err p50 | ITL err p99 | chunks/s | "
              "tokens sharing a read | merged by a late read | loop lag p99 | client CPU |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            if r.get("max_rate"):
                continue
            print(f"| {r['variant']} | {r['streams']} | {_fmt(r['ttft_err_p50'])} | {_fmt(r['ttft_err_p99'])} | "
                  f"{_fmt(r['itl_err_p50'])} | {_fmt(r['itl_err_p99'])} | {r['chunks_per_s']:.0f} | "
                  f"{r['coalesced_pct']:.1f}% | {r['late_merged_pct']:.1f}% | {_fmt(r['loop_lag_p99'])} | "
                  f"{r['cpu_util']:.2f} |")
        for r in rows:
            if r.get("max_rate"):
                print(f"\nmax chunk rate parsed ({r['variant']}, 64 streams, no pacing): {r['chunks_per_s']:.0f}/s "
                      f"wall, {r['chunks_per_cpu_s']:.0f} per client CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
