"""Fulfillment benchmarks (not part of `make test`): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_fulfillment.py [orders]

On a station database (file SQLite) with 100,000 extra orders (default) it prints:
- the scan service call (``fulfillment.orders.operate`` pick of one item) next to
  a bare indexed sqlite3 lookup of the same barcode;
- the time from the scanner's Enter in the warehouse workspace to the verified
  line painted (op runner thread hop + service + repaint);
- the time for the order queue to open (first page of pending orders on screen).
Medians and p95; no asserts on time.
"""

from __future__ import annotations

import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import calls_per_call, fmt, size, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.wiring import station_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.checkdigits import with_check_digit  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402


def bulk_orders(db_path: Path, tenant_id: str, n: int) -> list[tuple[str, str]]:
    """n pending orders with two lines each (quantity 5), raw executemany; returns (order id, barcode) pairs."""
    conn = sqlite3.connect(db_path)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    orders, lines, scans = [], [], []
    for i in range(n):
        oid = str(uuid.uuid4())
        ts = (base + timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S.%f")
        num = 100_000 + i
        orders.append((oid, f"SO-{num}", "PL" + with_check_digit(f"{num:09d}"), "pending", "bench", "Bench Buyer",
                       '{"name": "Bench Buyer", "city": "Springfield"}', ts, ts, tenant_id))  # fmt: skip
        for k in range(2):
            code = with_check_digit(f"29{i * 2 + k:010d}")
            lines.append((str(uuid.uuid4()), oid, k, f"SKU-{i}-{k}", code, f"Item {i}-{k}", 5, 0, tenant_id))
            scans.append((oid, code))
    conn.executemany(
        "INSERT INTO fulfillment_orders (id, order_number, pick_barcode, status, source, customer_name,"
        " shipping_address, created_at, updated_at, tenant_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
        orders,
    )
    conn.executemany(
        "INSERT INTO fulfillment_order_lines (id, order_id, position, sku, barcode, name, quantity,"
        " picked_quantity, tenant_id) VALUES (?,?,?,?,?,?,?,?,?)",
        lines,
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    return scans


def main() -> None:
    n_orders = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        rt = station_runtime(Path(tmp), "bench-station")
        seed_demo(rt)
        tenant_id = demo_id("tenant", "demo")
        t0 = time.perf_counter()
        scans = bulk_orders(Path(tmp) / "data.db", tenant_id, n_orders)
        print(f"{n_orders:,} orders ({len(scans):,} lines) inserted in {time.perf_counter() - t0:.1f} s")
        with rt.db.reading(None) as s:
            from local_db.models import Tenant

            tenant = auth.tenant_info(s.get(Tenant, tenant_id))  # type: ignore[arg-type]
        ctx_principal = auth.user_principal(rt.db, demo_id("user", "device@demo.test"), tenant)
        rng = random.Random(7)
        sample = rng.sample(scans, size(1100, 10))

        # 1. The scan service call, one item each, on 1,100 random orders (timed, then counted).
        it = iter(sample)

        def service_scan() -> None:
            oid, code = next(it)
            res = execute(Ctx(rt, tenant, ctx_principal), "fulfillment.orders.operate", id=oid,
                          body={"operation": "pick", "items": [{"code": code, "quantity": 1}]})  # fmt: skip
            assert res.matched_line_ids

        for _ in range(size(50, 1)):
            service_scan()  # warm-up
        cpu0 = time.process_time()
        svc = timed(service_scan, 500)
        svc_cpu = (time.process_time() - cpu0) / len(svc)  # this process's CPU: others' load does not count
        svc_calls = calls_per_call(service_scan, 500)

        # 2. A bare indexed sqlite3 lookup of the same barcodes.
        conn = sqlite3.connect(Path(tmp) / "data.db")
        codes = [c for _o, c in sample]
        q = ("SELECT id, order_id, quantity, picked_quantity FROM fulfillment_order_lines"
             " WHERE tenant_id = ? AND barcode = ?")  # fmt: skip
        ci = iter(codes * 3)
        raw = timed(lambda: conn.execute(q, (tenant_id, next(ci))).fetchone(), 1500)
        conn.close()

        # 3. Enter in the workspace -> verified line painted; 4. the queue opening.
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication

        from views.base import StationSession
        from views.ops import OpRunner
        from views.warehouse.workspace import WarehouseWorkspace

        app = QApplication.instance() or QApplication([])
        session = StationSession(runtime=rt, tenant=tenant, principal=ctx_principal, ops=OpRunner())
        # As in the app: every commit is announced and the workspace refreshes from it (on_changed).
        session.ops.watch(rt)
        ws = WarehouseWorkspace(session)
        ws.resize(1400, 900)
        ws.show()

        def settle() -> None:
            while session.ops.active:
                app.processEvents()
                session.ops.pool.waitForDone(1)
            app.processEvents()

        settle()
        queue_times = []
        for _ in range(size(20, 1)):
            t = time.perf_counter()
            ws.queue.reset("pending", "created_at")
            settle()
            ws.queue_view.viewport().repaint()
            queue_times.append(time.perf_counter() - t)
            assert ws.queue.rowCount() == 100

        ui, ui_cpu = [], []
        for oid, code in rng.sample(scans, size(200, 2)):
            ws._leave_to = oid  # the last order is part-picked: leaving it is already confirmed
            ws.open_order(oid)
            settle()
            row = next(r for r in range(ws.lines.rowCount()) if ws.lines.item(r, 1).text() == code)
            before = ws.lines.item(row, 3).text()
            t, c = time.perf_counter(), time.process_time()
            ws.scan_input.setText(code)
            QTest.keyClick(ws.scan_input, Qt.Key.Key_Return)
            while ws.lines.item(row, 3).text() == before:
                app.processEvents()
                session.ops.pool.waitForDone(1)
            ws.lines.viewport().repaint()
            ui.append(time.perf_counter() - t)
            ui_cpu.append(time.process_time() - c)  # every thread of this process: the service call too
            settle()
        session.ops.wait()
        rt.db.dispose()

    print(f"scan service call (pick one item, event-free, outbox row): {fmt(svc)}")
    print(f"  CPU time per scan call:                                 {svc_cpu * 1e3:.3f} ms")
    print(f"  Python function calls per scan call:                    {svc_calls:.0f}")
    print(f"  bare indexed sqlite3 lookup of the same barcode:        {fmt(raw)}")
    print(f"  ratio (median): {statistics.median(svc) / statistics.median(raw):.0f}x")
    print(f"scanner Enter -> verified line painted (workspace):      {fmt(ui)}")
    print(f"  process CPU from Enter to painted:                      {fmt(ui_cpu)}")
    print(f"order queue opens (first 100 pending of {n_orders:,}):     {fmt(queue_times)}")


if __name__ == "__main__":
    main()
