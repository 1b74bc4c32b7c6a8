"""A judge model on loopback for the A/B's rubric samples: it reads the answer out of the judge's prompt and says
"SCORE: 1" when it names the 30-day deadline, "SCORE: 0" when it does not, and no verdict for "???". Every request
is noted (path, Authorization header, body), so a test can check what the judge was sent."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RUBRIC = {"prompt": "A customer asks how long they have to return a jacket.", "scorer": "rubric",
          "rubric": "names the 30-day return deadline and stays polite", "reference": "You have 30 days."}


class JudgeHandler(BaseHTTPRequestHandler):
    seen: list[dict[str, Any]] = []

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][0]["content"]
        type(self).seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        answer = prompt.rsplit("Answer to grade:", 1)[-1].rsplit("回答：", 1)[-1]
        if "???" in answer:
            reply = "I cannot tell."
        elif "30 days" in answer:
            reply = "It names the deadline. A stricter reading might say SCORE: 0, but it meets the rubric.\nSCORE: 1"
        else:
            reply = "It does not name the deadline.\nSCORE: 0"
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": reply}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def judge_server() -> Iterator[str]:
    """The judge's base URL (…/v1) for the duration of the block; ``JudgeHandler.seen`` starts empty."""
    JudgeHandler.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), JudgeHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
