"""The inventory benchmark, tiny: parallel ±1 adjustments against a real server end exact (it exits 1 on drift)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ON_POSTGRES

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bench_inventory.py"


@pytest.mark.skipif(ON_POSTGRES, reason="the bench makes its own SQLite servers")
def test_bench_runs_tiny_and_ends_exact() -> None:
    env = {**os.environ, "BENCH_TINY": "1", "QT_QPA_PLATFORM": "offscreen"}
    env.pop("BENCH_POSTGRES_URL", None)
    out = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "-> exact; errors 0" in out.stdout and "stock list by location" in out.stdout
