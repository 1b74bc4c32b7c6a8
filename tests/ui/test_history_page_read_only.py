"""Issue #29 item 1 on the History page: listing the runs writes nothing to the database folder (a run whose
process died is shown interrupted without being marked, its journal is left for the next writer)."""

from __future__ import annotations

from tests.robustness.test_history_read_only import _history_with_a_dead_run_and_a_journal, _state
from ui.pages.history import COL, HistoryPage
from ui.workers import TaskRunner


def test_the_history_page_lists_without_writing(qtbot, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    _done, dead, journal = _history_with_a_dead_run_and_a_journal(db)
    before = _state(folder)
    runner = TaskRunner()
    page = HistoryPage(runner, db_path=db)
    qtbot.addWidget(page)
    try:
        with qtbot.waitSignal(page.listed, timeout=10_000):
            page.show()
        statuses = [page.table.item(r, COL["status"]).text() for r in range(page.table.rowCount())]
        assert page.table.rowCount() == 2
        assert "interrupted" in statuses, statuses
    finally:
        runner.shutdown()
    assert _state(folder) == before and journal.exists()
