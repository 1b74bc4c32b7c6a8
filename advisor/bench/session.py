"""One benchmark run, one owner: probe → tokenizer calibration → telemetry → ``Runner`` → a typed ``RunResult``.

:func:`run_benchmark` is the only caller of :class:`advisor.bench.runner.Runner` (guidellm's
``benchmark_generative_text`` is the model: one entry point, every front end a thin caller). ``advisor bench``,
the Benchmark page's worker and the quantization A/B call it; each only adds what is its own (the CLI prints and
exits, the page draws, the A/B compares two runs). So a run is probed, calibrated, sampled and stored the same
way whichever door it came through, and the stored result is the same :class:`RunResult` JSON.

It blocks: call it from a worker thread. ``cancel`` stops it within one chunk of work (the probe is bounded by
``probe_timeout_s``); ``on_event`` gets the runner's events (``run_started``, ``progress``, ``record``,
``step``, ``store_problem``, ``finished``) plus this module's own: ``probe`` (the :class:`ProbeResult`),
``tokenizing`` (``{"done", "total"}`` while a large dataset is counted) and ``telemetry`` (the live
:class:`RunTelemetry`, for a view that draws its samples).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.bench.runner import (
    EXIT_CANCELLED,
    EXIT_INCOMPLETE,
    EXIT_INTERNAL,
    EXIT_PROBE_FAILED,
    BenchEvent,
    Runner,
)
from advisor.bench.store import BenchStore
from advisor.bench.workload import Prompt, PromptSource
from advisor.cancel import CancelToken
from advisor.domain.bench import BenchConfig, Knee, ProbeResult
from advisor.domain.run import RunProvenance, RunResult, RunStatus, RunWorkload, SimSetup
from advisor.i18n import tr

_log = logging.getLogger(__name__)

# What each figure means (vLLM's `bench serve` definitions unless said); part of every result.
DEFINITIONS = {
    "ttft_ms": "first token-bearing event (reasoning included) - request start",
    "ttfa_ms": "first answer (non-reasoning) token - request start",
    "itl_ms": "per-token gaps when per-chunk token counts are known (itl_kind=per_token), else gaps between "
              "token-bearing chunks (itl_kind=inter_chunk)",
    "tpot_ms": "(e2e - ttft) / (output_tokens - 1), per request",
    "e2e_ms": "last token - request start",
    "output_tokens": "server usage, else max_tokens when finish_reason is length, else an estimate (never below "
                     "the chunk count), else the chunk count; "
                     "see output_tokens_sources",
}


@dataclass(frozen=True)
class TelemetryOptions:
    """What to sample beside the load (pass ``telemetry=None`` to :func:`run_benchmark` for nothing): local GPUs
    through NVML, the server's own ``/metrics`` when the probe found one, and another exporter (DCGM,
    nvitop) when given."""

    nvml: bool = True
    exporter_url: str | None = None
    gpu_period_s: float = 0.5


def learned_setup(url: str, model: str) -> SimSetup | None:
    """What our simulated server at ``url`` says it models (``/debug/stats``), as a run stores it; None for any other
    server, or when it does not say which GPU. Asked through the bounded client (any server may be asked)."""
    from advisor.bench.provenance import read_simulator

    return setup_from_simulator(read_simulator(url), model)


def setup_from_simulator(sim: dict[str, Any] | None, model: str) -> SimSetup | None:
    """``read_simulator``'s answer as the setup a run stores (None without a GPU: nothing to predict for)."""
    if sim is None or not sim.get("gpu"):
        return None
    return SimSetup(model=sim.get("model") or model, gpu=sim["gpu"], weights=sim.get("weights"),
                    gpus=int(sim.get("gpus") or 1), time_scale=float(sim["time_scale"]))


