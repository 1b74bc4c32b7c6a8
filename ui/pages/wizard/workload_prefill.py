"""Taking the workload over: unknown answers pre-filled from the Sizing page's inputs (marked with where they come
from, confirmed by the user before Next), and the Sizing page and real-server benchmark runs offered as sources
(``advisor.plan.workload``). Never another page's placeholders, never silently.

``WorkloadPrefill`` is a base of the wizard page (it uses the page's ``answers``, ``editors``, ``prefilled``,
``workload`` panel and ``state``).
"""

from __future__ import annotations

import logging
from typing import Any

from advisor.plan.draft import clean_answers, get_path, set_path
from advisor.plan.workload import WORKLOAD_PATHS, run_sources, sizing_source, workload_figures
from ui.pages.wizard.memo_export_flow import MemoExportFlow
from ui.widgets.wizard_fields import FieldEditor
from ui.widgets.wizard_workload import WorkloadPanel

_log = logging.getLogger(__name__)


class WorkloadPrefill(MemoExportFlow):
    answers: dict[str, Any]
    editors: dict[str, FieldEditor]
    prefilled: dict[str, tuple[str, dict[str, Any]]]
    _prefilled_values: dict[str, Any]
    _prefill_done: bool
    workload: WorkloadPanel

    def _load_editors(self) -> None:
        raise NotImplementedError

    def prefill(self) -> None:
        """Unknown answers taken from the open project's Sizing page (marked so, and to be confirmed). Benchmark
        runs are offered on the workload panel, never taken over silently (another page's placeholders are not
        the user's workload)."""
        self._prefill_done = True
        found: dict[str, tuple[Any, tuple[str, dict[str, Any]]]] = {}
        request = self._sizing_request()
        if request is not None:
            origin: tuple[str, dict[str, Any]] = ("wizard.origin.sizing", {})
            model_id = getattr(request.model, "id", None)
            if model_id:
                found["model"] = (model_id, origin)
            source = sizing_source(request)
            for path, value in (source.values if source else {}).items():
                found[path] = (value, origin)
        changed = False
        for path, (value, origin) in found.items():
            if get_path(self.answers, path) is None and path in self.editors:
                set_path(self.answers, path, value)
                self.prefilled[path] = origin
                self._prefilled_values[path] = value
                changed = True
        if changed:
            self.workload.reset_confirm()
            self._load_editors()
        self._refresh_workload_sources()

    def _sizing_request(self) -> Any:
        return self.state.sizing_request() if self.state is not None else None

    def _refresh_workload_sources(self) -> None:
        """Offer the Sizing page and the real-server runs of the benchmark database as workload sources."""
        sources = []
        sizing = sizing_source(self._sizing_request())
        if sizing is not None:
            sources.append(sizing)
        try:
            sources += run_sources()
        except Exception:  # a damaged or locked database: the runs are a convenience, never a failure
            _log.info("benchmark runs unavailable for the workload", exc_info=True)
        self.workload.set_sources(sources)

    def use_workload_source(self, source: Any) -> None:
        """Take ``source``'s figures (replacing the workload answers it has), marked with where they come from;
        the user confirms them before Next."""
        origin = (source.origin_key, dict(source.origin_params))
        for path, value in source.values.items():
            if path not in self.editors:
                continue
            set_path(self.answers, path, value)
            self.prefilled[path] = origin
            self._prefilled_values[path] = value
        self.workload.reset_confirm()
        self._load_editors()
        self.answers_changed.emit()

    def _forget_edited_prefills(self) -> None:
        """A pre-filled answer the user changed is the user's own: no origin, nothing to confirm."""
        for path in list(self.prefilled):
            if get_path(self.answers, path) != self._prefilled_values.get(path):
                self.prefilled.pop(path)
                self._prefilled_values.pop(path, None)
                if path in self.editors:
                    self.editors[path].set_origin(None)

    def _unconfirmed_workload(self) -> list[str]:
        return [] if self.workload.confirmed else [p for p in WORKLOAD_PATHS if p in self.prefilled]

    def _workload_confirmed(self, index: int) -> bool:
        return index != 0 or not self._unconfirmed_workload()

    def _refresh_workload(self) -> None:
        origins = {p: o for p, o in self.prefilled.items() if p in WORKLOAD_PATHS}
        self.workload.set_figures(workload_figures(clean_answers(self.answers), origins))
        self.workload.needs_confirm(bool(origins))
