"""A local stand-in for Cloudflare Turnstile's siteverify endpoint (the outside world we cannot run)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs

SECRET = "s3cret"
GOOD_TOKENS = frozenset({"good-token", "human"})


class FakeSiteverify(BaseHTTPRequestHandler):
    """Answers like siteverify: success for the shared secret, a good token and the client's IP."""

    seen: list[dict[str, list[str]]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        FakeSiteverify.seen.append(form)
        token = (form.get("response") or [""])[0]
        ok = form.get("secret") == [SECRET] and token in GOOD_TOKENS and "remoteip" in form
        body = json.dumps({"success": ok, "error-codes": [] if ok else ["invalid-input-response"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def siteverify_server() -> Iterator[str]:
    httpd = HTTPServer(("127.0.0.1", 0), FakeSiteverify)
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/turnstile/v0/siteverify"
    finally:
        httpd.shutdown()
        th.join(2)
