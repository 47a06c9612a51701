"""A small e-commerce shop on loopback that speaks the ``generic`` provider's protocol (DECISIONS, Tax)
and misbehaves on purpose: it throttles, answers forced 429s, and sometimes applies a write and then
answers 500 (so the caller cannot know whether it landed).

    GET /account                -> {"name"}                       (Bearer key checked)
    GET /products/{sku}         -> the product or 404
    PUT /products/{sku}         -> create (201) or replace (200) the product with that SKU
    GET /products               -> every record held (for the tests' count of duplicates)
    GET /orders?since=&page=    -> {"data": [{id, date, state, amount, shipping, tax, exempt}], "next_page"}
    GET /refunds?since=&page=   -> the same with order_id (Tax's transaction sync)

The same server stands in for the tax service (its check call is the same ``GET /account``).

Used by tests and by tests/bench/bench_catalog.py; never a mock of our client.
"""

from __future__ import annotations

import json
import math
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote


@dataclass
class ShopBehaviour:
    rate: float = 50.0  # requests per second before it answers 429
    retry_after: int = 1  # seconds, in the 429's Retry-After
    force_429_every: int = 0  # every n-th request is refused with 429 (0: never)
    apply_then_500_every: int = 0  # every n-th PUT is applied, then answered 500 (0: never)
    api_key: str = "shop-key-1"
    account_name: str = "Demo Shop"
    page_size: int = 500  # orders and refunds per page


@dataclass
class ShopState:
    records: list[dict[str, Any]] = field(default_factory=list)  # as created: a duplicate would show here
    requests: int = 0
    puts: int = 0
    throttled: int = 0  # 429s answered (limit or forced)
    early: int = 0  # requests that came before the Retry-After the shop gave had passed
    failed_after_apply: int = 0
    writes_by_sku: dict[str, int] = field(default_factory=dict)
    orders: list[dict[str, Any]] = field(default_factory=list)
    refunds: list[dict[str, Any]] = field(default_factory=list)


class Shop:
    def __init__(self, behaviour: ShopBehaviour | None = None) -> None:
        self.behaviour = behaviour or ShopBehaviour()
        self.state = ShopState()
        self.lock = threading.Lock()
        self._window: list[float] = []
        self._not_before = 0.0
        shop = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's names
                shop.handle(self, "GET")

            def do_PUT(self) -> None:  # noqa: N802
                shop.handle(self, "PUT")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> Shop:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def by_sku(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for r in self.state.records:
            out.setdefault(r["sku"], []).append(r)
        return out

    # --- the protocol ------------------------------------------------------------------------------

    def _throttle(self) -> bool:
        """True when this request is refused with 429 (rate over the limit, or forced)."""
        b, st, now = self.behaviour, self.state, time.monotonic()
        if now < self._not_before:
            st.early += 1
        self._window = [t for t in self._window if now - t < 1.0]
        forced = b.force_429_every > 0 and st.requests % b.force_429_every == 0
        # The limit counts requests it accepts within the last second (a token bucket of size rate).
        if forced or len(self._window) >= math.ceil(b.rate):
            st.throttled += 1
            self._not_before = max(self._not_before, now + b.retry_after)
            return True
        self._window.append(now)
        return False

    def handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        with self.lock:
            self.state.requests += 1
            if h.headers.get("Authorization") != f"Bearer {self.behaviour.api_key}":
                return self._send(h, 401, {"error": "bad key"})
            if self._throttle():
                return self._send(h, 429, {"error": "slow down"}, {"Retry-After": str(self.behaviour.retry_after)})
            path, _, qs = h.path.partition("?")
            if method == "GET" and path == "/account":
                return self._send(h, 200, {"name": self.behaviour.account_name, "plan": "basic"})
            if method == "GET" and path in ("/orders", "/refunds"):
                q = parse_qs(qs)
                since = (q.get("since") or [""])[0]
                page = int((q.get("page") or ["1"])[0])
                rows = self.state.orders if path == "/orders" else self.state.refunds
                rows = [r for r in rows if not since or r["date"] >= since]
                size = self.behaviour.page_size
                chunk = rows[(page - 1) * size : page * size]
                more = page * size < len(rows)
                return self._send(h, 200, {"data": chunk, "next_page": page + 1 if more else None})
            if method == "GET" and path == "/products":
                return self._send(h, 200, {"data": self.state.records})
            if path.startswith("/products/"):
                sku = unquote(path[len("/products/") :])
                found = next((r for r in self.state.records if r["sku"] == sku), None)
                if method == "GET":
                    return self._send(h, 200, found) if found else self._send(h, 404, {"error": "not found"})
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self._send(h, 400, {"error": "not JSON"})
                if not isinstance(body, dict) or body.get("sku") != sku or not body.get("name"):
                    return self._send(h, 422, {"error": "sku and name are required"})
                self.state.puts += 1
                self.state.writes_by_sku[sku] = self.state.writes_by_sku.get(sku, 0) + 1
                created = found is None
                if created:
                    found = {"id": f"shop-{uuid.uuid4().hex[:12]}"}
                    self.state.records.append(found)
                found.update({k: v for k, v in body.items() if k != "id"})
                b = self.behaviour
                if b.apply_then_500_every and self.state.puts % b.apply_then_500_every == 0:
                    self.state.failed_after_apply += 1
                    return self._send(h, 500, {"error": "database hiccup"})
                return self._send(h, 201 if created else 200, found)
            return self._send(h, 404, {"error": "no such route"})

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)
