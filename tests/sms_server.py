"""A small SMS provider on loopback for the campaign tests: POST {"to", "body"} as JSON, kept in order.

A number in ``refuse`` is answered 422 (the provider refuses it), as real providers do for
invalid numbers.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        server: Any = self.server
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"{}")
        if body.get("to") in server.refuse:
            self.send_response(422)
            self.end_headers()
            self.wfile.write(b'{"error":"invalid number"}')
            return
        server.messages.append(body)
        self.send_response(201)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"id": f"sms-{len(server.messages)}", "status": "queued"}).encode())


class SmsServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.messages: list[dict[str, Any]] = []
        self.refuse: set[str] = set()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/messages"

    def __enter__(self) -> SmsServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