def run_benchmark(
    config: BenchConfig,
    *,
    store: BenchStore | None,
    telemetry: TelemetryOptions | None = TelemetryOptions(),  # noqa: B008 - frozen, never mutated
    cancel: CancelToken | None = None,
    on_event: Callable[[BenchEvent], None] | None = None,
    api_key: str | None = None,
    probe: bool = True,
    probe_timeout_s: float = 30.0,
    dataset: list[Prompt] | None = None,
    prompts: PromptSource | None = None,
    setup: SimSetup | None = None,
    project_id: str | None = None,
    learn_setup: bool = True,
    ca_bundle: str | None = None,
    client_cert: str | None = None,
    client_key: str | None = None,
) -> RunResult:
    """Run one benchmark and return its typed result (also stored in ``store`` when given; the caller owns and
    closes the store).

    ``api_key`` is checked first (a key with CR/LF or non-ASCII raises :class:`advisor.redact.SecretError` before
    any request). ``probe=False`` skips the one-request probe; the server's tokenizer is looked for either way,
    so the prompts are the same. A failed probe sends no load: the run is recorded as failed with the probe's
    verdict (``stop_reason`` ``probe_failed``, exit code 3). ``dataset`` (real prompts) is loaded from
    ``config.workload.dataset`` when not given; ``prompts`` overrides both (the A/B's fixed prompt list).
    ``setup``: what the embedded simulated server models, stored with the result (provenance, predicted curve);
    without it, a server the probe finds to be our simulator (or any server, without the probe) is asked what it
    models (``/debug/stats``), unless ``learn_setup`` is False (the caller asked already).
    ``ca_bundle``: CA certificates trusted beside the system store for every connection of the run and of the
    client processes it starts (``advisor bench --ca-bundle``); checked first, :class:`advisor.tls.CaBundleError`
    before any request. None: the process's own trust (``ADVISOR_CA_BUNDLE``).
    ``client_cert``/``client_key``: the client certificate (and its key, when not in the certificate's file)
    presented to a server that asks for one (``advisor bench --client-cert/--client-key``); checked first,
    :class:`advisor.tls.ClientCertError` before any request. None: the process's own (``ADVISOR_CLIENT_CERT``).
    """
    from advisor.redact import check_api_key
    from advisor.tls import use_ca_bundle, use_client_cert

    api_key = check_api_key(api_key)
    use_ca_bundle(ca_bundle)
    use_client_cert(client_cert, client_key)
    cancel = cancel or CancelToken()
    emit = _emitter(on_event)
    ep = config.endpoint
    if prompts is None:
        prompts = PromptSource(config.workload, dataset)
    probe_result: ProbeResult | None = None
    if probe:
        from advisor.bench.probe import probe as probe_server

        probe_result = probe_server(ep.url, ep.model, ep.api, api_key=api_key,
                                    timeout_s=min(probe_timeout_s, ep.timeout_s))
        emit("probe", probe_result)
        if not probe_result.ok:
            return _not_run(config, store, RunStatus.failed, probe_result, prompts, setup, project_id)
    if setup is None and learn_setup and (probe_result is None or probe_result.dialect == "simulated"):
        setup = learned_setup(ep.url, ep.model)  # a simulator we did not start: its scale is its own, never assumed
    if not cancel.cancelled:
        _calibrate(config, prompts, probe_result, api_key, cancel, emit)
    if cancel.cancelled:  # stopped during the probe or the calibration: nothing was sent
        return _not_run(config, store, RunStatus.stopped, probe_result, prompts, setup, project_id)
    from advisor.bench.client import Target

    root = Target.parse(ep.url).root
    metrics_url = root + "/metrics" if probe_result is not None and probe_result.metrics_endpoint else None
    live = _start_telemetry(telemetry, store, metrics_url)
    if live is not None:
        emit("telemetry", live)
    server_queue = _queue_from(live.server) if live is not None and live.server is not None and metrics_url \
        else (_queue_reader(metrics_url) if metrics_url else None)

    def forward(event: BenchEvent) -> None:
        if event.kind == "run_started" and live is not None:
            live.bind(event.data.get("run_id") or "unsaved-run")
        emit(event.kind, event.data, event)

    def finalize(raw: dict[str, Any]) -> dict[str, Any]:
        """Called by the runner before it stores the result: the stored result is the typed one."""
        return _complete(raw, config, probe_result, prompts, setup, live).as_dict()

    runner = Runner(config, store=store, on_event=forward, cancel=cancel, api_key=api_key, prompts=prompts,
                    server_queue=server_queue, dialect=probe_result.dialect if probe_result else None,
                    project_id=project_id, finalize=finalize)
    try:
        raw = runner.run()
    except Exception as exc:  # the runner's own result (stored as failed) says what was measured before it
        result = _complete(runner.last_result or runner.result(RunStatus.failed.value), config, probe_result,
                           prompts, setup, live)
        store_error = isinstance(exc, (sqlite3.Error, OSError))  # the database went away (a full disk …)
        result.status = RunStatus.failed
        result.error = f"{type(exc).__name__}: {exc}"[:500]
        result.error_kind = "store" if store_error else "internal"
        result.exit_code = EXIT_INCOMPLETE if store_error else EXIT_INTERNAL
        if store is not None and result.run_id and not store_error:  # a bug, the database fine: keep the why
            try:
                store.finish_run(result.status.value, json.dumps(result.as_dict(), ensure_ascii=False))
            except (sqlite3.Error, OSError):
                pass
        return result
    finally:
        if live is not None:
            live.stop()
    return _complete(raw, config, probe_result, prompts, setup, live)


