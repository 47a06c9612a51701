"""Operations benchmarks (issue 34's Speed section; `make test` smoke-runs it tiny): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_operations.py
    BENCH_TINY=1 ... (a few seconds)
    BENCH_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:55432/postgres ... (reservations also on PostgreSQL)

1. Reservations under 8 concurrent writers: each writer holds 1 unit for an order of its own, in
   its own unit of work, until more has been asked than is on hand; counts the oversold units
   (held beyond on hand: must be 0, or the script exits 1) and the reservations per second, by the
   wall clock and by the process's CPU time (all threads; with the GIL one core's worth at most).
2. The stock of a location tree rolled up: 1,000 locations (10 sites x 10 aisles x 9 shelves + the
   sites and aisles) holding 100,000 stock rows; the rolled-up sum of a site (and of the root) with
   ``stock.within`` and the first page of ``GET stock?location_id=<site>`` (sub-locations included).
3. Batch picking at 100,000 orders (2 lines each, 1,000 items on 2 of 200 shelves under MAIN): a
   batch of the next 50 ready orders made, its walk sorted by bin and opened (``fulfillment.batches.
   create`` then ``get``, the service), and a batch of 50 orders named by number.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import create_engine, func, select  # noqa: E402
from timing import fmt, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from local_db.models import Tenant  # noqa: E402
from local_db.models.inventory import InventoryReservation, InventoryStock  # noqa: E402
from services.core.auth import tenant_info  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM, Ctx, Runtime  # noqa: E402
from services.core.demo import demo_id  # noqa: E402
from services.inventory import reservations, stock  # noqa: E402
from tests.conftest import start_server  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
WRITERS = 8
PER_WRITER = 10 if TINY else 150
ON_HAND = WRITERS * PER_WRITER * 3 // 4  # a quarter of the asks find nothing left
SITES, AISLES, SHELVES = (2, 3, 4) if TINY else (10, 10, 9)
ROWS = 1_000 if TINY else 100_000
SAMPLES = 10 if TINY else 100
SKU = "MUG-CER-01"
MAIN = demo_id("inventory-location", "demo", "MAIN")
TENANT = demo_id("tenant", "demo")


def _ctx(rt: Runtime) -> Ctx:
    with rt.db.reading(None) as s:
        t = s.get(Tenant, TENANT)
        assert t is not None
        info = tenant_info(t)
    return Ctx(rt, info, SYSTEM)


def concurrent_reservations(settings: Settings, label: str) -> None:
    srv = start_server(settings, rate_limits="off")
    rt = srv.runtime
    try:
        ctx = _ctx(rt)
        execute(ctx, "inventory.stock.adjust", body={"sku": SKU, "location_id": MAIN, "counted": ON_HAND})
        errors: list[str] = []
        writer_cpu: list[float] = []
        barrier = threading.Barrier(WRITERS)

        def writer(w: int) -> None:
            wctx = _ctx(rt)
            barrier.wait()
            c = time.thread_time()
            for i in range(PER_WRITER):
                try:
                    with wctx.write() as s:
                        reservations.reserve(
                            wctx,
                            s,
                            order_id=str(uuid.uuid4()),
                            reference=f"B-{w}-{i}",
                            lines=[{"sku": SKU, "quantity": 1}],
                        )
                except Exception as exc:  # counted and shown: a writer that fails is a finding
                    errors.append(f"{type(exc).__name__}: {str(exc)[:120]}")
            writer_cpu.append(time.thread_time() - c)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
        t0, c0 = time.perf_counter(), time.process_time()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        with rt.db.reading(TENANT) as s:
            held = int(
                s.execute(
                    select(func.coalesce(func.sum(InventoryReservation.reserved), 0)).where(
                        InventoryReservation.sku == SKU
                    )
                ).scalar_one()
            )
            made = int(s.execute(select(func.count()).select_from(InventoryReservation)).scalar_one())
            row = s.execute(
                select(InventoryStock.quantity, InventoryStock.reserved).where(
                    InventoryStock.sku == SKU, InventoryStock.location_id == MAIN
                )
            ).one()
        oversold = max(held - int(row[0]), 0) + max(int(row[1]) - int(row[0]), 0)
        asked = WRITERS * PER_WRITER
        print(
            f"[{label}] {WRITERS} concurrent writers, {asked} reservations of 1 on {ON_HAND} on hand: "
            f"{made} made, {held} held, row reserved {row[1]}, oversold units {oversold}, errors {len(errors)}; "
            f"{asked / wall:,.0f} reservations/s ({wall * 1e3:.0f} ms wall); by CPU (the whole process, every "
            f"thread: the figure a loaded machine does not move) {asked / cpu:,.0f} reservations/s, "
            f"{cpu / asked * 1e3:.2f} ms each, of which the writers' threads {sum(writer_cpu) / asked * 1e3:.2f} ms "
            "(the rest: the server's threads; the webhook worker wakes only for a commit that made deliveries)"
        )
        for e in errors[:5]:
            print("   ", e)
        if oversold or errors or held != min(ON_HAND, asked) or made != asked:
            raise SystemExit(1)
    finally:
        srv.stop()
        rt.db.dispose()


def _tree(db_path: Path) -> tuple[str, list[str]]:
    """The location tree and ROWS stock rows over its shelves (raw executemany); (root id, site ids)."""
    conn = sqlite3.connect(db_path)
    ts = datetime(2026, 1, 1, tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    rows: list[tuple[str, str, str | None]] = []  # id, code, parent
    root = str(uuid.uuid4())
    rows.append((root, "TREE", None))
    sites, shelves = [], []
    for a in range(SITES):
        sid = str(uuid.uuid4())
        sites.append(sid)
        rows.append((sid, f"T{a}", root))
        for b in range(AISLES):
            aid = str(uuid.uuid4())
            rows.append((aid, f"T{a}-{b}", sid))
            for c in range(SHELVES):
                lid = str(uuid.uuid4())
                shelves.append(lid)
                rows.append((lid, f"T{a}-{b}-{c}", aid))
    conn.executemany(
        "INSERT INTO inventory_locations (id, code, name, kind, parent_id, allow_negative, created_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [(i, code, code, "internal", parent, 0, ts, TENANT) for i, code, parent in rows],
    )
    conn.executemany(
        "INSERT INTO inventory_stock (id, sku, location_id, quantity, reserved, counted_at, updated_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (
            (
                str(uuid.uuid4()),
                f"TREE-{k // len(shelves):06d}",
                shelves[k % len(shelves)],
                1 + k % 9,
                0,
                None,
                ts,
                TENANT,
            )
            for k in range(ROWS)
        ),
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    print(f"location tree: {len(rows):,} locations, {ROWS:,} stock rows on {len(shelves):,} shelves")
    return root, sites


def rollup(settings: Settings) -> None:
    srv = start_server(settings, rate_limits="off")
    rt = srv.runtime
    try:
        root, sites = _tree(settings.data_dir / "data.db")
        ctx = _ctx(rt)

        def total(ref: str) -> int:
            with rt.db.reading(TENANT) as s:
                q = select(func.coalesce(func.sum(InventoryStock.quantity), 0)).where(
                    InventoryStock.location_id.in_(stock.within(ref))
                )
                return int(s.execute(q).scalar_one())

        expected = sum(1 + k % 9 for k in range(ROWS))
        if total("TREE") != expected:
            print(f"rolled-up total of the root {total('TREE')} != {expected}")
            raise SystemExit(1)
        print(f"rolled-up sum of the root ({ROWS:,} rows): {fmt(timed(lambda: total(root), SAMPLES, warmup=2))}")
        print(
            f"rolled-up sum of one site ({ROWS // SITES:,} rows): "
            f"{fmt(timed(lambda: total(sites[0]), SAMPLES, warmup=2))}"
        )
        page = timed(
            lambda: execute(ctx, "inventory.stock.list", query={"location_id": sites[0], "limit": "50"}),
            SAMPLES,
            warmup=2,
        )
        print(f"GET stock?location_id=<site> first page of 50 with its total (service): {fmt(page)}")
    finally:
        srv.stop()
        rt.db.dispose()


ORDERS = 2_000 if TINY else 100_000
BATCH_SIZE = 50
BATCH_SKUS, SHELF_COUNT = 1_000, 200


def _orders(db_path: Path) -> list[str]:
    """ORDERS pending orders of 2 lines each and their items' stock on 2 shelves each under MAIN
    (raw executemany, older than the demo's orders); answers the order numbers."""
    conn = sqlite3.connect(db_path)
    ts = datetime(2025, 1, 1, tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    shelves = [(str(uuid.uuid4()), f"S{n:03d}") for n in range(SHELF_COUNT)]
    conn.executemany(
        "INSERT INTO inventory_locations (id, code, name, kind, parent_id, allow_negative, created_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [(i, code, code, "internal", MAIN, 0, ts, TENANT) for i, code in shelves],
    )
    conn.executemany(
        "INSERT INTO inventory_stock (id, sku, location_id, quantity, reserved, counted_at, updated_at, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (
            (str(uuid.uuid4()), f"BP-{k:04d}", shelves[(k * 7 + j * 101) % SHELF_COUNT][0], 10_000, 0, None, ts, TENANT)
            for k in range(BATCH_SKUS)
            for j in range(2)
        ),
    )
    numbers = [f"BO-{n:06d}" for n in range(ORDERS)]
    ids = [str(uuid.uuid4()) for _ in range(ORDERS)]
    conn.executemany(
        "INSERT INTO fulfillment_orders (id, order_number, pick_barcode, status, source, customer_name,"
        " shipping_address, created_at, updated_at, tenant_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            (ids[n], numbers[n], f"BP{n:010d}", "pending", "manual", f"Customer {n}", "{}", ts, ts, TENANT)
            for n in range(ORDERS)
        ),  # fmt: skip
    )
    conn.executemany(
        "INSERT INTO fulfillment_order_lines (id, order_id, position, sku, barcode, name, quantity,"
        " picked_quantity, tenant_id) VALUES (?,?,?,?,?,?,?,?,?)",
        (
            (
                str(uuid.uuid4()),
                ids[n],
                p,
                f"BP-{(n * 13 + p * 577) % BATCH_SKUS:04d}",
                None,
                "Bench item",
                1 + p,
                0,
                TENANT,
            )
            for n in range(ORDERS)
            for p in range(2)
        ),
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    return numbers


def batch_picking(settings: Settings) -> None:
    srv = start_server(settings, rate_limits="off")
    rt = srv.runtime
    try:
        t0 = time.perf_counter()
        numbers = _orders(settings.data_dir / "data.db")
        print(f"batch picking: {ORDERS:,} pending orders seeded in {time.perf_counter() - t0:.1f} s")
        ctx = _ctx(rt)

        def next_batch() -> None:
            b = execute(ctx, "fulfillment.batches.create", body={"next": BATCH_SIZE})
            opened = execute(ctx, "fulfillment.batches.get", id=b.id)
            walk = [(ln.location_code or "~", ln.sku) for ln in opened.lines]
            if len(opened.orders) != BATCH_SIZE or walk != sorted(walk):
                print(f"batch {b.batch_number}: {len(opened.orders)} orders, walk sorted: {walk == sorted(walk)}")
                raise SystemExit(1)

        samples = 5 if TINY else 20
        print(
            f"batch of the next {BATCH_SIZE} ready orders made, sorted and opened: {fmt(timed(next_batch, samples, warmup=1))}"
        )
        rest = iter(range(len(numbers) - 1, 0, -BATCH_SIZE * 3))

        def named_batch() -> None:
            end = next(rest)
            execute(ctx, "fulfillment.batches.create", body={"orders": numbers[end - BATCH_SIZE * 3 : end : 3]})

        print(f"batch of {BATCH_SIZE} orders named by number: {fmt(timed(named_batch, samples, warmup=1))}")
    finally:
        srv.stop()
        rt.db.dispose()


def _postgres_db(admin_url: str) -> str:
    name = f"bench_ops_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    print(f"operations bench{' (tiny)' if TINY else ''}")
    with tempfile.TemporaryDirectory() as tmp:
        concurrent_reservations(Settings(data_dir=Path(tmp) / "a", secret_key="b" * 32, demo=True), "SQLite")
        pg = os.environ.get("BENCH_POSTGRES_URL")
        if pg:
            settings = Settings(
                data_dir=Path(tmp) / "pg", secret_key="b" * 32, demo=True, database_url=_postgres_db(pg)
            )
            concurrent_reservations(settings, "PostgreSQL")
        rollup(Settings(data_dir=Path(tmp) / "b", secret_key="b" * 32, demo=True))
        batch_picking(Settings(data_dir=Path(tmp) / "c", secret_key="b" * 32, demo=True))


if __name__ == "__main__":
    main()
