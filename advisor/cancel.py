"""One cancel flag for all long work (benchmark runs, UI background tasks, curve predictions).

Engine work is a plain function that takes a ``CancelToken`` and checks it between chunks of work; the UI's
worker helper (``ui/workers.py``) and the CLI hand the same type in, so cancel means one thing everywhere.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


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


# The token of the work running in this thread (or task), for code deep inside it that takes no token argument: the
# plan engine's predictor levels check it (``checkpoint``), so a background plan stops within one level, not after
# a whole plan of up to seconds (the wizard's what-if prewarm, cancelled when a real plan or the window needs the CPU).
_CURRENT: ContextVar[CancelToken | None] = ContextVar("advisor_cancel_token", default=None)


@contextmanager
def cancel_scope(token: CancelToken) -> Iterator[None]:
    """Make ``token`` the one ``checkpoint`` reads inside the ``with`` block (this thread or task only)."""
    reset = _CURRENT.set(token)
    try:
        yield
    finally:
        _CURRENT.reset(reset)


def checkpoint() -> None:
    """Raise ``Cancelled`` when the work around this call was given a token (``cancel_scope``) and it is cancelled."""
    token = _CURRENT.get()
    if token is not None:
        token.raise_if_cancelled()
