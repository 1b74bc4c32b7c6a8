"""Scraping Prometheus ``/metrics``: inference servers (vLLM, SGLang, TGI, llama.cpp's llama-server) and GPU exporters on other hosts
(DCGM exporter, nvitop-exporter). Parsed with ``prometheus_client``'s text parser, never by hand.

One endpoint may carry several kinds at once (our simulated server serves vLLM-style metrics and,
labelled simulated, DCGM-style GPU metrics). Server metrics become a ``ServerSample`` with canonical
gauge names; exporter GPU metrics become ``GpuSample`` rows (``source`` = ``dcgm``/``nvitop``).

Counters are turned into per-second rates between consecutive scrapes by ``RateTracker``; a counter
that goes down (server restart) gives no rate for that interval rather than a negative one.

Series selection: SGLang labels every series with ``tp_rank``/``pp_rank``; tensor-parallel ranks report
the same requests, so only rank 0 is read. Other label sets (vLLM data-parallel ``engine``, several
models) are summed for counts and averaged for fractions.

A scrape is "simulated" when a series has a ``simulated`` label that is true, or a HELP text or any label
value says "simulated" — the simulated server labels itself one of these ways.
"""

from __future__ import annotations

import http.client
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
from prometheus_client.parser import text_string_to_metric_families

from advisor import bounded_http
from advisor.domain.telemetry import GpuSample, MiB, NaReason, ServerKind, ServerSample
from advisor.i18n import tr
from advisor.telemetry.clock import now_s

Labels = dict[str, str]
Series = list[tuple[Labels, float]]
Agg = Literal["sum", "mean", "max"]

# Values DCGM uses for "blank" (no data / not supported) are near the int64/int32 limits.
_DCGM_BLANK_MIN = 2**31 - 64  # ≥ this is a DCGM blank sentinel for any field we read (MHz, W, %, °C, MiB)
_DCGM_BLANK_INT64 = 2**62

# canonical gauge → (metric names in order of preference, aggregation across label sets)
SERVER_GAUGES: dict[str, list[tuple[str, list[str], Agg]]] = {
    "vllm": [
        # kv_cache_usage_perc since vLLM 0.9/V1; gpu_cache_usage_perc before (kept as deprecated in 0.10).
        ("kv_cache_usage", ["vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"], "mean"),
        ("requests_running", ["vllm:num_requests_running"], "sum"),
        ("requests_waiting", ["vllm:num_requests_waiting"], "sum"),
        ("requests_swapped", ["vllm:num_requests_swapped"], "sum"),
    ],
    "sglang": [
        ("kv_cache_usage", ["sglang:token_usage"], "mean"),
        ("requests_running", ["sglang:num_running_reqs"], "sum"),
        ("requests_waiting", ["sglang:num_queue_reqs"], "sum"),
        ("kv_tokens_used", ["sglang:num_used_tokens"], "sum"),
        ("gen_throughput_tokens_per_s", ["sglang:gen_throughput"], "sum"),
        ("cache_hit_rate", ["sglang:cache_hit_rate"], "mean"),
    ],
    "tgi": [
        ("requests_waiting", ["tgi_queue_size"], "sum"),
        ("batch_size", ["tgi_batch_current_size"], "sum"),
        # TGI's running batch IS the set of running requests.
        ("requests_running", ["tgi_batch_current_size"], "sum"),
        ("batch_max_tokens", ["tgi_batch_current_max_tokens"], "sum"),
    ],
    # llama.cpp's llama-server (--metrics): busy slots are the running requests, deferred tasks the waiting ones
    # (found against a real llama-server: without these its /metrics read as "unknown", and the bench's server
    # queue figure stayed empty). It has no KV-usage gauge (llamacpp:kv_cache_usage_ratio was removed).
    "llamacpp": [
        ("requests_running", ["llamacpp:requests_processing"], "sum"),
        ("requests_waiting", ["llamacpp:requests_deferred"], "sum"),
        ("kv_cache_usage", ["llamacpp:kv_cache_usage_ratio"], "mean"),
    ],
}

