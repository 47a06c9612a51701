"""The sender on its own: asyncio's TLS streams under httpcore, connections a receiver closes, the
recorded part of a long answer, and the failures each become an attempt's error class."""

from __future__ import annotations

import asyncio
import ssl
from datetime import UTC, datetime

from services.core.signing import sign
from services.events.delivery import Sender, ssl_context
from services.events.fanout import DeliveryConfig
from services.events.store import BODY_EXCERPT, Job, Result
from tests.api.events.receiver import Certs


def job(url: str, n: int = 1) -> Job:
    return Job(
        delivery_id=f"d{n}",
        claim_token="t",
        tenant_id="tenant",
        subscription_id="s",
        url=url,
        secrets=("k",),
        event_type="order.shipped",
        kind="event",
        number=1,
        max_attempts=5,
        body=b'{"n":%d}' % n,
    )


def now() -> datetime:
    return datetime.now(UTC)


def test_closed_keep_alive_connections_are_replaced_and_long_answers_cut_to_the_excerpt(certs: Certs) -> None:
    """A receiver that answers once per connection and hangs up (no "Connection: close"): each next
    delivery sees the closed connection and dials again instead of failing on it."""
    seen: list[bytes] = []
    connections = 0

    async def main() -> list[Result]:
        closed = asyncio.Event()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal connections
            connections += 1
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
            seen.append(head + await reader.readexactly(length))
            # Short answers (read to the end: the connection could be kept), then a long one.
            body = b"x" * (BODY_EXCERPT + 1000) if connections == 3 else b"ok"
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
            writer.close()
            await writer.wait_closed()
            closed.set()

        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(str(certs.server))
        server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_ctx)
        port = server.sockets[0].getsockname()[1]
        sender = Sender(DeliveryConfig(allow_private=True, timeout=5.0, http2=False), ssl_context(str(certs.ca)))
        out = []
        try:
            for n in range(3):
                closed.clear()
                out.append(await sender.send(job(f"https://127.0.0.1:{port}/hook?x=1", n), now))
                if out[-1].status_code != 200:
                    break
                await closed.wait()  # the receiver has hung up before the next delivery
        finally:
            await sender.aclose()
            server.close()
        return out

    results = asyncio.run(main())
    assert [(r.status_code, r.error_class) for r in results] == [(200, None)] * 3
    assert connections == 3 and [len(r.response_body) for r in results] == [2, 2, BODY_EXCERPT]
    first = seen[0].split(b"\r\n\r\n")[0].decode().split("\r\n")
    assert first[0] == "POST /hook?x=1 HTTP/1.1"
    headers = dict(line.split(": ", 1) for line in first[1:])
    assert headers["Host"] == f"127.0.0.1:{headers['Host'].split(':')[1]}" and headers["Content-Length"] == "7"
    assert headers["X-Service-Signature"] == sign("k", b'{"n":0}') and headers["X-Service-Retry-Count"] == "0"


def test_untrusted_certificate_refused_port_and_plain_http_are_attempt_errors(certs: Certs) -> None:
    async def main() -> list[Result]:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.close()

        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(str(certs.server))
        server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_ctx)
        port = server.sockets[0].getsockname()[1]
        closed = socket_port()
        # Trusts only the system's CAs, not the test CA that signed the receiver's certificate.
        sender = Sender(DeliveryConfig(allow_private=True, timeout=5.0), ssl_context(None))
        try:
            return [
                await sender.send(job(f"https://127.0.0.1:{port}/"), now),
                await sender.send(job(f"https://127.0.0.1:{closed}/"), now),
                await sender.send(job(f"http://127.0.0.1:{port}/"), now),
            ]
        finally:
            await sender.aclose()
            server.close()

    tls, refused, plain = asyncio.run(main())
    assert tls.error_class == "tls_error" and tls.status_code is None
    assert refused.error_class == "connection_error"
    assert plain.error_class == "blocked_address"


def socket_port() -> int:
    """A port nothing listens on."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
