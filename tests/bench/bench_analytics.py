"""Analytics figures (plain script): `python tests/bench/bench_analytics.py` (full: 1,000,000
metric points) or `BENCH_TINY=1 python tests/bench/bench_analytics.py` (a few seconds).

1. A 90-day daily series (``GET metrics``, the use case the route runs) over N stored points of
   the metric: p50/p95 from the daily roll-up, and the same series by a dimension (a scan of the
   window's points) for comparison.
2. What counting every bus event costs ``emit``: events per second in one unit of work with and
   without the counter hook.
3. Customer profile upserts (``set``/``set_once``) per second.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import insert  # noqa: E402
from timing import fmt, timed  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from local_db import new_id  # noqa: E402
from local_db.base import table_of  # noqa: E402
from local_db.models.analytics import MetricDaily, MetricPoint  # noqa: E402
from services.analytics.counting import count_event  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM, Ctx  # noqa: E402
from services.core.demo import seed_demo  # noqa: E402
from services.core.events import emit  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1" or "--tiny" in sys.argv
POINTS = 5_000 if TINY else 1_000_000
RUNS = 20 if TINY else 200
EVENTS = 100 if TINY else 5_000
UPSERTS = 100 if TINY else 5_000
NAME = "orders.value"


def load(rt: object, tenant_id: str, now: datetime) -> None:
    """N points spread over 180 days (three regions), with their daily roll-up."""
    rnd = random.Random(7)
    daily: dict[object, list[float]] = defaultdict(lambda: [0.0, 0])
    rows = []
    with rt.db.transaction(None) as s:  # type: ignore[attr-defined]
        conn = s.connection()
        for i in range(POINTS):
            at = now - timedelta(seconds=rnd.randrange(180 * 86400))
            v = round(rnd.uniform(1, 200), 2)
            rows.append(
                {
                    "id": new_id(),
                    "tenant_id": tenant_id,
                    "name": NAME,
                    "value": v,
                    "at": at,
                    "dimensions": {"region": ("eu", "us", "apac")[i % 3]},
                }
            )
            d = daily[at.date()]
            d[0] += v
            d[1] += 1
            if len(rows) == 20_000:
                conn.execute(insert(table_of(MetricPoint)), rows)
                rows = []
        if rows:
            conn.execute(insert(table_of(MetricPoint)), rows)
        conn.execute(
            insert(table_of(MetricDaily)),
            [
                {"tenant_id": tenant_id, "name": NAME, "day": day, "value": v, "count": n}
                for day, (v, n) in daily.items()
            ],
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret-0123456789abcdef"))
        seed_demo(rt)
        tenant = auth.load_tenant(rt.db, "demo")
        ctx = Ctx(rt, tenant, SYSTEM)
        now = rt.clock.now()
        t = time.perf_counter()
        load(rt, tenant.id, now)
        print(f"loaded {POINTS:,} points in {time.perf_counter() - t:.1f} s")
        q = {"name": NAME, "from": (now.date() - timedelta(days=89)).isoformat(), "to": now.date().isoformat()}

        def daily() -> None:
            assert len(execute(ctx, "analytics.metrics.query", query=q).items) == 90

        def grouped() -> None:
            assert execute(ctx, "analytics.metrics.query", query={**q, "group_by": "region"}).items

        print(f"90-day daily series over {POINTS:,} points (roll-up): {fmt(timed(daily, RUNS, warmup=5))}")
        print(
            f"90-day daily series by region (scan of the window):   {fmt(timed(grouped, max(RUNS // 40, 2), warmup=1))}"
        )

        def burst() -> float:
            t = time.perf_counter()
            with ctx.write():
                for i in range(EVENTS):
                    emit(ctx, "ticket.created", {"ticket_id": str(i)})
            return EVENTS / (time.perf_counter() - t)

        with_counter = burst()
        rt.event_hooks.remove(count_event)
        without = burst()
        rt.event_hooks.append(count_event)
        print(f"emit with the events.<type> counter: {with_counter:,.0f}/s; without: {without:,.0f}/s")

        t = time.perf_counter()
        for i in range(UPSERTS):
            execute(
                ctx,
                "analytics.customers.upsert",
                body={"email": f"p{i % (UPSERTS // 2)}@shop.test", "set": {"n": i}, "set_once": {"first": i}},
            )
        print(f"customer upserts (set/set_once, half of them updates): {UPSERTS / (time.perf_counter() - t):,.0f}/s")
        _ = UTC
        rt.db.dispose()


if __name__ == "__main__":
    main()
