"""Telemetry (Qt-free): GPU readings through NVML, server and remote-GPU readings from Prometheus ``/metrics``.

- ``clock``: the project clock ``now_s()`` that telemetry samples and benchmark records share.
- ``nvml``: the one NVML wrapper (lazy, locked init; every unsupported field becomes an explicit N/A).
- ``prometheus``: scraping vLLM, SGLang, TGI, DCGM-exporter and nvitop-exporter ``/metrics``.
- ``sampler``: background threads that sample at a fixed period into bounded ring buffers and a ``SampleSink``.
- ``sink``: the ``SampleSink`` protocol (where a run's samples go) and an in-memory sink.
- ``store``: the SQLite ``SampleSink`` (tables ``gpu_samples`` and ``server_samples``).
- ``derived``: run-summary figures (peak/mean memory, KV cache, energy per output token, throttling, notes).
"""
