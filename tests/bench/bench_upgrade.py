"""Inspection bench benchmark (not part of `make test`):

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_upgrade.py

With 50,000 trade-ins (each with a kit and two customer photos), times a kit
barcode scan to the screen filled: the scan query, the thumbnails query and the
workspace showing both (photos decoded as pixmaps), and prints p50/p95 next to
the bare database read (raw sqlite3: the submission by barcode and its thumbnails).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import insert  # noqa: E402
from timing import fmt, size, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.wiring import station_runtime  # noqa: E402
from local_db import new_id  # noqa: E402
from local_db.base import table_of  # noqa: E402
from local_db.models.upgrade import UpgradePhoto, UpgradeShipment, UpgradeSubmission  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from services.upgrade.photos import make_thumbnail  # noqa: E402

N = size(50_000, 500)


def fill(ctx: Ctx) -> list[str]:
    """N submissions in state received, each with a kit and two photos; returns some barcodes."""
    from PIL import Image

    thumbs = []
    for hue in range(4):
        import io

        buf = io.BytesIO()
        Image.new("RGB", (1200, 900), (40 * hue, 90, 160)).save(buf, "PNG")
        thumbs.append(make_thumbnail(buf.getvalue()))
    customer = demo_id("upgrade", "demo", "customer", "0")
    now = datetime.now(UTC)
    subs, kits, photos, codes = [], [], [], []
    for i in range(N):
        sid = new_id()
        p1, p2 = new_id(), new_id()
        code = f"KIT-B{i:09d}"
        codes.append(code)
        created = now - timedelta(minutes=i)
        subs.append({"id": sid, "tenant_id": ctx.tenant_id, "customer_id": customer, "product_id": "IPH13-128",
                     "serial_number": f"BENCH{i:08d}", "condition": "good", "description": "bench", "photos": [p1, p2],
                     "status": "received", "created_at": created, "updated_at": created, "received_at": created})  # fmt: skip
        kits.append({"id": new_id(), "tenant_id": ctx.tenant_id, "submission_id": sid, "kind": "kit", "barcode": code,
                     "created_at": created})  # fmt: skip
        for k, pid in enumerate((p1, p2)):
            photos.append({"id": pid, "tenant_id": ctx.tenant_id, "customer_id": customer, "submission_id": sid,
                           "filename": f"{k}.png", "content_type": "image/png", "size": 1000, "sha256": "0" * 64,
                           "thumbnail": thumbs[(i + k) % 4], "created_at": created})  # fmt: skip
    with ctx.write() as s:
        conn = s.connection()
        conn.execute(insert(table_of(UpgradeSubmission)), subs)
        conn.execute(insert(table_of(UpgradeShipment)), kits)
        conn.execute(insert(table_of(UpgradePhoto)), photos)
    return codes


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from views.base import StationSession
    from views.inspection.workspace import InspectionWorkspace
    from views.ops import OpRunner

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        rt = station_runtime(Path(tmp), "bench")
        seed_demo(rt)
        tenant = auth.load_tenant(rt.db, "demo")
        principal = auth.user_principal(rt.db, demo_id("user", "operator@demo.test"), tenant)
        ctx = Ctx(rt, tenant, principal)
        t0 = time.perf_counter()
        codes = fill(ctx)
        print(f"filled {N} trade-ins in {time.perf_counter() - t0:.1f} s")
        ws = InspectionWorkspace(StationSession(runtime=rt, tenant=tenant, principal=principal, ops=OpRunner()))
        ws.resize(1400, 950)
        ws.show()
        app.processEvents()
        sample = codes[:: N // 500]
        it = iter(sample * 10)

        def open_on_screen() -> None:
            # The same calls the workspace makes, run inline so the clock sees all of them.
            sub = execute(Ctx(rt, tenant, principal), "upgrade.admin.scan", code=next(it))
            ws._opened(sub)
            thumbs = execute(
                Ctx(rt, tenant, principal), "upgrade.admin.thumbnails", query={"ids": ",".join(sub.photos)}
            )
            ws._show_thumbs(thumbs)
            app.processEvents()
            assert ws.photos.count() == 2

        screen = timed(open_on_screen, 300, warmup=20)
        raw = sqlite3.connect(Path(tmp) / "data.db")
        it2 = iter(sample * 10)

        def bare_read() -> None:
            row = raw.execute("SELECT s.* FROM upgrade_shipments k JOIN upgrade_submissions s ON s.id = k.submission_id "
                              "WHERE k.tenant_id = ? AND k.barcode = ?", (tenant.id, next(it2))).fetchone()  # fmt: skip
            raw.execute("SELECT id, thumbnail FROM upgrade_photos WHERE submission_id = ?", (row[0],)).fetchall()

        bare = timed(bare_read, 300, warmup=20)
        print(f"scan -> screen filled (scan query, thumbnails, widgets, pixmaps): {fmt(screen)}")
        print(f"  bare database read (raw sqlite3, submission by barcode + thumbnails): {fmt(bare)}")
        raw.close()
        ws.close()
        rt.db.dispose()


if __name__ == "__main__":
    main()
