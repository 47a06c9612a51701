"""Which webhook targets the platform may call, checked at creation and at connect time.

Only ``https://`` URLs without credentials. Addresses that are not globally
routable (loopback, private, link-local, shared 100.64/10, multicast,
reserved, unspecified; IPv4 and IPv6, including IPv4 embedded in IPv6) are
refused. The connect-time check runs on the address actually dialled
(``SafeBackend`` resolves, vets, then connects to the vetted address), so a
name that re-resolves to an internal address between the two checks
(DNS rebinding) is still refused. ``allow_private`` lifts the address rule
(tests, ``PLATFORM_WEBHOOK_ALLOW_PRIVATE=1``); the scheme rule always holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import ssl
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
import httpcore

# The address rules live in core, shared with every URL the platform fetches.
from services.core.urls import IPAddress, address_problem, normalize_host, parse_ip
from services.core.urls import UnsafeUrl as UnsafeTarget

__all__ = ["IPAddress", "UnsafeTarget", "address_problem", "normalize_host", "parse_ip"]


class BlockedAddress(Exception):
    """Raised at connect time: the resolved address is not allowed."""


def check_url(url: str, *, allow_private: bool, resolve: bool = True) -> str:
    """Refuse a webhook URL the platform must not call; returns it unchanged when fine.

    A host name is resolved and every address vetted (``resolve=False`` skips
    that, e.g. offline); the connect-time check repeats it in any case.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeTarget(f"not a valid URL: {exc}") from exc
    if parts.scheme.lower() != "https":
        raise UnsafeTarget("webhook_url must be an https:// URL")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise UnsafeTarget("webhook_url must not carry credentials")
    if not parts.hostname:
        raise UnsafeTarget("webhook_url has no host")
    if parts.fragment:
        raise UnsafeTarget("webhook_url must not have a fragment")
    if port == 0:
        raise UnsafeTarget("webhook_url port 0 is not a port anyone listens on")
    host = normalize_host(parts.hostname)
    if allow_private:
        return url
    ip = parse_ip(host)
    if ip is not None:
        why = address_problem(ip)
        if why:
            raise UnsafeTarget(f"webhook_url host {host} {why}")
        return url
    if host.lower() == "localhost" or host.lower().endswith((".localhost", ".local", ".internal")):
        raise UnsafeTarget(f"webhook_url host {host} is a local name")
    if resolve:
        try:
            infos = socket.getaddrinfo(host, port or 443, type=socket.SOCK_STREAM)
        except OSError:
            # Unresolvable now (DNS down, name not yet published): the connect-time check still guards it.
            return url
        for ip in {parse_ip(str(info[4][0])) for info in infos}:
            why = address_problem(ip) if ip is not None else "is not an IP address"
            if why:
                raise UnsafeTarget(f"webhook_url host {host} resolves to {ip}, which {why}")
    return url


def vet_addresses(host: str, addresses: Iterable[str]) -> list[str]:
    """The addresses to dial, or BlockedAddress if any of them is refused."""
    out: list[str] = []
    for a in addresses:
        ip = parse_ip(a)
        why = address_problem(ip) if ip is not None else "is not an IP address"
        if why:
            raise BlockedAddress(f"{host} resolves to {a}, which {why}")
        if a not in out:
            out.append(a)
    if not out:
        raise BlockedAddress(f"{host} resolves to no address")
    return out


def is_socket_readable(sock: socket.socket | None) -> bool:
    """Data (or the peer's close) waiting: an idle keep-alive connection that is no longer usable.
    As httpcore checks it; a closed socket counts as readable."""
    fd = -1 if sock is None else sock.fileno()
    if fd < 0:
        return True
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([fd], [], [], 0)[0])
    p = select.poll()
    p.register(fd, select.POLLIN)
    return bool(p.poll(0))


class _Stream(httpcore.AsyncNetworkStream):
    """A connection on asyncio's own streams (its TLS transport included) for httpcore.

    httpcore's default backend goes through anyio, whose TLS stream and per-call cancel scopes
    were about a third of the worker's CPU per request. Per-call timeouts are not applied here:
    every request the worker makes runs inside one total timeout (``Sender.send``), which covers
    connecting, the handshake, writing and reading. Errors come out as httpcore's, with the
    original (an ``ssl.SSLError`` for a refused certificate) as their cause.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            return await self._reader.read(max_bytes)
        except OSError as exc:
            raise httpcore.ReadError(str(exc) or type(exc).__name__) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            self._writer.write(buffer)
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:  # RuntimeError: the transport is already closed
            raise httpcore.WriteError(str(exc) or type(exc).__name__) from exc

    async def aclose(self) -> None:
        self._writer.close()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                await self._writer.start_tls(ssl_context, server_hostname=server_hostname)
        except TimeoutError as exc:
            self._writer.transport.abort()
            raise httpcore.ConnectTimeout("TLS handshake timed out") from exc
        except OSError as exc:  # ssl.SSLError is one
            self._writer.transport.abort()
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        return self

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # An idle keep-alive connection is unusable once the peer closed it or sent something
            # unasked (asyncio reads eagerly, so look at its buffer as well as the socket).
            r = self._reader
            return (
                self._writer.is_closing()
                or r.at_eof()
                or r.exception() is not None
                or bool(getattr(r, "_buffer", b""))
                or is_socket_readable(self._writer.get_extra_info("socket"))
            )
        key = {"client_addr": "sockname", "server_addr": "peername"}.get(info, info)
        if key not in ("ssl_object", "sockname", "peername", "socket"):
            return None
        return self._writer.get_extra_info(key)


async def _open(
    host: str, port: int, timeout: float | None, local_address: str | None, socket_options: Iterable[Any] | None
) -> _Stream:
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                host, port, local_addr=(local_address, 0) if local_address else None, limit=2**20
            )
    except TimeoutError as exc:
        raise httpcore.ConnectTimeout(f"connecting to {host}:{port} timed out") from exc
    except OSError as exc:
        raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for option in socket_options or ():
            sock.setsockopt(*option)
    return _Stream(reader, writer)


class SafeBackend(httpcore.AsyncNetworkBackend):
    """Resolve, vet the addresses, then connect to a vetted address (no second lookup).

    TLS still verifies the certificate against the URL's host name: httpcore
    passes the origin host as ``server_hostname`` to ``start_tls``.
    """

    def __init__(self, *, allow_private: bool) -> None:
        self.allow_private = allow_private

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        if self.allow_private:
            return await _open(host, port, timeout, local_address, socket_options)
        literal = parse_ip(host)
        if literal is not None:
            candidates = [str(literal)]
        else:
            with anyio.fail_after(timeout) if timeout else nullcontext():
                # socket.getaddrinfo in a thread: one lookup, whose answers are the ones dialled.
                infos = await anyio.to_thread.run_sync(
                    lambda: socket.getaddrinfo(host, port, type=socket.SOCK_STREAM), abandon_on_cancel=True
                )
            candidates = [str(i[4][0]) for i in infos]
        last: Exception | None = None
        for addr in vet_addresses(host, candidates):
            try:
                return await _open(addr, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        raise BlockedAddress("unix sockets are not webhook targets")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
