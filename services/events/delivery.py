"""The delivery worker: asyncio + httpx, started by the server (app.events_worker).

Pipeline: a claimer leases due deliveries (store.claim_due) and queues them;
``lanes`` senders post them, each with its own httpcore connection pool per
target host; a recorder stores the attempts in batches and schedules retries.
A commit in this process that made deliveries (fanout.made_deliveries) wakes the
claimer, so a published event is on the wire within milliseconds; a retry's due
time wakes it by its timeout, and ``poll_interval`` covers commits made by other
processes. Commits that made no delivery leave it asleep.

Every request: POST, the exact bytes signed (``X-Service-Signature:
sha256=<HMAC-SHA256(secret UTF-8, body)>``), redirects never followed, 2xx
only is success, one total timeout, the address vetted at connect time
(safety.SafeBackend). A subscription with ``signing: standard-webhooks`` gets the Standard
Webhooks headers instead (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import logging
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import httpcore
import httpx
from sqlalchemy.orm import Session

from services.core.context import Runtime
from services.core.safety import BlockedAddress, SafeBackend
from services.core.signing import sign
from services.events import store
from services.events.fanout import MADE_DELIVERIES, DeliveryConfig, config_of
from services.events.store import Job, Result

log = logging.getLogger("events.delivery")
RECORD_WAITS = 5  # the recorder waits up to ~5 ms for a fuller batch
USER_AGENT = "platform-webhooks/0.1"
_UA = USER_AGENT.encode()


_unix_now = time.time  # the attempt's time; a test moves it back to send a stale delivery


def standard_signature(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """Standard Webhooks v1: base64 HMAC-SHA256, keyed by the whsec_ secret's bytes, of
    ``id.timestamp.body`` (https://www.standardwebhooks.com)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def _standard_headers(job: Job) -> list[tuple[bytes, bytes]]:
    # The timestamp is the attempt's: a receiver refuses a delivery replayed minutes later. The
    # id is the delivery's, the same on each retry, so the receiver can drop a duplicate.
    ts = int(_unix_now())
    sigs = " ".join(standard_signature(s, job.delivery_id, ts, job.body) for s in job.secrets)
    return [
        (b"Content-Type", b"application/json"),
        (b"User-Agent", _UA),
        (b"webhook-id", job.delivery_id.encode()),
        (b"webhook-timestamp", str(ts).encode()),
        (b"webhook-signature", sigs.encode()),  # during a rotation: the old secret's too, space-separated
    ]


def webhook_headers(job: Job) -> list[tuple[bytes, bytes]]:
    """The webhook's own headers (what a receiver reads), as a plain list: no header object."""
    if job.signing == "standard-webhooks":
        return _standard_headers(job)
    h = [
        (b"Content-Type", b"application/json"),
        (b"User-Agent", _UA),
        (b"X-Service-Event", job.event_type.encode()),
        (b"X-Service-Delivery-Id", job.delivery_id.encode()),
        (b"X-Service-Retry-Count", str(job.number - 1).encode()),
        (b"X-Service-Signature", sign(job.secrets[0], job.body).encode()),
    ]
    if len(job.secrets) > 1:
        # During a secret rotation's grace window: the same body signed with the old secret.
        h.append((b"X-Service-Signature-Previous", sign(job.secrets[1], job.body).encode()))
    if job.kind == "replay":
        h.append((b"X-Service-Replay", b"true"))
    elif job.kind == "test":
        h.append((b"X-Service-Test", b"true"))
    return h


def headers_for(job: Job) -> dict[str, str]:
    """The same headers as text (the benchmark's bare httpx loop sends these)."""
    return {k.decode(): v.decode() for k, v in webhook_headers(job)}


@dataclass(frozen=True)
class Target:
    """A webhook URL parsed once (a subscription's URL is used for every delivery)."""

    url: httpcore.URL
    host_header: bytes  # host[:port] as httpx would send it
    key: str  # one connection pool per lane and host:port


@lru_cache(maxsize=1024)
def target_of(url: str) -> Target:
    parts = httpx.URL(url)
    if parts.scheme != "https":
        raise BlockedAddress("only https:// targets are called")
    return Target(
        url=httpcore.URL(scheme=b"https", host=parts.raw_host, port=parts.port, target=parts.raw_path or b"/"),
        host_header=parts.netloc,
        key=f"{parts.host}:{parts.port or 443}",
    )


def request_headers(job: Job, target: Target) -> list[tuple[bytes, bytes]]:
    """Everything sent: the framing (httpcore adds none) and the webhook's headers."""
    return [(b"Host", target.host_header), (b"Content-Length", str(len(job.body)).encode()), *webhook_headers(job)]


def ssl_context(ca_bundle: str | None) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    if ca_bundle:
        ctx.load_verify_locations(cafile=ca_bundle)
    return ctx


def safe_pool(
    *, ssl_ctx: ssl.SSLContext, allow_private: bool, max_connections: int = 20, http2: bool = True
) -> httpcore.AsyncConnectionPool:
    """httpcore's connection pool with the vetting network backend underneath.

    Keep-alive connections per host; HTTP/2 offered through ALPN (the ``h2`` package), so a
    receiver that speaks it gets multiplexed requests on one connection and an HTTP/1.1-only
    receiver picks http/1.1 in the TLS handshake. Requests go to the pool directly: httpx's client
    layer (its request and response objects, cookies, auth, redirects, hooks) cost about a fifth
    of a delivery's CPU and the worker needs none of it.
    """
    return httpcore.AsyncConnectionPool(
        ssl_context=ssl_ctx,
        max_connections=max_connections,
        max_keepalive_connections=max_connections,
        keepalive_expiry=30.0,
        http1=True,
        http2=http2,
        network_backend=SafeBackend(allow_private=allow_private),
    )


def _error_class(exc: BaseException) -> str:
    if isinstance(exc, BlockedAddress):
        return "blocked_address"
    if isinstance(exc, TimeoutError | httpx.TimeoutException | httpcore.TimeoutException):
        return "timeout"
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return "tls_error"
        seen = seen.__cause__ or seen.__context__
    if "CERTIFICATE_VERIFY_FAILED" in str(exc) or "SSL" in str(exc):
        return "tls_error"
    if isinstance(exc, socket.gaierror):
        return "dns_error"
    if isinstance(exc, httpx.ConnectError | httpcore.ConnectError | OSError):
        return "connection_error"
    if isinstance(
        exc,
        httpx.RemoteProtocolError
        | httpx.LocalProtocolError
        | httpcore.RemoteProtocolError
        | httpcore.LocalProtocolError,
    ):
        return "protocol_error"
    if isinstance(exc, httpx.TransportError | httpcore.NetworkError | httpcore.UnsupportedProtocol):
        return "connection_error"
    return "internal_error"


def status_class(code: int) -> str | None:
    if 200 <= code < 300:
        return None
    if 300 <= code < 400:
        return "redirect"  # never followed: a redirect could point anywhere
    if 400 <= code < 500:
        return "http_4xx"
    if code >= 500:
        return "http_5xx"
    return "http_status"


class Sender:
    """One lane: its own connection pool per target host."""

    def __init__(self, config: DeliveryConfig, ssl_ctx: ssl.SSLContext) -> None:
        self.config = config
        self.ssl_ctx = ssl_ctx
        self.pools: dict[str, httpcore.AsyncConnectionPool] = {}
        t = config.timeout
        self._extensions = {"timeout": {"connect": t, "read": t, "write": t, "pool": t}}

    def pool_for(self, target: Target) -> httpcore.AsyncConnectionPool:
        pool = self.pools.get(target.key)
        if pool is None:
            if len(self.pools) >= 256:
                # Bounded: an old idle pool goes (closed in the background).
                old_key = next(iter(self.pools))
                asyncio.get_running_loop().create_task(self.pools.pop(old_key).aclose())
            pool = self.pools[target.key] = safe_pool(
                ssl_ctx=self.ssl_ctx, allow_private=self.config.allow_private, http2=self.config.http2
            )
        return pool

    async def send(self, job: Job, now: Callable[[], datetime]) -> Result:
        attempted_at = now()
        start = time.perf_counter()
        code: int | None = None
        error: str | None = None
        message: str | None = None
        excerpt = b""
        try:
            target = target_of(job.url)
            async with asyncio.timeout(self.config.timeout):
                request = httpcore.Request(
                    b"POST",
                    target.url,
                    headers=request_headers(job, target),
                    content=job.body,
                    extensions=self._extensions,
                )
                resp = await self.pool_for(target).handle_async_request(request)
                try:
                    code = resp.status
                    # Read up to what is recorded; an unread rest closes the connection instead.
                    async for chunk in resp.aiter_stream():
                        excerpt += chunk
                        if len(excerpt) >= store.BODY_EXCERPT:
                            break
                finally:
                    await resp.aclose()
            excerpt = excerpt[: store.BODY_EXCERPT]
            error = status_class(code)
            if error:
                message = f"HTTP {code}"
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - every failure is an attempt outcome
            error, message = _error_class(exc), (str(exc) or type(exc).__name__)[:300]
        duration = int((time.perf_counter() - start) * 1000)
        return Result(
            job=job,
            attempted_at=attempted_at,
            duration_ms=duration,
            status_code=code,  # type: ignore[arg-type]
            error_class=error,
            error_message=message,
            response_body=excerpt.decode("utf-8", errors="replace"),
        )

    async def aclose(self) -> None:
        for pool in self.pools.values():
            with contextlib.suppress(Exception):
                await pool.aclose()
        self.pools.clear()


class DeliveryWorker:
    """Runs on the server's event loop from the lifespan start to its end."""

    def __init__(self, rt: Runtime, config: DeliveryConfig | None = None) -> None:
        self.rt = rt
        self.config = config or config_of(rt)
        # Claimed and not yet recorded at most; a claim is made once at least ``lanes`` fit, so
        # each claim and each status write covers a batch (per-statement overhead is most of the
        # database cost), while the lanes still always have a queue.
        self.capacity = self.config.lanes * 3
        self.inflight = 0
        self.sent = 0
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._jobs: asyncio.Queue[Job | None] | None = None
        self._results: asyncio.Queue[Result | None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._lane_tasks: list[asyncio.Task[None]] = []
        self._senders: list[Sender] = []
        # One bound method object: the session listener is removed by identity at stop.
        self._listener = self._on_session_commit

    # -- control -----------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._jobs = asyncio.Queue()
        self._results = asyncio.Queue()
        ctx = ssl_context(self.config.ca_bundle)
        self._senders = [Sender(self.config, ctx) for _ in range(self.config.lanes)]
        self._lane_tasks = [asyncio.create_task(self._lane(s)) for s in self._senders]
        self._tasks = [
            asyncio.create_task(self._claimer()),
            asyncio.create_task(self._recorder()),
        ]  # retention runs on the scheduler (services/events/schedule.py), once across processes
        self.rt.db.on_session("after_commit", self._listener)
        self.wake()

    def alive(self) -> bool:
        """Started, not stopping, and none of its loops ended (readiness: ``GET /health/ready``)."""
        tasks = [*getattr(self, "_tasks", []), *getattr(self, "_lane_tasks", [])]
        return bool(tasks) and not self._stopping and not any(t.done() for t in tasks)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop claiming, let the senders finish what they hold, record, give back the rest."""
        self.rt.db.off_session("after_commit", self._listener)
        self._stopping = True
        self.wake()
        claimer, recorder = self._tasks
        await asyncio.gather(claimer, return_exceptions=True)
        assert self._jobs is not None and self._results is not None
        unsent: list[Job] = []
        while not self._jobs.empty():
            j = self._jobs.get_nowait()
            if j is not None:
                unsent.append(j)
        for _ in self._lane_tasks:
            self._jobs.put_nowait(None)
        _done, pending = await asyncio.wait(self._lane_tasks, timeout=grace) if self._lane_tasks else (set(), set())
        for t in pending:
            t.cancel()
        await asyncio.gather(*self._lane_tasks, return_exceptions=True)
        self._results.put_nowait(None)
        await asyncio.gather(recorder, return_exceptions=True)
        if unsent:
            await asyncio.to_thread(store.release, self.rt.db, unsent)
        for s in self._senders:
            await s.aclose()

    def wake(self) -> None:
        """Thread-safe: look for due deliveries now."""
        loop, ev = self._loop, self._wake
        if loop is None or ev is None:
            return
        with contextlib.suppress(RuntimeError):  # loop already closed at shutdown
            loop.call_soon_threadsafe(ev.set)

    def _on_session_commit(self, session: Session) -> None:
        # Every session's commit in this process, whatever committed it (a use case, a sync push,
        # a job); only one that made deliveries wakes the claimer.
        if session.info.pop(MADE_DELIVERIES, False):
            self.wake()

    # -- tasks -------------------------------------------------------------

    async def _claimer(self) -> None:
        assert self._wake is not None and self._jobs is not None
        backlog = False  # the last claim came back full: more is probably due
        while not self._stopping:
            self._wake.clear()
            room = self.capacity - self.inflight
            timeout = self.config.poll_interval
            try:
                if room >= self.config.lanes:
                    now = self.rt.clock.now()
                    jobs = await asyncio.to_thread(
                        functools.partial(
                            store.claim_due, self.rt.db, self.config, now, room, self.rt.secret_key, probe=not backlog
                        )
                    )
                    for j in jobs:
                        self.inflight += 1
                        self._jobs.put_nowait(j)
                    backlog = len(jobs) == room
                    if len(jobs) < room:
                        # Nothing else is due now: sleep until the next retry is (or a wake-up).
                        due = await asyncio.to_thread(store.next_due, self.rt.db, now)
                        if due is not None:
                            timeout = min(timeout, max(0.0, (due - now).total_seconds()))
            except Exception:  # noqa: BLE001 - a database hiccup must not end the worker
                log.exception("claiming deliveries failed; retrying")
            if self._stopping:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _lane(self, sender: Sender) -> None:
        assert self._jobs is not None and self._results is not None
        while True:
            job = await self._jobs.get()
            if job is None:
                return
            result = await sender.send(job, self.rt.clock.now)
            self._results.put_nowait(result)

    async def _recorder(self) -> None:
        assert self._results is not None
        done = False
        while not done:
            first = await self._results.get()
            batch: list[Result] = []
            if first is None:
                done = True
            else:
                batch.append(first)
                # More answers are on their way: wait a few milliseconds (at most) for a lane's worth
                # and write them together (a write transaction's fixed cost is most of a small one's).
                for _ in range(RECORD_WAITS):
                    queued = self._results.qsize() + 1
                    if queued >= self.config.lanes or self.inflight <= queued:
                        break
                    await asyncio.sleep(0.001)
            while not self._results.empty():
                r = self._results.get_nowait()
                if r is None:
                    done = True
                else:
                    batch.append(r)
            if not batch:
                continue
            try:
                await asyncio.to_thread(store.record, self.rt.db, self.config, batch, self.rt.clock.now())
            except Exception:  # noqa: BLE001 - leases expire and the attempts are made again
                log.exception("recording %d delivery attempts failed", len(batch))
            self.inflight -= len(batch)
            self.sent += len(batch)
            self.wake()
