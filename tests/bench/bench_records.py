"""Records workspace benchmark: run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_records.py [orders]

On a station database with 100,000 extra orders (default) it prints the time for the records
workspace's order list to open (first page on screen, total known), for a filter change
(status, then a search) and for a sort change. Medians and p95; no asserts on time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_fulfillment import bulk_orders  # noqa: E402 - tests/bench, next to this script
from timing import fmt  # noqa: E402

from app.wiring import station_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402


def main() -> None:
    n_orders = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rounds = 20 if n_orders >= 10_000 else 3
    from PySide6.QtWidgets import QApplication

    from views.base import StationSession
    from views.ops import OpRunner
    from views.records.workspace import RecordsWorkspace

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        rt = station_runtime(Path(tmp), "bench-station")
        seed_demo(rt)
        tenant_id = demo_id("tenant", "demo")
        bulk_orders(Path(tmp) / "data.db", tenant_id, n_orders)
        tenant = auth.load_tenant(rt.db, "demo")
        principal = auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant)
        session = StationSession(runtime=rt, tenant=tenant, principal=principal, ops=OpRunner())
        ws = RecordsWorkspace(session)
        ws.resize(1280, 800)
        ws.show()

        def settle() -> None:
            while session.ops.active or (ws.model is not None and ws.model._busy):
                app.processEvents()
                session.ops.pool.waitForDone(1)
            ws.table.viewport().repaint()

        def measure(step: object) -> float:
            t = time.perf_counter()
            step()  # type: ignore[operator]
            settle()
            return time.perf_counter() - t

        settle()
        other = "upgrade:/admin/valuations"
        opens, filters, searches, sorts = [], [], [], []
        for _ in range(rounds):
            ws.show_resource(other)
            settle()
            opens.append(measure(lambda: ws.show_resource("fulfillment:/orders")))
            assert ws.model is not None and ws.model.total >= n_orders and ws.model.rowCount() == 100
            status = ws.filter_inputs["status"]
            status.setText("pending")  # type: ignore[union-attr]
            filters.append(measure(ws._apply_filters))
            status.setText("")  # type: ignore[union-attr]
            ws.search.setText("SO-1500")
            searches.append(measure(ws._apply_filters))
            ws.search.setText("")
            ws.model.query["sort"] = "-updated_at"
            sorts.append(measure(ws._apply_filters))
            ws.model.query.pop("sort")
            assert ws.model.total >= n_orders
        total = ws.model.total
        session.ops.wait()
        ws.close()
        rt.db.dispose()
    print(f"records list opens (first 100 of {total:,} orders on screen): {fmt(opens)}")
    print(f"  filter change (status=pending):                        {fmt(filters)}")
    print(f"  search change (SO-1500):                               {fmt(searches)}")
    print(f"  sort change (updated_at):                              {fmt(sorts)}")


if __name__ == "__main__":
    main()
