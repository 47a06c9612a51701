"""The catalog benchmark's tiny mode runs as part of the suite, so the script keeps working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_bench_catalog_tiny_mode_runs() -> None:
    env = {**os.environ, "BENCH_TINY": "1"}
    env.pop("SHOP_RATE", None)
    r = subprocess.run(
        [sys.executable, str(ROOT / "tests/bench/bench_catalog.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "0 duplicates, 0 missing products, 0 missing variants" in r.stdout, r.stdout
    assert "first catalog): 20 products" in r.stdout
