"""Timing helpers shared by the benchmark scripts (run as `python tests/bench/bench_*.py`)."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

# BENCH_SMOKE=1: run every step once or twice at a tiny size (tests/test_benchmarks_smoke.py, in
# make test): the scripts must keep working; the figures printed then mean nothing.
SMOKE = os.environ.get("BENCH_SMOKE") == "1"
# BENCH_CPU=1: time each call by the CPU time of the calling thread (time.thread_time) instead of the
# wall clock, so a figure taken on a machine shared by many (load 10 on 2 cores) is not mostly the
# wait for a core. Work done in other threads or in the database server is then not counted.
CLOCK = time.thread_time if os.environ.get("BENCH_CPU") == "1" else time.perf_counter


def size(full: int, smoke: int) -> int:
    """``full`` normally, ``smoke`` in a smoke run."""
    return smoke if SMOKE else full


def timed(fn: Callable[[], Any], n: int, warmup: int = 0) -> list[float]:
    """Seconds per call of ``fn``, ``n`` times, after ``warmup`` untimed calls."""
    if SMOKE:
        n, warmup = min(n, 2), min(warmup, 1)
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        t = CLOCK()
        fn()
        out.append(CLOCK() - t)
    return out


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]


def fmt(xs: list[float]) -> str:
    return f"p50 {statistics.median(xs) * 1e3:7.3f} ms   p95 {pct(xs, 0.95) * 1e3:7.3f} ms  (n={len(xs)})"


def calls_per_call(fn: Callable[[], Any], n: int, top: int = 0) -> float:
    """Python function calls per call of ``fn`` (cProfile over ``n`` calls; BENCH_SMOKE: 2): unlike a
    time it does not move with a shared machine's load. ``top`` > 0 (or BENCH_PROFILE=N) also prints
    that many entries by own time and by cumulative time."""
    import cProfile
    import pstats

    n = size(n, 2)
    top = top or int(os.environ.get("BENCH_PROFILE", "0") or 0)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(n):
        fn()
    prof.disable()
    stats = pstats.Stats(prof)
    if top:
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)
    return float(stats.total_calls) / n  # type: ignore[attr-defined]
