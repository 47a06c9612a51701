"""Tax benchmark (not part of `make test`'s pass/fail):

    .venv/bin/python tests/bench/bench_tax.py                 # full size: 100,000 orders and refunds
    BENCH_TINY=1 .venv/bin/python tests/bench/bench_tax.py    # smoke run, a few seconds

1. The sync of N synthetic orders and refunds (one refund in ten; one refund in ten of those for an
   order the shop never lists) from the local shop of tests/shop_server.py: time, then a second run
   (it must import and update 0) and the duplicates held (must be 0).
2. Liability by state and month for the whole year, compared with an independent recomputation
   from the shop's own rows with Decimal: every figure must be equal to the cent (mismatches must
   be 0), and the time of `GET liability` (the service call the route runs) for a month and for
   the whole year.
Exits non-zero when a correctness check fails.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import func, select  # noqa: E402
from timing import fmt, timed  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from local_db.models.tax import TaxTransaction  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.connections import ConnectionsConfig  # noqa: E402
from services.core.context import Ctx, Runtime  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from tests.shop_server import Shop, ShopBehaviour  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
N = 2_000 if TINY else 100_000
YEAR = 2025
STATES = ["CA", "NY", "TX", "FL", "WA", "GA", "IL", "PA", "OH", "NJ"]
RATES = ["0.0725", "0.08875", "0.0625", "0.06", "0.065", "0.04", "0.0625", "0.06", "0.0575", "0.06625"]


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


def fill(shop: Shop, n: int) -> None:
    rng = random.Random(1300)
    n_refunds = n // 10
    orders = shop.state.orders
    for i in range(n - n_refunds):
        k = rng.randrange(len(STATES))
        amount = Decimal(rng.randint(99, 250_000)) / 100
        exempt = rng.random() < 0.03
        tax = Decimal(0) if exempt else (amount * Decimal(RATES[k])).quantize(Decimal("0.01"), ROUND_HALF_UP)
        orders.append(
            {
                "id": f"O-{i}",
                "date": (date(YEAR, 1, 1) + timedelta(days=rng.randint(0, 364))).isoformat(),
                "state": STATES[k],
                "amount": str(amount),
                "shipping": str(Decimal(rng.choice([0, 499, 799, 1299])) / 100),
                "tax": str(tax),
                "exempt": exempt,
            }
        )
    for j in range(n_refunds):
        o = orders[rng.randrange(len(orders))]
        share = Decimal(rng.choice([100, 100, 50, 25])) / 100
        amount = (Decimal(o["amount"]) * share).quantize(Decimal("0.01"), ROUND_HALF_UP)
        tax = (Decimal(o["tax"]) * share).quantize(Decimal("0.01"), ROUND_HALF_UP)
        shop.state.refunds.append(
            {
                "id": f"R-{j}",
                "order_id": f"NEVER-{j}" if j % 10 == 0 else o["id"],
                "date": min(
                    date.fromisoformat(o["date"]) + timedelta(days=rng.randint(0, 20)), date(YEAR, 12, 31)
                ).isoformat(),
                "state": o["state"],
                "amount": str(amount),
                "shipping": "0",
                "tax": str(tax),
                "exempt": o["exempt"],
            }
        )


def recompute(shop: Shop) -> dict[tuple[str, int], dict[str, Decimal]]:
    """Per (state, month), straight from the shop's rows: the independent figure."""
    out: dict[tuple[str, int], dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for kind, rows in (("order", shop.state.orders), ("refund", shop.state.refunds)):
        for r in rows:
            v = out[(r["state"], int(r["date"][5:7]))]
            sign = 1 if kind == "order" else -1
            v["exempt_sales" if r["exempt"] else "taxable_sales"] += sign * Decimal(r["amount"])
            v["tax_collected" if kind == "order" else "refunded"] += Decimal(r["tax"])
            v["transactions"] += 1
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret"))
        rt.provide(ConnectionsConfig(allow_private=True))
        seed_demo(rt)
        ctx = ctx_for(rt)
        print(f"== tax benchmark ({'tiny' if TINY else 'full'} size: {N:,} orders and refunds)")
        shop = Shop(ShopBehaviour(rate=10_000, page_size=5000)).start()
        try:
            t = time.perf_counter()
            fill(shop, N)
            print(f"  shop filled in {time.perf_counter() - t:.1f} s")
            execute(
                ctx,
                "tax.connections.ecommerce.save",
                body={
                    "provider": "generic",
                    "base_url": shop.url,
                    "rate_limit": 100,
                    "credentials": {"api_key": "shop-key-1"},
                },
            )
            t = time.perf_counter()
            first = execute(ctx, "tax.transactions.sync", body={})
            took = time.perf_counter() - t
            print(
                f"1. sync: imported {first.imported:,} (standalone refunds {first.refunds_without_order:,}) "
                f"in {took:.1f} s ({first.imported / took:,.0f} rows/s)"
            )
            t = time.perf_counter()
            second = execute(ctx, "tax.transactions.sync", body={})
            print(
                f"   second sync: imported {second.imported}, updated {second.updated}, skipped {second.skipped:,} "
                f"in {time.perf_counter() - t:.1f} s"
            )
            with rt.db.reading(ctx.tenant_id) as s:
                held = s.execute(
                    select(func.count())
                    .select_from(TaxTransaction)
                    .where(TaxTransaction.date.between(date(YEAR, 1, 1), date(YEAR, 12, 31)))
                ).scalar_one()
                distinct = s.execute(
                    select(func.count(func.distinct(TaxTransaction.kind + ":" + TaxTransaction.external_id))).where(
                        TaxTransaction.date.between(date(YEAR, 1, 1), date(YEAR, 12, 31))
                    )
                ).scalar_one()
            duplicates = held - distinct
            print(f"   rows held {held:,}, duplicates {duplicates}")
            ok = second.imported == 0 and second.updated == 0 and duplicates == 0 and held == N

            want = recompute(shop)
            mismatches = checked = 0
            for month in range(1, 13):
                start = date(YEAR, month, 1)
                end = (date(YEAR + month // 12, month % 12 + 1, 1)) - timedelta(days=1)
                got = execute(ctx, "tax.liability", query={"from": start.isoformat(), "to": end.isoformat()})
                for row in got.states:
                    w = want[(row.state, month)]
                    for name in ("taxable_sales", "exempt_sales", "tax_collected", "refunded"):
                        checked += 1
                        mismatches += Decimal(getattr(row, name)) != w[name]
                    checked += 2
                    mismatches += Decimal(row.net_liability) != w["tax_collected"] - w["refunded"]
                    mismatches += row.transactions != w["transactions"]
                mismatches += len({st for st, m in want if m == month} ^ {r.state for r in got.states})
            print(f"2. liability by state and month: {checked:,} figures compared, mismatches {mismatches}")
            ok = ok and mismatches == 0
            month_q = {"from": f"{YEAR}-06-01", "to": f"{YEAR}-06-30"}
            year_q = {"from": f"{YEAR}-01-01", "to": f"{YEAR}-12-31"}
            print(
                f"   GET liability, one month: {fmt(timed(lambda: execute(ctx, 'tax.liability', query=month_q), 20, 2))}"
            )
            print(
                f"   GET liability, the year:  {fmt(timed(lambda: execute(ctx, 'tax.liability', query=year_q), 20, 2))}"
            )
            print(f"   GET dashboard:            {fmt(timed(lambda: execute(ctx, 'tax.dashboard'), 10, 1))}")
        finally:
            shop.stop()
            rt.db.dispose()
        if not ok:
            print("FAILED: duplicates or a figure off by a cent")
            sys.exit(1)


if __name__ == "__main__":
    main()
