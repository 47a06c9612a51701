"""Aftersale benchmark (not part of `make test`, which smoke-runs it tiny): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_aftersale.py
    BENCH_TINY=1 ... (a few seconds)

Public warranty registration with 100,000 registrations stored: the duplicate-serial check,
the Catalog lookup of the SKU, the insert and its ``warranty.registered`` event, timed through
the service (``execute``) and over HTTP on a real uvicorn server (``POST p/warranties``), new
serials and duplicates (409) apart. Prints p50/p95; the goal is p95 under 10 ms.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from itertools import count
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
from timing import fmt, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from services.aftersale.warranties import serial_key  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx, Principal  # noqa: E402
from services.core.demo import demo_id  # noqa: E402
from services.core.errors import Conflict  # noqa: E402
from tests.conftest import start_server  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1"
ROWS = 1_000 if TINY else 100_000
SAMPLES = 20 if TINY else 500
BASE = "/demo/aftersale/api"


def bulk(db_path: Path, tenant_id: str, rows: int) -> None:
    conn = sqlite3.connect(db_path)
    ts = datetime(2026, 1, 1, tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    conn.executemany(
        "INSERT INTO aftersale_warranties (id, serial_number, active_serial, product_sku, product_name,"
        " warranty_months, purchase_date, coverage_until, status, email, name, retailer, proof_file_id,"
        " created_at, tenant_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            (
                str(uuid.uuid4()),
                f"BULK-{k:07d}",
                serial_key(f"BULK-{k:07d}"),  # serials compare without case, spaces and dashes
                "MUG-CER-01",
                "Ceramic mug",
                24,
                "2026-01-01",
                "2030-01-01",
                "active",
                f"c{k % 5000}@example.com",
                "Bulk",
                None,
                None,
                ts,
                tenant_id,
            )
            for k in range(rows)
        ),
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()


def body(serial: str, email: str = "bench@example.com") -> dict[str, str]:
    return {
        "serial_number": serial,
        "product_sku": "MUG-CER-01",
        "purchase_date": "2026-02-01",
        "email": email,
        "name": "Bench",
    }


def again(k: int) -> dict[str, str]:
    """The holder of a stored serial registering it again: a duplicate (409). Another person's
    claim of it is a dispute for staff, stored, not refused."""
    k %= ROWS
    return body(f"BULK-{k:07d}", f"c{k % 5000}@example.com")


def main() -> None:
    print(f"aftersale bench{' (tiny)' if TINY else ''}: {ROWS:,} registrations stored")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "a", secret_key="b" * 32, demo=True)
        srv = start_server(settings, rate_limits="off")
        rt = srv.runtime
        try:
            bulk(settings.data_dir / "data.db", demo_id("tenant", "demo"), ROWS)
            tenant = auth.load_tenant(rt.db, "demo")
            ctx = Ctx(rt, tenant, Principal(kind="public", id="ip:bench"))
            n = count()

            def register() -> None:
                execute(ctx, "aftersale.warranties.register", body=body(f"SVC-{next(n):07d}"))

            def duplicate() -> None:
                try:
                    execute(ctx, "aftersale.warranties.register", body=again(next(n)))
                except Conflict:
                    return
                raise SystemExit("a duplicate serial was registered")

            svc = timed(register, SAMPLES, warmup=5)
            print(f"register (service, new serial): {fmt(svc)}")
            print(f"register (service, duplicate serial -> 409): {fmt(timed(duplicate, SAMPLES, warmup=5))}")
            with httpx.Client(base_url=srv.url, timeout=60) as c:

                def post() -> None:
                    r = c.post(f"{BASE}/p/warranties", json=body(f"HTTP-{next(n):07d}"))
                    if r.status_code != 201:
                        raise SystemExit(f"{r.status_code} {r.text[:200]}")

                def post_dup() -> None:
                    r = c.post(f"{BASE}/p/warranties", json=again(next(n)))
                    if r.status_code != 409:
                        raise SystemExit(f"{r.status_code} {r.text[:200]}")

                http = timed(post, SAMPLES, warmup=10)
                print(f"POST p/warranties (HTTP, new serial): {fmt(http)}")
                print(f"POST p/warranties (HTTP, duplicate -> 409): {fmt(timed(post_dup, SAMPLES, warmup=5))}")
        finally:
            srv.stop()
            rt.db.dispose()


if __name__ == "__main__":
    main()
