"""Rewards benchmark (not part of `make test`, which smoke-runs it tiny): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_rewards.py
    BENCH_TINY=1 ... (a few seconds)
    BENCH_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:55432/postgres ... (also on PostgreSQL)

Concurrent checkouts against one balance on a real uvicorn server: a dealer with points for
exactly half of them fires 50 checkouts at once (one HTTP client each, released together).
Exactly that many succeed, the rest are 409, the balance ends at zero, never below, and the
ledger adds up to the balance. Prints the outcome and the time per checkout (p50/p95).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
from sqlalchemy import create_engine, func, select  # noqa: E402
from timing import fmt  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from local_db.models.rewards import RewardsDealer, RewardsLedgerEntry  # noqa: E402
from services.core.demo import DEMO_PASSWORD, demo_id  # noqa: E402
from tests.conftest import start_server  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1"
PARALLEL = 10 if TINY else 50
ROUNDS = 1 if TINY else 3
BASE = "/demo/rewards/api"
ADDRESS = {"line1": "1 Main St", "city": "Springfield", "country": "US"}
PRICE = 100


def race(settings: Settings, label: str) -> None:
    srv = start_server(settings, rate_limits="off")
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            staff = c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
            h = {"Authorization": f"Bearer {staff.json()['data']['token']}"}
            pid = c.post(
                f"{BASE}/admin/products", json={"name": "Race prize", "points": PRICE, "stock": 100_000}, headers=h
            ).json()["data"]["id"]
            dealer = c.post(f"{BASE}/auth/login", json={"email": "east@demo.test", "password": DEMO_PASSWORD})
            d = {"Authorization": f"Bearer {dealer.json()['data']['token']}"}
            east = demo_id("rewards-dealer", "east")
        lat: list[float] = []
        failures: list[str] = []
        lock = threading.Lock()
        for rnd in range(ROUNDS):
            with httpx.Client(base_url=srv.url, timeout=60) as c:
                balance = c.get(f"{BASE}/points", headers=d).json()["data"]["balance"]
                # Points for exactly half of the checkouts.
                want = PRICE * (PARALLEL // 2) - balance
                if want:
                    c.post(f"{BASE}/admin/dealers/{east}/points", json={"points": want, "reason": "bench"}, headers=h)
            codes: list[int] = []
            barrier = threading.Barrier(PARALLEL)

            def worker(barrier: threading.Barrier = barrier, codes: list[int] = codes) -> None:
                with httpx.Client(base_url=srv.url, timeout=60) as wc:
                    wc.get("/health")  # connected before the barrier: the race is on the checkout
                    barrier.wait()
                    t = time.perf_counter()
                    r = wc.post(
                        f"{BASE}/cart/checkout",
                        json={"shipping_address": ADDRESS, "items": [{"product_id": pid, "quantity": 1}]},
                        headers=d,
                    )
                    dt = time.perf_counter() - t
                    with lock:
                        lat.append(dt)
                        codes.append(r.status_code)
                        if r.status_code not in (201, 409):
                            failures.append(f"{r.status_code} {r.text[:120]}")

            threads = [threading.Thread(target=worker) for _ in range(PARALLEL)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            with srv.runtime.db.reading(None) as s:
                row = s.execute(select(RewardsDealer.balance).where(RewardsDealer.id == east)).scalar_one()
                total = s.execute(
                    select(func.coalesce(func.sum(RewardsLedgerEntry.points), 0)).where(
                        RewardsLedgerEntry.dealer_id == east
                    )
                ).scalar_one()
                low = s.execute(
                    select(func.min(RewardsLedgerEntry.balance_after)).where(RewardsLedgerEntry.dealer_id == east)
                ).scalar_one()
            ok = codes.count(201)
            good = ok == PARALLEL // 2 and codes.count(409) == PARALLEL - ok and row == 0 == total and low >= 0
            print(
                f"[{label}] round {rnd + 1}: {PARALLEL} concurrent checkouts of {PRICE} points on a balance of "
                f"{PRICE * (PARALLEL // 2)}: {ok} placed, {codes.count(409)} refused (409); balance {row}, "
                f"ledger sum {total}, lowest balance_after {low} -> {'exact' if good else 'OVERSPEND'}"
            )
            if not good or failures:
                for f in failures[:5]:
                    print("   ", f)
                raise SystemExit(1)
        print(f"[{label}] per checkout (HTTP, {PARALLEL} in flight): {fmt(lat)}")
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def _postgres_db(admin_url: str) -> str:
    name = f"bench_rw_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    print(f"rewards bench{' (tiny)' if TINY else ''}: {PARALLEL} concurrent checkouts x {ROUNDS} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        race(Settings(data_dir=Path(tmp) / "a", secret_key="b" * 32, demo=True), "SQLite")
        pg = os.environ.get("BENCH_POSTGRES_URL")
        if pg:
            settings = Settings(
                data_dir=Path(tmp) / "pg", secret_key="b" * 32, demo=True, database_url=_postgres_db(pg)
            )
            race(settings, "PostgreSQL")


if __name__ == "__main__":
    main()