# -------------------------------------------------------------------------------------------- the steps
def _emitter(on_event: Callable[[BenchEvent], None] | None) -> Callable[..., None]:
    def emit(kind: str, data: Any, event: BenchEvent | None = None) -> None:
        if on_event is None:
            return
        try:
            on_event(event or BenchEvent(kind, data))
        except Exception:  # a broken consumer must not stop a measurement
            _log.exception("benchmark event %s could not be delivered", kind)

    return emit


def _calibrate(config: BenchConfig, prompts: PromptSource, probe_result: ProbeResult | None, api_key: str | None,
               cancel: CancelToken, emit: Callable[..., None]) -> None:
    """Prompt lengths in the server's own tokens when it has a tokenizer endpoint (a refinement: on any
    failure the estimate stays, and the result's ``workload.prompt_token_counts`` says which)."""
    from advisor.bench.client import Target
    from advisor.bench.workload import Tokenizer

    ep = config.endpoint
    root = Target.parse(ep.url).root
    try:
        kind = probe_result.tokenize_endpoint if probe_result is not None else \
            Tokenizer(root, ep.model, api_key=api_key, timeout=3.0).detect()
        if not kind or cancel.cancelled:
            return
        tokenizer = Tokenizer(root, ep.model, api_key=api_key, kind=kind)
        prompts.calibrate(tokenizer, on_progress=lambda done, total: emit("tokenizing", {"done": done,
                                                                                        "total": total}))
    except Exception:  # noqa: BLE001 - calibration refines lengths; it never costs the run
        _log.info("prompt calibration failed", exc_info=True)


def _start_telemetry(options: TelemetryOptions | None, store: BenchStore | None, metrics_url: str | None) -> Any:
    """GPU (NVML) and the server's /metrics (plus another exporter) sampled into the run's database; None when
    not asked for or when it cannot start (telemetry is evidence, not a precondition)."""
    if options is None:
        return None
    from advisor.bench.run_telemetry import RunTelemetry

    urls = [u for u in (metrics_url, options.exporter_url) if u]
    try:
        live = RunTelemetry(store.path if store is not None else None, urls[0] if urls else None, nvml=options.nvml,
                            gpu_period_s=options.gpu_period_s)
        if len(urls) > 1 and live.server is not None:
            from advisor.telemetry.sampler import ServerSampler

            live.server = ServerSampler(urls, period_s=1.0, sink=live.store or live.memory)
        return live.start()
    except Exception:  # noqa: BLE001
        _log.warning("telemetry could not start; the run goes on without it", exc_info=True)
        return None


def _queue_from(sampler: Any) -> Callable[[], float | None]:
    """Requests waiting at the server, read from the telemetry sampler's latest scrape (one scrape, not two)."""

    def read() -> float | None:
        history = sampler.history()
        for sample in reversed(history[-4:]):
            if sample.ok and sample.gauges.get("requests_waiting") is not None:
                return float(sample.gauges["requests_waiting"])
        return None

    return read


def _queue_reader(metrics_url: str) -> Callable[[], float | None] | None:
    """Without telemetry: requests waiting at the server from its /metrics (vLLM, SGLang, TGI, llama.cpp names)."""
    try:
        from advisor.telemetry.prometheus import PrometheusScraper

        scraper = PrometheusScraper(metrics_url)
    except Exception:  # noqa: BLE001
        return None

    def read() -> float | None:
        sample = scraper.scrape().server
        return sample.gauges.get("requests_waiting") if sample.ok else None

    return read


# ------------------------------------------------------------------------------------------- the result
def _workload(config: BenchConfig, prompts: PromptSource) -> RunWorkload:
    from advisor.bench.workload import histogram

    extra: dict[str, Any] = {"prompt_token_counts": prompts.token_source}
    if prompts.dataset:
        extra["dataset_prompts"] = len(prompts.dataset)
        extra["prompt_tokens_histogram"] = histogram([p.prompt_tokens for p in prompts.dataset])
    return RunWorkload.model_validate({**config.workload.model_dump(), **extra})