SERVER_COUNTERS: dict[str, list[tuple[str, list[str]]]] = {
    "vllm": [
        ("preemptions", ["vllm:num_preemptions_total"]),
        ("prompt_tokens", ["vllm:prompt_tokens_total"]),
        ("generation_tokens", ["vllm:generation_tokens_total"]),
        ("requests_ok", ["vllm:request_success_total"]),
    ],
    "sglang": [
        ("prompt_tokens", ["sglang:prompt_tokens_total"]),
        ("generation_tokens", ["sglang:generation_tokens_total"]),
        ("requests", ["sglang:num_requests_total"]),
        ("preemptions", ["sglang:num_retracted_requests_total", "sglang:num_retracted_reqs_total"]),
    ],
    "tgi": [
        ("requests", ["tgi_request_count_total"]),
        ("requests_ok", ["tgi_request_success_total"]),
        # Histogram sums are cumulative totals, so they are counters too.
        ("generation_tokens", ["tgi_request_generated_tokens_sum"]),
        ("prompt_tokens", ["tgi_request_input_length_sum"]),
    ],
    "llamacpp": [
        ("prompt_tokens", ["llamacpp:prompt_tokens_total"]),
        ("generation_tokens", ["llamacpp:tokens_predicted_total"]),
    ],
}

# Exporter GPU fields: GpuSample field → (metric name, scale to our unit)
DCGM_FIELDS: dict[str, tuple[str, float]] = {
    "gpu_util_pct": ("DCGM_FI_DEV_GPU_UTIL", 1.0),
    "memory_util_pct": ("DCGM_FI_DEV_MEM_COPY_UTIL", 1.0),
    "memory_used_bytes": ("DCGM_FI_DEV_FB_USED", MiB),
    "memory_free_bytes": ("DCGM_FI_DEV_FB_FREE", MiB),
    "memory_reserved_bytes": ("DCGM_FI_DEV_FB_RESERVED", MiB),
    "memory_total_bytes": ("DCGM_FI_DEV_FB_TOTAL", MiB),
    "power_w": ("DCGM_FI_DEV_POWER_USAGE", 1.0),
    "power_limit_w": ("DCGM_FI_DEV_POWER_MGMT_LIMIT", 1.0),
    "energy_mj": ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1.0),
    "temperature_c": ("DCGM_FI_DEV_GPU_TEMP", 1.0),
    "sm_clock_mhz": ("DCGM_FI_DEV_SM_CLOCK", 1.0),
    "mem_clock_mhz": ("DCGM_FI_DEV_MEM_CLOCK", 1.0),
}
# nvitop-exporter uses prometheus_client Gauges with a unit, which appends the unit to the name.
NVITOP_FIELDS: dict[str, tuple[str, float]] = {
    "gpu_util_pct": ("gpu_utilization_Percentage", 1.0),
    "memory_util_pct": ("gpu_memory_utilization_Percentage", 1.0),
    "memory_used_bytes": ("gpu_memory_used_MiB", MiB),
    "memory_free_bytes": ("gpu_memory_free_MiB", MiB),
    "memory_total_bytes": ("gpu_memory_total_MiB", MiB),
    "power_w": ("gpu_power_usage_W", 1.0),
    "power_limit_w": ("gpu_power_limit_W", 1.0),
    "temperature_c": ("gpu_temperature_C", 1.0),
    "sm_clock_mhz": ("gpu_clock_sm_MHz", 1.0),
    "mem_clock_mhz": ("gpu_clock_memory_MHz", 1.0),
}
_INT_FIELDS = {"memory_used_bytes", "memory_free_bytes", "memory_reserved_bytes", "memory_total_bytes"}

_KIND_ORDER: tuple[ServerKind, ...] = ("vllm", "sglang", "tgi", "llamacpp", "dcgm", "nvitop")


@dataclass
class ParsedMetrics:
    """Every sample of one ``/metrics`` text, by sample name (counters under ``<name>_total``)."""

    series: dict[str, Series] = field(default_factory=dict)
    help: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> Series:
        # A family typed "counter" has its samples renamed to <name>_total by the parser.
        return self.series.get(name) or self.series.get(f"{name}_total", [])

    def names(self) -> Iterable[str]:
        return self.series.keys()


