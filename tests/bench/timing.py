"""Timing helpers shared by the benchmark scripts (run as `python tests/bench/bench_*.py`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], n: int, warmup: int = 0) -> list[float]:
    """Seconds per call of ``fn``, ``n`` times, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]


def fmt(xs: list[float]) -> str:
    return f"p50 {statistics.median(xs) * 1e3:7.3f} ms   p95 {pct(xs, 0.95) * 1e3:7.3f} ms  (n={len(xs)})"