def _provenance(config: BenchConfig, probe_result: ProbeResult | None, setup: SimSetup | None,
                dialect: str | None) -> RunProvenance:
    """Simulated when the app started the simulator (``setup``) or the probe found it; unknown without a probe."""
    if setup is not None:
        simulated: bool | None = True
    elif probe_result is not None or dialect:
        simulated = (dialect or (probe_result.dialect if probe_result else "")) == "simulated"
    else:
        simulated = None
    wl = config.workload
    return RunProvenance(
        simulated=simulated, time_scale=setup.time_scale if setup else None,
        model=setup.model if setup else config.endpoint.model, gpu=setup.gpu if setup else None,
        gpus=setup.gpus if setup else None, weights=setup.weights if setup else None,
        engine=dialect or (probe_result.dialect if probe_result else None),
        prompt_tokens_mean=wl.prompt_tokens.mean, output_tokens_mean=wl.output_tokens.mean,
    )


def _complete(raw: dict[str, Any], config: BenchConfig, probe_result: ProbeResult | None, prompts: PromptSource,
              setup: SimSetup | None, live: Any) -> RunResult:
    """The runner's result plus what every caller used to add on its own: telemetry, probe, workload, SLO,
    definitions, setup and provenance. Idempotent (the runner calls it before storing; the caller after)."""
    if raw.get("result_schema"):
        return RunResult.model_validate(raw)
    if setup is not None and setup.workload is None:
        setup = setup.model_copy(update={"workload": config.workload.model_dump(mode="json")})
    telemetry = None
    if live is not None:
        live.stop()  # every sample flushed before the summary reads them
        try:
            telemetry = live.report(raw.get("steps") or [])
        except Exception as exc:  # noqa: BLE001 - telemetry must not cost the measurement
            telemetry = {"error": str(exc)[:300]}
    data = {
        **raw,
        "status": RunStatus.stopped.value if raw.get("status") == "cancelled" else raw.get("status"),
        "label": config.label,
        "telemetry": telemetry,
        "definitions": DEFINITIONS,
        "probe": probe_result,
        "workload": _workload(config, prompts),
        "slo": config.slo,
        "simulated": True if setup is not None else raw.get("simulated"),
        "setup": setup,
        "provenance": _provenance(config, probe_result, setup, raw.get("dialect")),
    }
    if data["simulated"] is None and data["provenance"].simulated:
        data["simulated"] = True
    return RunResult.model_validate(data)


def _not_run(config: BenchConfig, store: BenchStore | None, status: RunStatus, probe_result: ProbeResult | None,
             prompts: PromptSource, setup: SimSetup | None, project_id: str | None) -> RunResult:
    """A run that never sent load (the probe failed, or it was stopped first): recorded with its reason, so
    History and a script both see why."""
    ep = config.endpoint
    failed = status is RunStatus.failed
    raw: dict[str, Any] = {
        "run_id": None, "status": status.value, "stop_reason": "probe_failed" if failed else "cancelled",
        "url": ep.url, "model": ep.model, "api": ep.api, "schedule": config.schedule.kind,
        "dialect": probe_result.dialect if probe_result is not None else None, "steps": [],
        "knee": Knee(reason="not_applicable", message=tr("bench.knee.not_applicable")),
        "exit_code": EXIT_PROBE_FAILED if failed else EXIT_CANCELLED,
    }
    if failed and probe_result is not None:
        raw["message"] = probe_result.error
        raw["error"] = tr("bench.page.error.probe_failed", error=probe_result.error or probe_result.error_kind or "?")
        raw["error_kind"] = "probe"
    elif not failed:
        raw["error"] = tr("run.stopped_before_load")
    result = _complete(raw, config, probe_result, prompts, setup, None)
    if store is not None:
        try:
            result.run_id = store.start_run(config.model_dump_json(), label=config.label, url=ep.url, model=ep.model,
                                            project_id=project_id)
            store.finish_run(result.status.value, json.dumps(result.as_dict(), ensure_ascii=False))
        except (sqlite3.Error, OSError) as exc:  # the verdict matters more than its record
            result.store_problems = [{"kind": "io_error", "error": str(exc)[:300]}]
    return result
