"""One side of an EvalScope task, in a process of its own (``python -m advisor.bench.quality.evalscope_child
CONFIG.json``), so that a Stop ends it at once (the parent terminates it; ``evalscope.run_task`` itself cannot be
interrupted) and EvalScope's logging set-up stays out of the app's process.

CONFIG.json holds ``evalscope.TaskConfig``'s arguments. The API key is not in it (nothing secret is written to
disk): it comes in the environment variable ``ADVISOR_EVALSCOPE_API_KEY``. On failure the last stderr line is
``ADVISOR-TASK-ERROR: <type>: <message>`` and the exit status is 3; the parent turns that into one clear message.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

API_KEY_ENV = "ADVISOR_EVALSCOPE_API_KEY"
ERROR_MARK = "ADVISOR-TASK-ERROR: "


def main(argv: list[str]) -> int:
    args = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    args["api_key"] = os.environ.get(API_KEY_ENV) or "EMPTY"
    try:
        from evalscope import TaskConfig, run_task

        run_task(TaskConfig(**args))
    except Exception as exc:  # the parent says it in one line; EvalScope's own log stays on stderr above it
        message = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]
        print(ERROR_MARK + message, file=sys.stderr, flush=True)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
