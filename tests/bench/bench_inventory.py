"""Inventory benchmarks (not part of `make test`, which smoke-runs them tiny): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_inventory.py
    BENCH_TINY=1 ... (a few seconds)
    BENCH_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:55432/postgres ... (also on PostgreSQL)

1. Zero drift: rounds of 50 parallel ±1 adjustments (``POST stock``, one HTTP client
   per worker, released together) on one item and location against a real uvicorn
   server; the quantity must end exactly at the expected value and, for every stock
   row, the movements in minus out must equal its quantity. Prints p50/p95 per call.
2. The stock list by location (``inventory.stock.list``, a page of 50 with its total)
   at 100,000 stock rows: spread over 100 locations, and all in one location (first
   and a deep page); service call and HTTP GET. Medians and p95; no asserts on time.
"""

from __future__ import annotations

import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
from sqlalchemy import create_engine, func, select  # noqa: E402
from timing import fmt, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from local_db.models.inventory import InventoryMovement, InventoryStock  # noqa: E402
from services.core.auth import tenant_info  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM, Ctx, Runtime  # noqa: E402
from services.core.demo import DEMO_PASSWORD, demo_id  # noqa: E402
from tests.conftest import start_server  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
PARALLEL = 10 if TINY else 50
ROUNDS = 1 if TINY else 5
ROWS = 1_000 if TINY else 100_000
SAMPLES = 20 if TINY else 300
BASE = "/demo/inventory/api"
MAIN = demo_id("inventory-location", "demo", "MAIN")
SKU = "MUG-CER-01"


