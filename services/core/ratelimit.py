"""Rate limits of DECISIONS.md: variant A (per key, user or IP), B (per tenant) or off.

Sliding windows: a request is let through when fewer than ``limit`` requests were let
through in the ``window`` seconds before it, so no boundary lets twice the limit pass (a fixed
window would). The counting sits behind ``RateStore``; the in-process ``MemoryStore`` serves one
server process, and a store shared by several processes (a PostgreSQL table of timestamps)
plugs in behind the same interface. Time comes from an injected callable, so tests move it.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Engine, text


@dataclass(frozen=True)
class Rule:
    name: str
    limit: int
    window: int  # seconds


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int  # Unix seconds when the oldest counted request leaves the window (a slot frees)
    retry_after: int


@dataclass(frozen=True)
class Usage:
    """One rule's state after a request: requests counted in the window (this one included
    when it was let through) and when the oldest of them leaves the window."""

    count: int
    frees_at: float


class RateStore(Protocol):
    def take(self, rules: Sequence[tuple[str, int, int]], now: float) -> tuple[bool, list[Usage]]:
        """For every ``(key, limit, window)``: count the requests of the last ``window`` seconds.
        When every key is under its limit, record this request under all of them (atomically)
        and answer True; otherwise record nothing and answer False."""
        ...


class MemoryStore:
    """Timestamps of let-through requests per key, in one process."""

    def __init__(self) -> None:
        self._logs: dict[str, deque[float]] = {}
        self._windows: dict[str, int] = {}
        self._lock = threading.Lock()
        self._last_sweep = 0.0

    def take(self, rules: Sequence[tuple[str, int, int]], now: float) -> tuple[bool, list[Usage]]:
        with self._lock:
            if now - self._last_sweep > 60:
                self._sweep(now)
            logs = []
            for key, _limit, window in rules:
                log = self._logs.setdefault(key, deque())
                self._windows[key] = window
                while log and log[0] <= now - window:
                    log.popleft()
                logs.append(log)
            allowed = all(len(log) < limit for log, (_k, limit, _w) in zip(logs, rules, strict=True))
            if allowed:
                for log in logs:
                    log.append(now)
            return allowed, [
                Usage(len(log), (log[0] if log else now) + window)
                for log, (_k, _l, window) in zip(logs, rules, strict=True)
            ]

    def _sweep(self, now: float) -> None:
        # Forget keys with no request left in their window.
        self._logs = {k: v for k, v in self._logs.items() if v and v[-1] > now - self._windows.get(k, 3600)}
        self._windows = {k: w for k, w in self._windows.items() if k in self._logs}
        self._last_sweep = now


class PostgresStore:
    """The let-through requests of every process, as rows ``(key, at)`` of an UNLOGGED table
    (counters need no crash safety: a restart forgets a minute of counting at worst).

    One transaction per request: an advisory lock per key (taken in key order, so two requests
    never wait on each other in a circle), the count of each key's window, the insert when all
    are under their limit. Rows older than a key's window are deleted as the key is counted."""

    TABLE = "rate_limit_hits"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._ready = False

    def _create(self) -> None:
        with self.engine.begin() as conn:
            # One creator at a time (several workers start together).
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('rate_limit_hits:create'))"))
            conn.execute(
                text(
                    f"CREATE UNLOGGED TABLE IF NOT EXISTS {self.TABLE} "
                    "(key text NOT NULL, at double precision NOT NULL)"
                )
            )
            conn.execute(text(f"CREATE INDEX IF NOT EXISTS ix_{self.TABLE}_key_at ON {self.TABLE} (key, at)"))
        self._ready = True

    def take(self, rules: Sequence[tuple[str, int, int]], now: float) -> tuple[bool, list[Usage]]:
        if not self._ready:
            self._create()
        counted: dict[str, tuple[int, float | None]] = {}
        with self.engine.begin() as conn:
            for key in sorted({k for k, _l, _w in rules}):
                conn.execute(_LOCK, {"k": key})
            for key, _limit, window in rules:
                conn.execute(_FORGET, {"k": key, "since": now - window})
                n, oldest = conn.execute(_COUNT, {"k": key, "since": now - window}).one()
                counted[key] = (int(n), oldest)
            allowed = all(counted[k][0] < limit for k, limit, _w in rules)
            if allowed:
                conn.execute(_HIT, [{"k": k, "at": now} for k, _l, _w in rules])
        usages = []
        for key, _limit, window in rules:
            n, oldest = counted[key]
            if allowed:
                n += 1
                oldest = oldest if oldest is not None else now
            usages.append(Usage(n, (oldest if oldest is not None else now) + window))
        return allowed, usages


