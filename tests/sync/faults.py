"""A real HTTP proxy in front of the platform that misbehaves on demand.

Modes: ``pass`` (forward), ``500`` (answer 500), ``hang`` (never answer),
``truncate`` (forward, then cut the answer short after its headers). The
station's engine talks to it exactly as to a platform.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import uvicorn

from tests.api.events.receiver import read_body


class FaultProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.mode = "pass"
        self.seen: list[str] = []
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=0,
                log_level="warning",
                access_log=False,
                lifespan="off",
                interface="asgi3",
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.release = threading.Event()

    async def app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        body = await read_body(receive)
        mode = self.mode
        self.seen.append(f"{mode} {scope['method']} {scope['path']}")
        if mode == "500":
            await send({"type": "http.response.start", "status": 500, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"upstream failure"})
            return
        if mode == "hang":
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            return
        headers = {k.decode(): v.decode() for k, v in scope["headers"] if k.lower() not in (b"host", b"content-length")}
        url = self.upstream + scope["path"] + ("?" + scope["query_string"].decode() if scope["query_string"] else "")
        async with httpx.AsyncClient(timeout=30) as http:
            r = await http.request(scope["method"], url, headers=headers, content=body)
        out = [
            (k.encode(), v.encode())
            for k, v in r.headers.items()
            if k.lower() not in ("content-length", "content-encoding", "transfer-encoding")
        ]
        content = r.content
        out.append((b"content-length", str(len(content)).encode()))
        await send({"type": "http.response.start", "status": r.status_code, "headers": out})
        if mode == "truncate":
            # The platform did the work; the station gets half an answer and a closed connection.
            await send({"type": "http.response.body", "body": content[: len(content) // 2], "more_body": True})
            raise ConnectionError("cut off")
        await send({"type": "http.response.body", "body": content})

    def start(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("proxy did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    def stop(self) -> None:
        self.release.set()
        self.server.should_exit = True
        self.thread.join(timeout=10)
