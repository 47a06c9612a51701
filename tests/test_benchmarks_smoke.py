"""Every benchmark script runs once at a tiny size, so none of them rots between `make bench` runs.

Each ``tests/bench/bench_*.py`` runs in its own process with ``BENCH_SMOKE=1`` (tests/bench/timing.py:
one or two timed calls per figure) and the tiny arguments below. The test fails on an exception
(a non-zero exit); the figures printed are not looked at. A new benchmark script is picked up by
itself: it must honour ``BENCH_SMOKE`` (or get tiny arguments here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent / "bench"
ROOT = BENCH.parents[1]
TINY_ARGS: dict[str, list[str]] = {
    "bench_core.py": ["20"],
    "bench_events.py": ["--events", "2", "--publish", "20", "--runs", "1"],
    "bench_fulfillment.py": ["200"],
    "bench_startup.py": ["1"],
    "bench_support.py": ["60"],
    "bench_sync.py": ["--n", "4", "--rows", "20", "--runs", "1"],
}


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("bench_*.py")))
def test_benchmark_runs_at_a_tiny_size(script: str) -> None:
    env = {**os.environ, "BENCH_SMOKE": "1", "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *TINY_ARGS.get(script, [])],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