def _token(url: str) -> str:
    r = httpx.post(f"{url}/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
    r.raise_for_status()
    return str(r.json()["data"]["token"])


def _quantity(c: httpx.Client, h: dict[str, str]) -> int:
    rows = c.get(f"{BASE}/stock", params={"location_id": MAIN, "sku": SKU}, headers=h).json()["data"]
    return int(rows[0]["quantity"])


def _movements_add_up(rt: Runtime) -> tuple[int, int]:
    """(rows checked, rows whose movements do not add up to the quantity)."""
    bad = 0
    with rt.db.reading(None) as s:
        rows = s.execute(select(InventoryStock)).scalars().all()
        moved: dict[tuple[str, str, str], int] = {}
        for m in s.execute(select(InventoryMovement)).scalars():
            if m.to_location_id:
                k = (m.tenant_id, m.sku, m.to_location_id)
                moved[k] = moved.get(k, 0) + m.quantity
            if m.from_location_id:
                k = (m.tenant_id, m.sku, m.from_location_id)
                moved[k] = moved.get(k, 0) - m.quantity
        for r in rows:
            if moved.get((r.tenant_id, r.sku, r.location_id), 0) != r.quantity:
                bad += 1
    return len(rows), bad


def parallel_adjustments(settings: Settings, label: str) -> None:
    srv = start_server(settings, rate_limits="off")
    try:
        h = {"Authorization": f"Bearer {_token(srv.url)}"}
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            expected = _quantity(c, h)
            # Starts with enough stock that no -1 is refused whatever the interleaving.
            c.post(f"{BASE}/stock", json={"sku": SKU, "location_id": MAIN, "delta": PARALLEL}, headers=h)
            expected += PARALLEL
        lat: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        wall: list[float] = []
        for rnd in range(ROUNDS):
            rng = random.Random(rnd)
            deltas = [rng.choice((1, -1)) for _ in range(PARALLEL)]
            expected += sum(deltas)
            barrier = threading.Barrier(PARALLEL)

            def worker(delta: int, barrier: threading.Barrier = barrier) -> None:
                with httpx.Client(base_url=srv.url, timeout=60) as wc:
                    wc.get("/health")  # connect before the barrier: the race is on the adjustment
                    barrier.wait()
                    t = time.perf_counter()
                    r = wc.post(f"{BASE}/stock", json={"sku": SKU, "location_id": MAIN, "delta": delta}, headers=h)
                    dt = time.perf_counter() - t
                    with lock:
                        lat.append(dt)
                        if r.status_code != 200:
                            errors.append(f"{r.status_code} {r.text[:120]}")

            threads = [threading.Thread(target=worker, args=(d,)) for d in deltas]
            t0 = time.perf_counter()
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            wall.append(time.perf_counter() - t0)
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            final = _quantity(c, h)
        checked, bad = _movements_add_up(srv.runtime)
        verdict = "exact" if final == expected and not errors and not bad else "DRIFT"
        print(
            f"[{label}] {ROUNDS} rounds x {PARALLEL} parallel ±1 adjustments: final {final}, expected {expected} "
            f"-> {verdict}; errors {len(errors)}; movements add up for {checked - bad}/{checked} stock rows"
        )
        for e in errors[:5]:
            print("   ", e)
        print(
            f"[{label}] per adjustment (HTTP, {PARALLEL} in flight): {fmt(lat)}; "
            f"round wall time p50 {sorted(wall)[len(wall) // 2] * 1e3:.0f} ms"
        )
        if verdict != "exact":
            raise SystemExit(1)
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def _bulk_stock(db_path: Path, tenant_id: str, rows: int, locations: int) -> list[str]:
    """``rows`` stock rows over ``locations`` new locations (raw executemany); returns the location ids."""
    conn = sqlite3.connect(db_path)
    ts = datetime(2026, 1, 1, tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    locs = [str(uuid.uuid4()) for _ in range(locations)]
    conn.executemany(
        "INSERT INTO inventory_locations (id, code, name, kind, parent_id, allow_negative, created_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [
            (lid, f"B{locations}-{i:03d}", f"Bench bin {i}", "internal", None, 0, ts, tenant_id)
            for i, lid in enumerate(locs)
        ],
    )
    per = rows // locations
    conn.executemany(
        "INSERT INTO inventory_stock (id, sku, location_id, quantity, reserved, counted_at, updated_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (
            (str(uuid.uuid4()), f"BENCH-{k:06d}", lid, k % 97, 0, None, ts, tenant_id)
            for lid in locs
            for k in range(per)
        ),
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    return locs


def stock_list(settings: Settings) -> None:
    srv = start_server(settings, rate_limits="off")
    rt = srv.runtime
    try:
        tenant_id = demo_id("tenant", "demo")
        db_path = settings.data_dir / "data.db"
        spread = _bulk_stock(db_path, tenant_id, ROWS, 100)
        one = _bulk_stock(db_path, tenant_id, ROWS, 1)[0]
        with rt.db.reading(None) as s:
            total = s.execute(select(func.count()).select_from(InventoryStock)).scalar_one()
            from local_db.models import Tenant

            tenant = s.get(Tenant, tenant_id)
            assert tenant is not None
            info = tenant_info(tenant)
        print(f"{total:,} stock rows in the database ({ROWS:,} over 100 locations + {ROWS:,} in one location)")
        ctx = Ctx(rt, info, SYSTEM)
        rng = random.Random(7)

        def spread_page() -> Any:
            return execute(ctx, "inventory.stock.list", query={"location_id": rng.choice(spread), "limit": "50"})

        page = spread_page()
        assert page.total == ROWS // 100 and len(page.items) == min(50, ROWS // 100)
        print(
            f"stock list by location, {ROWS // 100:,} rows in it, page of 50 (service): "
            f"{fmt(timed(spread_page, SAMPLES, warmup=5))}"
        )
        first = timed(
            lambda: execute(ctx, "inventory.stock.list", query={"location_id": one, "limit": "50"}), SAMPLES, warmup=5
        )
        print(f"stock list by location, {ROWS:,} rows in it, first page of 50 (service): {fmt(first)}")
        deep = timed(
            lambda: execute(
                ctx, "inventory.stock.list", query={"location_id": one, "limit": "50", "page": str(ROWS // 100)}
            ),
            SAMPLES,
            warmup=5,
        )
        print(f"stock list by location, {ROWS:,} rows in it, page {ROWS // 100} (service): {fmt(deep)}")
        h = {"Authorization": f"Bearer {_token(srv.url)}"}
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            http = timed(
                lambda: c.get(
                    f"{BASE}/stock", params={"location_id": rng.choice(spread), "limit": 50}, headers=h
                ).raise_for_status(),
                SAMPLES,
                warmup=5,
            )
        print(f"GET stock?location_id=... (HTTP, {ROWS // 100:,} rows in the location, page of 50): {fmt(http)}")
    finally:
        srv.stop()
        rt.db.dispose()


def _postgres_db(admin_url: str) -> str:
    name = f"bench_inv_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    print(f"inventory bench{' (tiny)' if TINY else ''}: {PARALLEL} parallel, {ROWS:,} rows")
    with tempfile.TemporaryDirectory() as tmp:
        parallel_adjustments(Settings(data_dir=Path(tmp) / "a", secret_key="b" * 32, demo=True), "SQLite")
        pg = os.environ.get("BENCH_POSTGRES_URL")
        if pg:
            settings = Settings(
                data_dir=Path(tmp) / "pg", secret_key="b" * 32, demo=True, database_url=_postgres_db(pg)
            )
            parallel_adjustments(settings, "PostgreSQL")
        stock_list(Settings(data_dir=Path(tmp) / "b", secret_key="b" * 32, demo=True))


if __name__ == "__main__":
    main()