def parse_metrics_text(text: str) -> ParsedMetrics:
    """Parse Prometheus text exposition; raises ``ValueError`` when the text is not Prometheus format.

    Real exporters sometimes print a value the format does not allow (dcgm-exporter writes
    ``ERROR - FAILED TO CONVERT TO STRING`` for fields it cannot read). One bad line must not cost us
    the whole scrape, so when the strict parse fails we drop the sample lines whose value is not a
    number and parse again; text with no valid sample at all is still an error.
    """
    try:
        return _parse(text)
    except (ValueError, TypeError, IndexError):
        kept = [line for line in text.splitlines() if _plausible_line(line)]
        parsed = _parse("\n".join(kept) + "\n")
        if not parsed.series:
            raise ValueError("no Prometheus samples in the text") from None
        return parsed


def _plausible_line(line: str) -> bool:
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return True
    rest = stripped[stripped.rfind("}") + 1 :] if "}" in stripped else stripped.split(None, 1)[-1]
    tokens = rest.split()
    if not tokens or len(tokens) > 2:  # value and an optional timestamp
        return False
    try:
        float(tokens[0])
        if len(tokens) == 2:
            float(tokens[1])
    except ValueError:
        return False
    return True


def _parse(text: str) -> ParsedMetrics:
    parsed = ParsedMetrics()
    for family in text_string_to_metric_families(text):
        if family.documentation:
            parsed.help[family.name] = family.documentation
        for sample in family.samples:
            parsed.series.setdefault(sample.name, []).append((dict(sample.labels), float(sample.value)))
    return parsed


def detect_kinds(parsed: ParsedMetrics) -> list[ServerKind]:
    found: set[ServerKind] = set()
    for name in parsed.names():
        if name.startswith("vllm:"):
            found.add("vllm")
        elif name.startswith("sglang:"):
            found.add("sglang")
        elif name.startswith("tgi_"):
            found.add("tgi")
        elif name.startswith("llamacpp:"):
            found.add("llamacpp")
        elif name.startswith("DCGM_FI_"):
            found.add("dcgm")
        elif name in ("gpu_utilization_Percentage", "gpu_memory_used_MiB", "nvitop_info"):
            found.add("nvitop")
    return [k for k in _KIND_ORDER if k in found]


def is_simulated(parsed: ParsedMetrics) -> bool:
    if any("simulated" in doc.lower() for doc in parsed.help.values()):
        return True
    for series in parsed.series.values():
        for labels, _ in series:
            if labels.get("simulated", "").lower() in ("true", "1", "yes"):
                return True
            # e.g. Hostname="simulated", source="simulated", modelName="H100 (simulated)"
            if any("simulated" in value.lower() for key, value in labels.items() if key != "simulated"):
                return True
    return False


def _rank_zero(series: Series) -> Series:
    """Keep tensor/pipeline-parallel rank 0 only: the ranks of one model report the same requests."""
    return [(lab, v) for lab, v in series if lab.get("tp_rank", "0") == "0" and lab.get("pp_rank", "0") == "0"]


def _aggregate(series: Series, how: Agg) -> float | None:
    values = [v for _, v in _rank_zero(series) if math.isfinite(v)]
    if not values:
        return None
    if how == "sum":
        return float(sum(values))
    if how == "max":
        return float(max(values))
    return float(sum(values) / len(values))


def server_figures(parsed: ParsedMetrics, kinds: Iterable[ServerKind]) -> tuple[dict[str, float], dict[str, float]]:
    """Canonical gauges and raw counters of the server kinds found on the endpoint."""
    gauges: dict[str, float] = {}
    counters: dict[str, float] = {}
    for kind in kinds:
        for canonical, names, how in SERVER_GAUGES.get(kind, []):
            for name in names:
                value = _aggregate(parsed.get(name), how)
                if value is not None:
                    gauges.setdefault(canonical, value)
                    break
        for canonical, names in SERVER_COUNTERS.get(kind, []):
            for name in names:
                value = _aggregate(parsed.get(name), "sum")
                if value is not None:
                    counters.setdefault(canonical, value)
                    break
    return gauges, counters


