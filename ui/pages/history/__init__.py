"""The History page (历史记录), one file per panel: page.py (the page: loading, the open project's scope, the
actions and their dialogs), runs_panel.py (the Runs tab: filters, the table, the action buttons) and
result_panel.py (the Result tab: one stored run and the scored A/B it was a side of). The Compare tab is
ui/widgets/history_compare.py."""

from ui.pages.history.page import HistoryPage
from ui.widgets.history_table import COL  # the column map tests read

__all__ = ["COL", "HistoryPage"]
