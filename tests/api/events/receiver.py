"""A real HTTPS webhook receiver on 127.0.0.1 (uvicorn + trustme certificates) that records requests.

Used by the events tests and by tests/bench/bench_events.py (``python -m tests.api.events.receiver``
runs it in its own process and prints ``ready <port>``).
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trustme
import uvicorn


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float
    http_version: str = "1.1"  # uvicorn speaks HTTP/1.1 only: what an h1-only receiver sees


@dataclass
class Reply:
    status: int = 200
    body: bytes = b"ok"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Certs:
    ca: Path  # PEM of the CA: PLATFORM_WEBHOOK_CA_BUNDLE
    server: Path  # key + chain for the receiver


def make_certs(directory: Path) -> Certs:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    directory.mkdir(parents=True, exist_ok=True)
    ca_path, server_path = directory / "ca.pem", directory / "server.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    cert.private_key_and_cert_chain_pem.write_to_path(str(server_path))
    return Certs(ca_path, server_path)


class Receiver:
    """Records every request; ``script(path, replies)`` sets the answers per path (the last one repeats)."""

    def __init__(self, certs: Certs, *, record: bool = True) -> None:
        self.certs = certs
        self.record = record
        self.requests: list[Received] = []
        self.count = 0
        self.replies: dict[str, list[Reply]] = {}
        self._lock = threading.Lock()
        self.server: uvicorn.Server | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def script(self, path: str, *replies: Reply) -> str:
        with self._lock:
            self.replies[path] = list(replies)
        return self.url + path

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.replies.clear()
            self.count = 0

    def hits(self, path: str) -> list[Received]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def wait_for(self, n: int, path: str | None = None, timeout: float = 5.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while True:
            got = self.hits(path) if path else list(self.requests)
            if len(got) >= n or time.monotonic() > deadline:
                return got
            time.sleep(0.005)

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope["type"] == "lifespan":
            while True:
                msg = await receive()
                if msg["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif msg["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = await read_body(receive)
        path = scope["path"]
        if path == "/_count":
            await _answer(send, Reply(200, str(self.count).encode()))
            return
        if path == "/_wait":
            # Long poll: answers once ``n`` requests have arrived (or after two minutes), so a
            # benchmark waits with one request instead of polling from the process it measures.
            want = int(dict(p.split(b"=", 1) for p in scope["query_string"].split(b"&") if b"=" in p).get(b"n", 0))
            deadline = time.monotonic() + 120
            while self.count < want and time.monotonic() < deadline:
                await asyncio.sleep(0.001)
            await _answer(send, Reply(200, str(self.count).encode()))
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        with self._lock:
            self.count += 1
            if self.record:
                self.requests.append(Received(path, headers, body, time.monotonic(), scope.get("http_version", "")))
            plan = self.replies.get(path)
            reply = (plan.pop(0) if len(plan) > 1 else plan[0]) if plan else Reply()
        if reply.delay:
            await asyncio.sleep(reply.delay)
        await _answer(send, reply)

    def config(self) -> uvicorn.Config:
        """HTTPS on a free port of 127.0.0.1, quiet."""
        return uvicorn.Config(
            self,
            host="127.0.0.1",
            port=0,
            log_level="error",
            access_log=False,
            ssl_certfile=str(self.certs.server),
            ssl_keyfile=str(self.certs.server),
            lifespan="on",
        )

    def start(self) -> Receiver:
        self.server = uvicorn.Server(self.config())
        threading.Thread(target=self.server.run, daemon=True).start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("receiver did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True


async def read_body(receive: Any) -> bytes:
    """The whole request body of an ASGI http scope."""
    body = b""
    while True:
        msg = await receive()
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            return body


async def _answer(send: Callable[..., Any], reply: Reply) -> None:
    headers = [(b"content-type", b"text/plain")] + [(k.encode(), v.encode()) for k, v in reply.headers.items()]
    await send({"type": "http.response.start", "status": reply.status, "headers": headers})
    await send({"type": "http.response.body", "body": reply.body})


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--certs", required=True, help="directory with server.pem (written by make_certs)")
    args = p.parse_args()
    d = Path(args.certs)
    rec = Receiver(Certs(d / "ca.pem", d / "server.pem"), record=False)
    server = uvicorn.Server(rec.config())

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        print("ready", server.servers[0].sockets[0].getsockname()[1], flush=True)
        await task

    asyncio.run(run())


if __name__ == "__main__":
    main()