def exporter_gpus(parsed: ParsedMetrics, kind: ServerKind, t_s: float, simulated: bool) -> list[GpuSample]:
    """GPU readings from a DCGM exporter or nvitop-exporter, one sample per (host, GPU[, MIG instance])."""
    fields = DCGM_FIELDS if kind == "dcgm" else NVITOP_FIELDS if kind == "nvitop" else None
    if fields is None:
        return []
    devices: dict[tuple[str, str], dict] = {}
    for field_name, (metric, scale) in fields.items():
        for labels, value in parsed.get(metric):
            if kind == "dcgm":
                index = labels.get("gpu", "?")
                if labels.get("GPU_I_ID"):
                    index = f"{index}:{labels['GPU_I_ID']}"
                host = labels.get("Hostname") or None
            else:
                index = labels.get("index", "?")
                host = labels.get("hostname") or None
            key = (host or "", index)
            dev = devices.setdefault(key, _new_exporter_device(labels, kind, index, host))
            if not math.isfinite(value) or (kind == "dcgm" and value >= _DCGM_BLANK_MIN and field_name != "energy_mj"):
                dev["na"][field_name] = "not_available"
            elif kind == "dcgm" and value >= _DCGM_BLANK_INT64:
                dev["na"][field_name] = "not_available"
            else:
                scaled = value * scale
                dev[field_name] = int(round(scaled)) if field_name in _INT_FIELDS else scaled
    out = []
    for dev in devices.values():
        if "memory_total_bytes" not in dev and "memory_used_bytes" in dev and "memory_free_bytes" in dev:
            dev["memory_total_bytes"] = dev["memory_used_bytes"] + dev["memory_free_bytes"] + dev.get("memory_reserved_bytes", 0)
        na: dict[str, NaReason] = dev.pop("na")
        for field_name in fields:
            if field_name not in dev and field_name not in na:
                na[field_name] = "not_available"
        out.append(GpuSample.lenient(t_s=t_s, simulated=simulated, na=na, memory_api="exporter", **dev))
    return out


def _new_exporter_device(labels: Labels, kind: ServerKind, index: str, host: str | None) -> dict:
    if kind == "dcgm":
        name = labels.get("modelName") or None
        profile = labels.get("GPU_I_PROFILE")
        is_mig = bool(labels.get("GPU_I_ID"))
        if is_mig:
            name = f"{name or 'GPU'} MIG {profile}" if profile else f"{name or 'GPU'} MIG"
        return {"source": "dcgm", "index": index, "host": host, "uuid": labels.get("UUID") or None,
                "name": name, "is_mig": is_mig, "na": {}}
    return {"source": "nvitop", "index": index, "host": host, "uuid": labels.get("uuid") or None,
            "name": labels.get("devicename") or None, "is_mig": False, "na": {}}


class RateTracker:
    """Per-second rates of counters between consecutive readings (same clock as the samples)."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[float, float]] = {}

    def update(self, t_s: float, counters: dict[str, float]) -> dict[str, float]:
        rates: dict[str, float] = {}
        for name, value in counters.items():
            prev = self._last.get(name)
            self._last[name] = (t_s, value)
            if prev is None:
                continue
            dt = t_s - prev[0]
            dv = value - prev[1]
            if dt > 0 and dv >= 0:  # dv < 0: the server restarted and its counters began again
                rates[f"{name}_per_s"] = dv / dt
        return rates


def normalise_url(url: str) -> str:
    """``http://host:8000`` → ``http://host:8000/metrics``; raises ValueError for a URL we cannot scrape."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(tr("telemetry.error.bad_url", url=url))
    path = parts.path if parts.path not in ("", "/") else "/metrics"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


@dataclass
class ScrapeResult:
    server: ServerSample
    gpus: list[GpuSample]


MAX_PAGE_BYTES = 16 * 1024 * 1024  # a real /metrics page is ~100 kB; a 200 MB one is refused, not read


