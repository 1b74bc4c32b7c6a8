"""The SQLite sink on real SQLite: tables, WAL, run ids, round trip, writes from a sampler thread."""

import sqlite3
import time

from advisor.domain.telemetry import GpuProcess, GpuSample, ServerSample
from advisor.telemetry import nvml
from advisor.telemetry.sampler import GpuSampler
from advisor.telemetry.sink import SampleSink
from advisor.telemetry.store import TelemetryStore
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import FakeDevice


def gpu(t, index="0", used=10, **kw):
    return GpuSample(t_s=t, index=index, memory_used_bytes=used, memory_total_bytes=100, **kw)


def test_tables_wal_and_round_trip(tmp_path):
    path = tmp_path / "bench.sqlite"
    store = TelemetryStore(path)
    assert isinstance(store, SampleSink)
    rich = gpu(1.0, clock_event_reasons=["sw_power_cap"], processes=[GpuProcess(pid=7, used_memory_bytes=5)],
               na={"power_w": "not_supported"})
    store.add_gpu_samples("run-a", [rich, gpu(2.0, index="1"), gpu(3.0, status="lost", used=None)])
    store.add_gpu_samples("run-b", [gpu(1.5)])
    server = ServerSample(t_s=1.2, url="http://127.0.0.1:1/metrics", ok=True, kind="vllm", kinds=["vllm"],
                          gauges={"kv_cache_usage": 0.5}, counters={"generation_tokens": 10.0},
                          rates={"generation_tokens_per_s": 3.0})
    store.add_server_samples("run-a", [server])
    store.close()

    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = {r[1] for r in conn.execute("PRAGMA table_info(gpu_samples)")}
    assert {"run_id", "t_s", "wall_s", "device_index", "data"} <= cols
    assert conn.execute("SELECT kv_cache_usage FROM server_samples WHERE run_id='run-a'").fetchone() == (0.5,)
    conn.close()

    again = TelemetryStore(path)  # reopening keeps the data (CREATE IF NOT EXISTS)
    back = again.gpu_samples("run-a")
    assert back[0] == rich and [s.index for s in back] == ["0", "1", "0"] and back[2].status == "lost"
    assert again.gpu_samples("run-a", start_s=1.5, end_s=2.5) == [back[1]]
    assert again.server_samples("run-a") == [server]
    assert again.run_ids() == ["run-a", "run-b"]
    again.delete_run("run-b")
    assert again.gpu_samples("run-b") == []


def test_works_on_the_bench_stores_connection_from_a_sampler_thread(tmp_path, monkeypatch):
    path = tmp_path / "bench.sqlite"
    bench_conn = sqlite3.connect(path)  # the bench store's own connection, with its own tables
    bench_conn.execute("CREATE TABLE runs (id TEXT PRIMARY KEY)")
    bench_conn.commit()
    store = TelemetryStore(bench_conn)

    monkeypatch.setattr(nvml, "pynvml", fake_pynvml)
    fake_pynvml.configure([FakeDevice()])
    sampler = GpuSampler(period_s=0.05, sink=store, flush_every_s=0.05)
    sampler.bind_run("run-1")
    with sampler:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and len(store.gpu_samples("run-1")) < 3:
            time.sleep(0.02)
    rows = bench_conn.execute("SELECT COUNT(*) FROM gpu_samples WHERE run_id = 'run-1'").fetchone()[0]
    assert rows >= 3 and rows == len(sampler.history())
    assert bench_conn.execute("SELECT COUNT(*) FROM runs").fetchone() == (0,)


def test_in_memory_connection_is_shared_under_a_lock():
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    store = TelemetryStore(conn)
    store.add_gpu_samples("r", [gpu(1.0)])
    assert len(store.gpu_samples("r")) == 1
