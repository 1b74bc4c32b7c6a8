"""Logging defaults shared by the CLI and the app.

httpx logs every request at INFO ("HTTP Request: GET http://…/metrics 200 OK"); the GPU panel polls /metrics
several times a second, so with the app's INFO logging the terminal filled with one such line per poll
(354 in a session). Those libraries speak up from WARNING; our own loggers keep INFO.
"""

from __future__ import annotations

import logging

CHATTY_HTTP_LOGGERS = ("httpx", "httpcore")


def quiet_http_loggers() -> None:
    """Hold httpx/httpcore below WARNING whatever the root level is; idempotent."""
    for name in CHATTY_HTTP_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
