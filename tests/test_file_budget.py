"""No product file over 700 lines (docs/DEVELOPING.md: one file per resource).

A file that grows past the budget is split by what it serves (a module's resources, a
workspace's panels) rather than allowed to grow: a reader finds a feature by its file name.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("services", "views", "api", "app", "local_db", "resources")
BUDGET = 700


def product_files() -> list[Path]:
    return sorted(p for d in PRODUCT for p in (ROOT / d).rglob("*.py"))


def test_the_walk_sees_the_product() -> None:
    # A walk that found nothing would pass whatever the sizes: it must see every front door.
    names = {p.relative_to(ROOT).as_posix() for p in product_files()}
    assert {"services/core/commands.py", "api/app.py", "views/ops.py", "app/wiring.py"} <= names


def test_no_product_file_is_over_the_budget() -> None:
    over = {}
    for p in product_files():
        with p.open(encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > BUDGET:
            over[p.relative_to(ROOT).as_posix()] = n
    assert over == {}, f"split these by resource (budget {BUDGET} lines): {over}"
