"""Every benchmark script runs once at a tiny size, so none of them rots between `make bench` runs.

Each ``tests/bench/bench_*.py`` runs in its own process with ``BENCH_SMOKE=1`` and ``BENCH_TINY=1``
(tests/bench/timing.py: one or two timed calls per figure; the module benchmarks' tiny mode) and the
tiny arguments below, one test a script (the test workers share them out). The test fails on an exception (a non-zero exit,
which a benchmark also gives when a correctness check of its own fails, e.g. a stock drift); the
figures printed are not looked at. A new benchmark script is picked up by itself: it must honour
``BENCH_SMOKE``/``BENCH_TINY`` (or get tiny arguments here).
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
    "bench_docs.py": ["--compare"],
    "bench_records.py": ["300"],
    "bench_events.py": ["--events", "2", "--publish", "20", "--runs", "1"],
    "bench_fulfillment.py": ["200"],
    "bench_startup.py": ["1"],
    "bench_support.py": ["60"],
    "bench_sync.py": ["--n", "4", "--rows", "20", "--runs", "1"],
}


def _run(script: str) -> str | None:
    env = {**os.environ, "BENCH_SMOKE": "1", "BENCH_TINY": "1", "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PLATFORM_TEST_BACKEND", None)  # the benchmarks make their own SQLite databases and servers
    try:
        done = subprocess.run(
            [sys.executable, str(BENCH / script), *TINY_ARGS.get(script, [])],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    except subprocess.TimeoutExpired:
        return f"{script} ran over 240 s at its tiny size"
    if done.returncode != 0:
        return f"{script} failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return None


SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py"))


def test_the_benchmarks_are_all_here() -> None:
    assert len(SCRIPTS) >= 20


@pytest.mark.timeout(300)
@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_runs_at_a_tiny_size(script: str) -> None:
    # One test a script: the test workers share them out (and the slow ones show in --durations).
    failure = _run(script)
    assert failure is None, failure
