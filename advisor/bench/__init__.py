"""The streaming benchmark engine (Qt-free): protocol, client, workloads, runner, metrics, store.

Entry points: :class:`advisor.bench.runner.Runner` (sync at the edge, asyncio inside),
:func:`advisor.bench.probe.probe`, :class:`advisor.bench.store.BenchStore`.
"""
