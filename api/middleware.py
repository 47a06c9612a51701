"""Pure ASGI middleware: HTTPS redirect and the request body limit."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from services.core.errors import PayloadTooLarge

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k == name:
            return str(v.decode("latin-1"))
    return None


async def _send_json(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] = []) -> None:  # noqa: B006
    raw = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(raw)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": raw})


class HttpsRedirect:
    """Plain-HTTP requests get 308 to HTTPS; ``X-Forwarded-Proto`` counts only from trusted proxies."""

    def __init__(self, app: ASGIApp, *, enabled: bool, trusted: set[str]) -> None:
        self.app, self.enabled, self.trusted = app, enabled, trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Probes and scrapes come over loopback plain HTTP; /metrics decides who it answers itself.
        if not self.enabled or scope["type"] != "http" or scope.get("path") in ("/health", "/health/ready", "/metrics"):
            return await self.app(scope, receive, send)
        scheme = scope.get("scheme", "http")
        client = (scope.get("client") or ("", 0))[0]
        if client in self.trusted:
            fwd = _header(scope, b"x-forwarded-proto")
            if fwd:
                scheme = fwd.split(",")[0].strip()
        if scheme == "https":
            return await self.app(scope, receive, send)
        host = _header(scope, b"host") or "localhost"
        qs = scope.get("query_string", b"").decode("latin-1")
        location = f"https://{host}{scope.get('raw_path', scope['path'].encode()).decode('latin-1')}"
        if qs:
            location += f"?{qs}"
        await _send_json(
            send,
            308,
            {"error": "use HTTPS", "code": "HTTPS_REQUIRED"},
            [(b"location", location.encode("latin-1"))],
        )


class BodyLimit:
    """413 PAYLOAD_TOO_LARGE past the limit, by Content-Length or while streaming.

    Multipart uploads get the (larger) upload limit; every other body the JSON limit.
    """

    def __init__(self, app: ASGIApp, *, json_limit: int, upload_limit: int) -> None:
        self.app, self.json_limit, self.upload_limit = app, json_limit, upload_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        ctype = (_header(scope, b"content-type") or "").lower()
        upload = ctype.startswith("multipart/") or ctype.startswith(("image/", "application/octet-stream"))
        limit = self.upload_limit if upload else self.json_limit
        length = _header(scope, b"content-length")
        too_large = {
            "error": f"request body over {limit} bytes",
            "code": "PAYLOAD_TOO_LARGE",
            "details": {"limit": limit},
        }
        if length is not None and length.isdigit() and int(length) > limit:
            return await _send_json(send, 413, too_large, [(b"connection", b"close")])
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    # Raised inside the route: the error handlers answer 413.
                    raise PayloadTooLarge(f"request body over {limit} bytes", {"limit": limit})
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except PayloadTooLarge:
            if not started:
                await _send_json(send, 413, too_large, [(b"connection", b"close")])
