"""A real HTTPS webhook receiver that speaks HTTP/2 only (the ``h2`` library on asyncio, after its
server example): TLS offers ``h2`` alone in ALPN, so a request that arrives came over HTTP/2.

Runs on its own event loop in a thread; records path, headers, body and the negotiated protocol.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from dataclasses import dataclass
from typing import Any

import h2.config
import h2.connection
import h2.events

from tests.api.events.receiver import Certs


@dataclass
class H2Received:
    path: str
    headers: dict[str, str]
    body: bytes
    alpn: str | None


class _Protocol(asyncio.Protocol):
    def __init__(self, owner: H2Receiver) -> None:
        self.owner = owner
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.transport: asyncio.Transport | None = None
        self.streams: dict[int, tuple[dict[str, str], bytearray]] = {}
        self.alpn: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        ssl_obj = transport.get_extra_info("ssl_object")
        self.alpn = ssl_obj.selected_alpn_protocol() if ssl_obj is not None else None
        self.conn.initiate_connection()
        transport.write(self.conn.data_to_send())

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        try:
            events = self.conn.receive_data(data)
        except Exception:  # noqa: BLE001 - a client that does not speak h2: hang up
            self.transport.close()
            return
        for ev in events:
            if isinstance(ev, h2.events.RequestReceived):
                self.streams[ev.stream_id] = ({str(k): str(v) for k, v in ev.headers or []}, bytearray())
            elif isinstance(ev, h2.events.DataReceived):
                self.streams[ev.stream_id][1].extend(ev.data or b"")
                self.conn.acknowledge_received_data(ev.flow_controlled_length or 0, ev.stream_id)
            elif isinstance(ev, h2.events.StreamEnded):
                self._answer(ev.stream_id)
        self.transport.write(self.conn.data_to_send())

    def _answer(self, stream_id: int) -> None:
        headers, body = self.streams.pop(stream_id)
        with self.owner.lock:
            self.owner.requests.append(H2Received(headers.get(":path", ""), headers, bytes(body), self.alpn))
        self.conn.send_headers(stream_id, [(":status", "200"), ("content-type", "text/plain"), ("content-length", "2")])
        self.conn.send_data(stream_id, b"ok", end_stream=True)


class H2Receiver:
    def __init__(self, certs: Certs) -> None:
        self.certs = certs
        self.requests: list[H2Received] = []
        self.lock = threading.Lock()
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> H2Receiver:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(str(self.certs.server))
        ctx.set_alpn_protocols(["h2"])  # HTTP/2 only: an HTTP/1.1 client fails the handshake
        ready = threading.Event()

        async def serve() -> None:
            self._server = await self._loop.create_server(lambda: _Protocol(self), "127.0.0.1", 0, ssl=ctx)
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(serve())
            self._loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        if not ready.wait(10):
            raise RuntimeError("h2 receiver did not start")
        return self

    def hits(self, path: str) -> list[H2Received]:
        with self.lock:
            return [r for r in self.requests if r.path == path]

    def stop(self) -> None:
        def close() -> None:
            if self._server is not None:
                self._server.close()
            self._loop.stop()

        self._loop.call_soon_threadsafe(close)

    def __enter__(self) -> H2Receiver:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