_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")
_FORGET = text(f"DELETE FROM {PostgresStore.TABLE} WHERE key = :k AND at <= :since")
_COUNT = text(f"SELECT count(*), min(at) FROM {PostgresStore.TABLE} WHERE key = :k AND at > :since")
_HIT = text(f"INSERT INTO {PostgresStore.TABLE} (key, at) VALUES (:k, :at)")


def store_for(engine: Engine) -> RateStore:
    """The store a server's processes share: PostgreSQL's table, or memory (SQLite: one process)."""
    return PostgresStore(engine) if engine.dialect.name == "postgresql" else MemoryStore()


VARIANT_A: dict[str, list[Rule]] = {
    "api_key": [Rule("api_key_sustained", 1000, 60), Rule("api_key_burst", 100, 10)],
    "read": [Rule("read", 100, 60)],
    "write": [Rule("write", 30, 60)],
    "auth": [Rule("auth", 5, 60)],
    "public_ticket": [Rule("public_ticket", 5, 3600)],
    "public_events": [Rule("public_events", 60, 60)],
    # Public warranty registration (Aftersale): limited like public ticket creation, its own count.
    "public_warranty": [Rule("public_warranty", 5, 3600)],
    # Public signing links (Sign): a signer opens, signs, downloads; a guesser is slowed.
    "public_sign": [Rule("public_sign", 60, 60)],
    # Signed inbound webhooks (a shop or carrier sends bursts after an outage) and QR scans (a
    # printed code at an event is scanned by a crowd from one address): public, counted per IP.
    "public_inbound": [Rule("public_inbound", 600, 60)],
    "public_scan": [Rule("public_scan", 300, 60)],
}
VARIANT_B: dict[str, list[Rule]] = {
    "read": [Rule("read", 100, 60)],
    "write": [Rule("write", 30, 60)],
    "auth": [Rule("auth", 5, 60)],
    "upload": [Rule("upload", 10, 60)],
    "public_ticket": [Rule("public_ticket", 5, 3600)],
    "public_events": [Rule("public_events", 60, 60)],
    "public_warranty": [Rule("public_warranty", 5, 3600)],
    "public_sign": [Rule("public_sign", 60, 60)],
    "public_inbound": [Rule("public_inbound", 600, 60)],
    "public_scan": [Rule("public_scan", 300, 60)],
}
# Categories counted per tenant and client address (no principal to count by). Every public
# declaration names one of them (tests/api/hardening walks the declarations).
PUBLIC = ("public_ticket", "public_events", "public_warranty", "public_sign", "public_inbound", "public_scan")


class RateLimiter:
    def __init__(
        self, variant: str = "A", store: RateStore | None = None, now: Callable[[], float] = time.time
    ) -> None:
        variant = variant.upper() if variant.lower() != "off" else "off"
        if variant not in ("A", "B", "off"):
            raise ValueError("PLATFORM_RATE_LIMITS must be A, B or off")
        self.variant = variant
        self.store = store or MemoryStore()
        self.now = now

    def category(self, *, method: str, principal_kind: str, override: str | None) -> str:
        # "sync": a station's signed batches (up to 250 changes each) have no per-minute limit.
        if override in ("auth", *PUBLIC, "sync"):
            return override
        if self.variant == "A" and principal_kind == "api_key":
            return "api_key"
        if self.variant == "B" and override == "upload":
            return "upload"
        return "read" if method in ("GET", "HEAD", "OPTIONS") else "write"

    def check(self, category: str, *, tenant: str, subject: str, ip: str) -> Decision | None:
        """Count a request; ``None`` when limits are off or the category is unlimited."""
        if self.variant == "off":
            return None
        table = VARIANT_A if self.variant == "A" else VARIANT_B
        rules = table.get(category)
        if not rules:
            return None
        if self.variant == "B":
            who = f"tenant:{tenant}" if category not in PUBLIC else f"{tenant}:{ip}"
        elif category in ("auth",):
            who = f"ip:{ip}"
        elif category in PUBLIC:
            who = f"{tenant}:ip:{ip}"
        else:
            who = subject
        now = self.now()
        allowed, usages = self.store.take([(f"{r.name}:{who}", r.limit, r.window) for r in rules], now)
        worst: Decision | None = None
        for rule, usage in zip(rules, usages, strict=True):
            d = Decision(
                allowed=allowed,
                limit=rule.limit,
                remaining=max(rule.limit - usage.count, 0),
                reset=int(math.ceil(usage.frees_at)),
                retry_after=max(int(math.ceil(usage.frees_at - now)), 1),
            )
            # The rule that refused (or is nearest to refusing) speaks for the answer.
            if worst is None or d.remaining < worst.remaining:
                worst = d
        return worst
