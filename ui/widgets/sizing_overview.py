"""The overview of one estimate: the answer in words, the memory bar, every number with its formula, the
compute-vs-bandwidth explanation, the advice with engine flags, and the command to copy."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from advisor.domain.sizing import SizingResult
from advisor.i18n import tr
from advisor.sizing.accuracy import accuracy_sentence, likely_sentence, load_of, speculative_basis_note
from advisor.sizing.memory import kv_heads_per_gpu
from advisor.sizing_curve import likely_at_requested
from advisor.units import (
    format_bandwidth,
    format_bytes,
    format_context,
    format_count,
    format_gib,
    format_ms,
    format_params,
    format_tflops,
    format_tokens,
    format_tokens_per_s,
)
from ui.widgets.memory_bar import MemoryBar, Segment
from ui.widgets.stale import StaleMark

ERROR_STYLE = "color: #c62828"
OK_STYLE = "color: #2e7d32"

MEMORY_NUMBERS = (
    "params", "weights", "kv_per_token", "kv_per_request", "kv_cache", "overhead", "total", "kv_capacity",
    "max_concurrency", "max_context",
)  # fmt: skip
SPEED_NUMBERS = ("ttft", "decode_user", "decode_total", "decode_step", "steady_tpot", "steady_total", "e2e", "gpu_peak")
# Names that say which assumption each figure makes (decode alone vs users back-to-back, as on the curve).
NAME_KEYS = {
    "decode_total": "sizing.num.decode_total", "decode_step": "sizing.num.decode_step",
    "steady_tpot": "sizing.num.steady_tpot", "steady_total": "sizing.num.steady_total",
}  # fmt: skip


def _value_label() -> QLabel:
    label = QLabel("—")
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class SizingOverview(QWidget):
    message = Signal(str)  # for the status bar

    MEMORY_NUMBERS = MEMORY_NUMBERS
    SPEED_NUMBERS = SPEED_NUMBERS

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        col = QVBoxLayout(self)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        font = self.verdict.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.verdict.setFont(font)
        self.memory_title = QLabel()
        self.memory_title.setObjectName("memoryTitle")
        self.memory_bar = MemoryBar()

        grid_box = QWidget()
        grid = QGridLayout(grid_box)
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(3)
        self.number_names: dict[str, QLabel] = {}
        self.numbers: dict[str, QLabel] = {}
        self.memory_heading, self.speed_heading = QLabel(), QLabel()
        for heading in (self.memory_heading, self.speed_heading):
            f = heading.font()
            f.setBold(True)
            heading.setFont(f)
        grid.addWidget(self.memory_heading, 0, 0, 1, 2)
        grid.addWidget(self.speed_heading, 0, 2, 1, 2)
        for column, keys in ((0, self.MEMORY_NUMBERS), (2, self.SPEED_NUMBERS)):
            for row, key in enumerate(keys, start=1):
                name = QLabel()
                value = _value_label()
                value.setObjectName(f"value_{key}")
                self.number_names[key] = name
                self.numbers[key] = value
                grid.addWidget(name, row, column)
                grid.addWidget(value, row, column + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        # the regime's likely range at the chosen load (issue #28): from the predicted curve, which arrives after the
        # overview's figures; the expected-error sentence stays in the explanation beneath
        self.likely = QLabel()
        self.likely.setObjectName("likelyRange")
        self.likely.setWordWrap(True)
        self.likely.hide()
        self._likely_for: tuple[Any, Any] | None = None  # (the request the overview showed, its predicted curve)
        self._shown_request: Any = None
        self.explanation = QLabel()
        self.explanation.setObjectName("explanation")
        self.explanation.setWordWrap(True)
        self.advice_heading = QLabel()
        f = self.advice_heading.font()
        f.setBold(True)
        self.advice_heading.setFont(f)
        self.advice = QLabel()
        self.advice.setObjectName("advice")
        self.advice.setWordWrap(True)
        self.advice.setTextFormat(Qt.TextFormat.RichText)
        self.advice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.command = QPlainTextEdit()
        self.command.setObjectName("command")
        self.command.setReadOnly(True)
        self.command.setMaximumHeight(64)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.command.setFont(mono)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self._copy_command)
        cmd_row = QHBoxLayout()
        cmd_row.addWidget(self.command, 1)
        cmd_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)

        col.addWidget(self.verdict)
        col.addWidget(self.memory_title)
        col.addWidget(self.memory_bar)
        # the speed of a setup that does not fit as asked is greyed and says so: it read as the speed to expect
        self.speed_mark = StaleMark([self.numbers[k] for k in self.SPEED_NUMBERS])
        self.speed_mark.note.setObjectName("speedNotFit")
        col.addWidget(grid_box)
        col.addWidget(self.speed_mark.note)
        col.addWidget(self.likely)
        col.addWidget(self.explanation)
        col.addWidget(self.advice_heading)
        col.addWidget(self.advice)
        col.addLayout(cmd_row)
        col.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        self.memory_heading.setText(tr("ui.sizing.memory_heading"))
        self.speed_heading.setText(tr("ui.sizing.speed_heading"))
        for key, label in self.number_names.items():
            label.setText(tr(NAME_KEYS.get(key, f"ui.num.{key}")))
        self.advice_heading.setText(tr("ui.sizing.advice_heading"))
        self.copy_button.setText(tr("ui.sizing.copy"))
        self._render_likely()

    def show_likely(self, prediction: Any) -> None:
        """The predicted curve for the request the overview shows (None: none could be predicted)."""
        self._likely_for = (self._shown_request, prediction) if prediction is not None else None
        self._render_likely()

    def _render_likely(self) -> None:
        at, likely = likely_at_requested(self._likely_for[1]) if self._likely_for else (None, None)
        text = likely_sentence(likely, concurrency=at.concurrency) if at is not None else ""
        if text and self._likely_for is not None:  # the curve is the one without speculative decoding: say so, as calc does
            if note := speculative_basis_note(getattr(self._likely_for[0], "speculative", None), simulated=False):
                text += " " + note
        self.likely.setText(text)
        self.likely.setVisible(bool(text))

    def set_theme(self, dark: bool) -> None:
        self.memory_bar.set_theme(dark)

    def show_result(self, res: SizingResult) -> None:
        req, mem, perf = res.request, res.memory, res.perf
        self._shown_request = req
        if self._likely_for is not None and self._likely_for[0] != req:  # another request's curve: not this one's range
            self._likely_for = None
            self._render_likely()
        ctx = format_context(req.context)
        # the answer in words: the core's own sentence (the CLI prints the same), else ours
        headline = next((a for a in res.advice if a.kind in ("fits", "does_not_fit")), None)
        if headline is not None:
            verdict = headline.text
        elif mem.fits:
            verdict = tr("ui.sizing.verdict_fits", n=format_count(mem.max_concurrency), context=ctx)
        elif not mem.weights_fit:
            verdict = tr("ui.sizing.verdict_weights", gpus=req.gpus, gpu=req.gpu.name)
        else:
            verdict = tr("ui.sizing.verdict_kv", n=req.concurrency, context=ctx, max=format_count(mem.max_concurrency))
        self.verdict.setText(verdict)
        self.verdict.setStyleSheet(OK_STYLE if res.verdict == "fits" else ERROR_STYLE)  # never green when the engine refuses
        self.speed_mark.set_stale(None if res.verdict == "fits" else tr("ui.sizing.speed_not_fit", n=req.concurrency,
                                                                       gpus=req.gpus, gpu=req.gpu.name))
        # memory bar
        parts = {item.key: item for item in mem.breakdown}

        def part(key: str) -> int:
            return parts[key].bytes if key in parts else 0

        cuda_keys = ("cuda_context", "cuda_graphs", "non_torch")
        cuda_formula = "\n".join(f"{format_bytes(part(k))}: {parts[k].formula}" for k in cuda_keys if k in parts)
        segments = [
            Segment("weights", part("weights"), tr("ui.mem.weights"), self._tip("weights", parts)),
            Segment("kv_cache", part("kv_cache"), tr("ui.mem.kv_cache"), self._tip("kv_cache", parts)),
            Segment("activations", part("activations"), tr("ui.mem.activations"), self._tip("activations", parts)),
            Segment("cuda", sum(part(k) for k in cuda_keys), tr("ui.mem.cuda"), cuda_formula),
            Segment("free", part("free"), tr("ui.mem.free"), self._tip("free", parts)),
        ]
        if "held_back" in parts:  # vLLM's unused share: the bar's total then ends where the verdict says it does
            segments.insert(-1, Segment("held_back", part("held_back"), tr("sglcmd18.mem.held_back"), self._tip("held_back", parts)))
        self.memory_bar.set_data(
            segments, req.gpus, mem.gpu_memory_bytes, tr("ui.mem.axis"), tr("ui.mem.row_label")
        )
        estimated = res.gpu_memory_basis == "estimate"  # the 98.5 % rule: say so, never show it as the card's figure
        self.memory_title.setText(
            tr("ui.mem.title_estimated" if estimated else "ui.mem.title", gpus=req.gpus, gpu=req.gpu.name,
               memory=format_gib(mem.gpu_memory_bytes))
        )
        self.memory_title.setToolTip(res.gpu_memory_note)
        # numbers, each with its formula and inputs
        n = self.numbers
        params = format_params(mem.params_total)
        if mem.params_active != mem.params_total:
            params = f"{format_params(mem.params_active)} / {params}"
        self._set(n["params"], params, tr("ui.tip.params", total=format_count(mem.params_total), active=format_count(mem.params_active)))
        self._set(n["weights"], format_gib(mem.weights_bytes), self._tip("weights", parts) + "\n" + tr("ui.tip.per_gpu", gpus=req.gpus))
        self._set(
            n["kv_per_token"],
            format_bytes(mem.kv_bytes_per_token),
            tr("sizing.tip.kv_per_token", bytes=format_count(mem.kv_bytes_per_token), attention=req.model.attention_kind,
               layers=req.model.num_layers, kv_heads=req.model.num_kv_heads, head_dim=req.model.head_dim, dtype=req.kv_dtype.upper(),
               gpus=req.gpus, per_gpu=kv_heads_per_gpu(req.model, req.gpus), bytes_per=2 if req.kv_dtype != "fp8" else 1),
        )  # fmt: skip
        self._set(
            n["kv_per_request"], format_gib(mem.kv_bytes_per_request, 2),
            tr("ui.tip.kv_per_request", context=format_tokens(req.context), per_token=format_bytes(mem.kv_bytes_per_token),
               block=mem.block_size)
            + ("\n" + tr("sizing.tip.kv_per_request_shared", unshared=format_gib(mem.kv_bytes_per_request_unshared, 2),
                          blocks=format_count(mem.shared_prefix_blocks), shared=format_gib(mem.kv_bytes_shared_prefix, 2))
               if mem.shared_prefix_blocks else ""),
        )  # fmt: skip
        self._set(n["kv_cache"], format_gib(mem.kv_cache_bytes), self._tip("kv_cache", parts))
        self._set(
            n["overhead"], format_gib(mem.overhead_bytes),
            tr("ui.tip.overhead") + "\n" + self._tip("activations", parts) + "\n" + cuda_formula,
        )  # fmt: skip
        self._set(
            n["total"], f"{format_gib(mem.total_bytes)} / {format_gib(mem.gpu_memory_bytes)}",
            # SGLang's budget is its share of the free memory before loading, not gpu_memory_utilization of the total
            (res.kv_pool_note or tr("ui.tip.total", util=req.engine.gpu_memory_utilization, budget=format_gib(mem.engine_budget_bytes),
                                    memory=format_gib(mem.gpu_memory_bytes))) + "\n" + res.gpu_memory_note,
        )  # fmt: skip
        self._set(
            # SGLang's sliding-window models have two pools: the full-attention layers' tokens and the windowed ones'
            n["kv_capacity"], format_tokens(mem.kv_tokens) if mem.sglang_swa_tokens is None else
            tr("sizing19_sglswa.kv_capacity_swa", full=format_tokens(mem.kv_tokens), swa=format_tokens(mem.sglang_swa_tokens)),
            tr("ui.tip.kv_capacity", budget=format_gib(mem.kv_budget_bytes), per_token=format_bytes(mem.kv_bytes_per_token),
               blocks=format_count(mem.kv_blocks), block=mem.block_size) + (f"\n{res.kv_pool_note}" if res.kv_pool_note else ""),
        )  # fmt: skip
        self._set(
            n["max_concurrency"], tr("ui.unit.requests", n=format_count(mem.max_concurrency)),
            tr("ui.tip.max_concurrency", tokens=format_count(mem.kv_tokens), context=format_count(req.context),
               kv_n=format_count(mem.max_concurrency_kv), seqs=res.engine.max_num_seqs, limit=tr(f"ui.limit.{mem.limited_by}")),
        )  # fmt: skip
        self._set(
            n["max_context"], format_tokens(mem.max_context),
            tr("ui.tip.max_context", tokens=format_count(mem.kv_tokens), n=req.concurrency, model_max=format_count(req.model.max_context)),
        )  # fmt: skip
        factors = perf.formula.get("factors", "")
        self._set(
            n["ttft"], self._range(perf.ttft_ms or perf.prefill_ms, format_ms),
            tr("ui.tip.ttft", prompt=format_tokens(perf.prompt_tokens), bound=tr(f"ui.bound.{perf.prefill_bound}"))
            + "\n" + tr("sizing.tip.ttft_parts", prefill=format_ms(perf.prefill_ms.value),
                        overhead=format_ms(perf.request_overhead_ms), engine=perf.engine_profile)
            + "\n" + perf.formula.get("prefill", "") + "\n" + factors,
        )  # fmt: skip
        if perf.steady_tpot_ms is not None and perf.steady_tokens_per_s_total is not None:
            steady_tip = tr("sizing.tip.steady", n=req.concurrency) + "\n" + perf.formula.get("steady", "")
            self._set(n["steady_tpot"], self._range(perf.steady_tpot_ms, format_ms), steady_tip)
            self._set(n["steady_total"], self._range(perf.steady_tokens_per_s_total, format_tokens_per_s), steady_tip)
        self._set(
            n["decode_user"], self._range(perf.decode_tokens_per_s, format_tokens_per_s),
            tr("ui.tip.decode_user", n=req.concurrency, bound=tr(f"ui.bound.{perf.decode_bound}"))
            + "\n" + perf.formula.get("decode", "") + "\n" + factors,
        )  # fmt: skip
        self._set(
            n["decode_total"], self._range(perf.decode_tokens_per_s_total, format_tokens_per_s),
            tr("ui.tip.decode_total", n=req.concurrency),
        )
        self._set(
            n["decode_step"], self._range(perf.decode_step_ms, format_ms),
            tr("ui.tip.decode_step", n=req.concurrency) + "\n" + perf.formula.get("decode", ""),
        )  # fmt: skip
        self._set(
            n["e2e"], self._range(perf.e2e_ms, format_ms),
            tr("ui.tip.e2e", prompt=format_tokens(perf.prompt_tokens), output=format_tokens(perf.output_tokens)),
        )
        self._set(
            n["gpu_peak"],
            f"{format_tflops(perf.compute_flops_per_s / 1e12)} · {format_bandwidth(perf.bandwidth_bytes_per_s)}",
            tr("ui.tip.gpu_peak", gpus=req.gpus) + "\n" + factors,
        )
        accuracy = accuracy_sentence(perf.accuracy, engine=perf.engine_profile, gpu=req.gpu, load=load_of(req.concurrency))
        # compute vs bandwidth, in words
        words = {"prompt": format_count(perf.prompt_tokens), "weights": format_gib(mem.weights_bytes), "n": req.concurrency,
                 "bandwidth": format_bandwidth(perf.bandwidth_bytes_per_s)}  # fmt: skip
        if perf.front_end_tokens_per_s:
            words |= {"rate": format_tokens_per_s(perf.front_end_tokens_per_s), "us": f"{1e6 / perf.front_end_tokens_per_s:.0f}"}
        self.explanation.setText(
            tr(f"ui.sizing.explain_prefill.{perf.prefill_bound}", **words)
            + " "
            + tr(f"ui.sizing.explain_decode.{perf.decode_bound}", **words)
            + (" " + tr("ui.sizing.explain_moe", engine=tr(f"sizing.engine_profile.{perf.engine_profile}"),
                        share=f"{perf.expert_share_of_peak:.0%}", dense=f"{perf.gemm_share_of_peak or 0:.0%}")
               if perf.expert_share_of_peak else "")
            + "\n"
            # the workload every figure on the page (and the curve) assumes, in words
            + tr("sizing.assumptions", prompt=format_count(perf.prompt_tokens), output=format_count(perf.output_tokens),
                 context=format_count(req.context), n=req.concurrency)
            + (" " + tr("sizing.engine_version_note", engine=tr(f"sizing.engine_profile.{perf.engine_profile}"),
                        version=req.factors.engine_version) if req.factors.engine_version else "")
            + ("\n" + res.shared_prefix_note if res.shared_prefix_note else "")
            # what to expect of every predicted figure above: the error measured against public measurements
            + ("\n" + accuracy if accuracy else "")
        )  # fmt: skip
        # advice and engine flags
        items = []
        for advice in res.advice:
            if advice is headline and not advice.flags:
                continue  # already the headline
            text = html.escape(advice.text)
            if advice.flags:
                text += f' <code style="background: rgba(127,127,127,0.18)">{html.escape(advice.flags)}</code>'
            items.append(f"<li>{text}</li>")
        self.advice.setText(f"<ul style='margin-left:-20px'>{''.join(items)}</ul>" if items else "")
        self.advice.setVisible(bool(items))
        commands = [c for c in (res.vllm_command, res.sglang_command, res.llama_cpp_command) if c]
        self.command.setPlainText("\n".join(commands))
        self.command.setVisible(bool(commands))
        self.copy_button.setVisible(bool(commands))

    def _range(self, r, fmt) -> tuple[str, str]:
        """The value shown, and the low–high range of the efficiency factors for its tooltip."""
        return fmt(r.value), tr("ui.tip.range", low=fmt(r.low), high=fmt(r.high))

    def _set(self, label: QLabel, text: str | tuple[str, str], tooltip: str) -> None:
        if isinstance(text, tuple):
            text, range_line = text
            tooltip = f"{range_line}\n{tooltip}"
        label.setText(text)
        label.setToolTip(tooltip.strip())
        for key, value in self.numbers.items():
            if value is label:
                self.number_names[key].setToolTip(tooltip.strip())

    def _tip(self, key: str, parts: dict[str, Any]) -> str:
        item = parts.get(key)
        if item is None:
            return ""
        return f"{format_bytes(item.bytes)} = {item.formula}"

    def _copy_command(self) -> None:
        QGuiApplication.clipboard().setText(self.command.toPlainText())
        self.message.emit(tr("ui.sizing.copied"))
