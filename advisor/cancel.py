"""One cancel flag for all long work (benchmark runs, UI background tasks, curve predictions).

Engine work is a plain function that takes a ``CancelToken`` and checks it between chunks of work; the UI's
worker helper (``ui/workers.py``) and the CLI hand the same type in, so cancel means one thing everywhere.
"""

from __future__ import annotations

import threading


class Cancelled(Exception):
    """Raised inside work by ``CancelToken.raise_if_cancelled`` to stop early."""


class CancelToken:
    """Thread-safe cancel flag shared by the caller and the work."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()
