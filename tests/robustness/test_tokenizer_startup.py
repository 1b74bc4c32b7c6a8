"""Issue #29 item 12: a dataset of thousands of prompts is counted with the server's tokenizer over a few
kept-alive connections, several at a time, with progress shown — not one new connection per prompt, silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.robustness.hostile import HostileServer, Reply, good

ROOT = Path(__file__).resolve().parents[2]


def test_a_large_dataset_is_tokenized_over_few_connections_with_progress(tmp_path):
    def behaviour(path, body):
        if path == "/tokenize":
            time.sleep(0.002)
            return Reply([json.dumps({"count": 7}).encode()], content_type="application/json", chunked=False)
        return good()

    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"prompt": f"question number {i} about things"}) + "\n" for i in range(2000)))
    with HostileServer(behaviour) as srv:
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m",
                               "--dataset", str(data), "--requests", "1", "--warmup", "0", "--no-telemetry",
                               "--no-store", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        took = time.monotonic() - t0
        tokenize_posts = sum(1 for m, p, _ in srv.requests if p == "/tokenize")
        connections = srv.connections
    assert proc.returncode == 0, proc.stderr
    assert tokenize_posts >= 2000
    assert connections < 40, connections  # was one connection per prompt (2000+)
    assert "2000/2000" in proc.stderr
    assert json.loads(proc.stdout)["workload"]["prompt_token_counts"] == "tokenizer"
    assert took < 60
