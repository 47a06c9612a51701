"""Rate limits of DECISIONS.md: variant A (per key, user or IP), B (per tenant) or off.

Fixed windows in a store behind a small interface; the in-process store
serves one server process (a shared store for several processes plugs in
behind ``RateStore``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


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
    reset: int  # Unix seconds when the window resets
    retry_after: int


class RateStore(Protocol):
    def hit(self, key: str, window: int, now: float) -> tuple[int, float]:
        """Count one request in the window containing ``now``; return (count, window end)."""
        ...


class MemoryStore:
    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()
        self._last_sweep = 0.0

    def hit(self, key: str, window: int, now: float) -> tuple[int, float]:
        start = math.floor(now / window) * window
        with self._lock:
            if now - self._last_sweep > 60:
                self._sweep(now)
            cur = self._counts.get(key)
            count = cur[1] + 1 if cur and cur[0] == start else 1
            self._counts[key] = (start, count)
        return count, start + window

    def _sweep(self, now: float) -> None:
        # Drop windows that ended; the longest window is an hour.
        self._counts = {k: v for k, v in self._counts.items() if v[0] + 3600 > now}
        self._last_sweep = now


VARIANT_A: dict[str, list[Rule]] = {
    "api_key": [Rule("api_key_sustained", 1000, 60), Rule("api_key_burst", 100, 10)],
    "read": [Rule("read", 100, 60)],
    "write": [Rule("write", 30, 60)],
    "auth": [Rule("auth", 5, 60)],
    "public_ticket": [Rule("public_ticket", 5, 3600)],
    "public_events": [Rule("public_events", 60, 60)],
}
VARIANT_B: dict[str, list[Rule]] = {
    "read": [Rule("read", 100, 60)],
    "write": [Rule("write", 30, 60)],
    "auth": [Rule("auth", 5, 60)],
    "upload": [Rule("upload", 10, 60)],
    "public_ticket": [Rule("public_ticket", 5, 3600)],
    "public_events": [Rule("public_events", 60, 60)],
}


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
        if override in ("auth", "public_ticket", "public_events", "sync"):
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
            who = f"tenant:{tenant}" if category not in ("public_ticket", "public_events") else f"{tenant}:{ip}"
        elif category in ("auth",):
            who = f"ip:{ip}"
        elif category in ("public_ticket", "public_events"):
            who = f"{tenant}:ip:{ip}"
        else:
            who = subject
        now = self.now()
        worst: Decision | None = None
        for rule in rules:
            count, end = self.store.hit(f"{rule.name}:{who}", rule.window, now)
            remaining = max(rule.limit - count, 0)
            d = Decision(
                allowed=count <= rule.limit,
                limit=rule.limit,
                remaining=remaining,
                reset=int(math.ceil(end)),
                retry_after=max(int(math.ceil(end - now)), 1),
            )
            if (
                worst is None
                or (not d.allowed and worst.allowed)
                or (d.allowed == worst.allowed and d.remaining < worst.remaining)
            ):
                worst = d
        return worst
