"""Capacity predictor and embedded simulated inference server (Qt-free).

- :mod:`advisor.sim.engine` — discrete-event continuous-batching engine (vLLM v1 scheduling) in virtual time.
- :mod:`advisor.sim.predict` — the concurrency → latency/throughput curve and its knee.
- :mod:`advisor.sim.costs` — sizing core → step costs + KV capacity (``setup_from_ids``).
- :mod:`advisor.sim.server` — the simulated OpenAI-compatible server (``SimServer``, ``run_sim_server``).
- :mod:`advisor.sim.faults` — fault injection (header ``X-Sim-Fault``, body ``sim_fault``, ``--faults`` rates).

Importing this package is cheap; the server's web stack is imported only with :mod:`advisor.sim.server`.
"""

from __future__ import annotations

from typing import Any


def start_sim_server(model: str, gpu: str, weights: str = "bf16", *, gpus: int = 1, **config: Any) -> Any:
    """Size ``model`` on ``gpu`` and start the simulated server on 127.0.0.1 (a free port) in a background
    thread. Returns the running :class:`advisor.sim.server.SimServer`; call ``stop()`` or use it in ``with``.

    ``config`` goes to :class:`advisor.sim.server.SimServerConfig` (``time_scale``, ``faults``, ``seed``,
    ``language``, ``api_key``, ``ground_truth_path``, ``port``).
    """
    from advisor.sim.costs import setup_from_ids
    from advisor.sim.server import SimServer, SimServerConfig

    setup = setup_from_ids(model, gpu, weights, gpus=gpus)
    return SimServer(SimServerConfig.from_setup(setup, **config)).start()