class PrometheusScraper:
    """One endpoint, scraped on demand with a sync httpx client; keeps counter history for rates."""

    def __init__(self, url: str, *, timeout_s: float = 2.0, client: httpx.Client | None = None) -> None:
        self.url = normalise_url(url)
        self._own_client = client is None
        self._client = client
        self._timeout_s = timeout_s
        self._rates = RateTracker()

    def close(self) -> None:
        pass  # a client passed in belongs to the caller; our own requests hold no connection

    def __enter__(self) -> PrometheusScraper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def timeout_s(self) -> float:
        return self._timeout_s

    def scrape(self, timeout_s: float | None = None) -> ScrapeResult:
        """One reading. ``timeout_s``: this scrape's limit (default: the scraper's own)."""
        started = time.perf_counter()
        t = now_s()
        timeout = self._timeout_s if timeout_s is None else timeout_s
        if self._own_client:  # our own requests: one wall-clock bound on the whole scrape, the page size-bounded
            try:
                response = bounded_http.request("GET", self.url, total_s=timeout, max_bytes=MAX_PAGE_BYTES)
            except bounded_http.BoundExceeded as exc:
                if exc.kind == "timeout":
                    return self._failed(t, tr("telemetry.error.timeout", url=self.url, seconds=timeout))
                return self._failed(t, tr("telemetry.error.too_large", url=self.url, limit=MAX_PAGE_BYTES // 2**20))
            except (OSError, ValueError, http.client.HTTPException) as exc:
                return self._failed(t, tr("telemetry.error.connect", url=self.url, reason=type(exc).__name__))
            status, text = response.status, response.text
        else:  # a client the caller passed in (tests, an app-wide client): its own limits
            try:
                got = self._client.get(self.url, timeout=timeout)
            except httpx.TimeoutException:
                return self._failed(t, tr("telemetry.error.timeout", url=self.url, seconds=timeout))
            except httpx.HTTPError as exc:
                return self._failed(t, tr("telemetry.error.connect", url=self.url, reason=type(exc).__name__))
            status, text = got.status_code, got.text
        if status != 200:
            return self._failed(t, tr("telemetry.error.http_status", url=self.url, status=status))
        try:
            parsed = parse_metrics_text(text)
        except (ValueError, TypeError, IndexError):
            return self._failed(t, tr("telemetry.error.not_prometheus", url=self.url))
        scrape_ms = (time.perf_counter() - started) * 1000.0
        try:
            return self.from_parsed(parsed, t, scrape_ms)
        except (ValueError, TypeError) as exc:  # metrics we cannot make sense of: a failed scrape, not a crash
            return self._failed(t, tr("telemetry.error.not_prometheus", url=self.url) + f" ({exc})")

    def from_parsed(self, parsed: ParsedMetrics, t_s: float, scrape_ms: float | None = None) -> ScrapeResult:
        kinds = detect_kinds(parsed)
        simulated = is_simulated(parsed)
        gauges, counters = server_figures(parsed, kinds)
        gpus: list[GpuSample] = []
        for kind in ("dcgm", "nvitop"):
            if kind in kinds:
                gpus.extend(exporter_gpus(parsed, kind, t_s, simulated))
        for gpu in gpus:  # flattened so a scrape's JSON shows remote GPUs at a glance
            prefix = f"gpu.{gpu.host + '.' if gpu.host else ''}{gpu.index}"
            for name in ("gpu_util_pct", "memory_used_bytes", "memory_total_bytes", "power_w", "temperature_c"):
                value = getattr(gpu, name)
                if value is not None:
                    gauges[f"{prefix}.{name}"] = float(value)
            if gpu.energy_mj is not None:
                counters[f"{prefix}.energy_mj"] = gpu.energy_mj
        rates = self._rates.update(t_s, counters)
        server = ServerSample(
            t_s=t_s,
            url=self.url,
            ok=True,
            kind=kinds[0] if kinds else "unknown",
            kinds=kinds,
            simulated=simulated,
            scrape_ms=scrape_ms,
            gauges=gauges,
            counters=counters,
            rates=rates,
        )
        return ScrapeResult(server, gpus)

    def _failed(self, t_s: float, message: str) -> ScrapeResult:
        return ScrapeResult(ServerSample(t_s=t_s, url=self.url, ok=False, error=message), [])
