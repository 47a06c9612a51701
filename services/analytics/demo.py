"""Demo content of Analytics (CONTRACT.md "dashboards with data"): 90 days of history for the
operations metrics the bus feeds, a revenue metric with a channel dimension, two dashboards,
a finished report and two customer profiles. Deterministic: seeded values, ``demo_id`` ids.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import text

from local_db.models.analytics import CustomerProfile, Dashboard, MetricPoint
from services.analytics.metrics import UPSERT_DAILY
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

DAYS = 90
# metric, base per day, weekly swing
HISTORY = [
    ("events.order.shipped", 24, 8),
    ("events.ticket.created", 7, 3),
    ("events.tradein.approved", 3, 2),
    ("events.qr.scanned", 55, 20),
]
OPERATIONS = [
    {
        "title": "Orders shipped per day",
        "metric": "events.order.shipped",
        "interval": "day",
        "chart": "line",
        "filters": {"days": 30},
    },
    {
        "title": "Tickets opened",
        "metric": "events.ticket.created",
        "interval": "day",
        "chart": "bar",
        "filters": {"days": 30},
    },
    {
        "title": "Trade-ins accepted",  # over the range the dashboard shows, as every card
        "metric": "events.tradein.approved",
        "interval": "day",
        "chart": "number",
        "filters": {"days": 30},
    },
    {
        "title": "QR scans per week",
        "metric": "events.qr.scanned",
        "interval": "week",
        "chart": "bar",
        "filters": {"days": 84},
    },
]
SALES = [
    {
        "title": "Revenue (30 days)",
        "metric": "sales.revenue",
        "interval": "day",
        "chart": "number",
        "filters": {"days": 30},
    },
    {
        "title": "Revenue per day",
        "metric": "sales.revenue",
        "interval": "day",
        "chart": "line",
        "filters": {"days": 60},
    },
    {
        "title": "Revenue by channel",
        "metric": "sales.revenue",
        "interval": "month",
        "chart": "bar",
        "filters": {"days": 90, "group_by": "channel"},
    },
]
# The seeded dashboards: (the key of their demo id, name, widgets). Their names and card titles are
# stored in English; the desktop shows them in its language while they are as seeded
# (views/dashboards/titles.py), a person's own or renamed titles as typed.
DASHBOARDS = (("operations", "Operations", OPERATIONS), ("sales", "Sales", SALES))


@demo_seeder
def seed_analytics(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    today = now.date()
    rnd = random.Random(1200)
    with ctx.write() as s:
        # Points are never deleted: the first one marks a seeded tenant (dashboards may be gone).
        if s.get(MetricPoint, demo_id("analytics-point", str(DAYS), "0")) is not None:
            return
        for name, base, swing in HISTORY:
            for back in range(DAYS, 0, -1):  # up to yesterday: today fills from the bus
                day = today - timedelta(days=back)
                weekend = day.weekday() >= 5
                n = max(0, int(base + swing * rnd.uniform(-1, 1) - (base * 0.4 if weekend else 0)))
                if not n:
                    continue
                s.execute(UPSERT_DAILY, {"tenant_id": ctx.tenant_id, "name": name, "day": day, "value": float(n)})
                # The upsert counted one; a day of n events counts n.
                s.execute(
                    text("UPDATE analytics_daily SET count = :n WHERE tenant_id = :t AND name = :m AND day = :d"),
                    {"n": n, "t": ctx.tenant_id, "m": name, "d": day},
                )
        points = []
        for back in range(DAYS, 0, -1):
            day = today - timedelta(days=back)
            for k in range(rnd.randint(3, 8)):
                channel = rnd.choice(["web", "web", "store", "marketplace"])
                at = datetime.combine(day, time(9 + k, rnd.randint(0, 59)), UTC)
                value = round(rnd.uniform(20, 240), 2)
                points.append(
                    MetricPoint(
                        id=demo_id("analytics-point", str(back), str(k)),
                        name="sales.revenue",
                        value=value,
                        at=at,
                        dimensions={"channel": channel},
                    )
                )
        s.add_all(points)
        s.flush()
        for p in points:
            s.execute(UPSERT_DAILY, {"tenant_id": ctx.tenant_id, "name": p.name, "day": p.at.date(), "value": p.value})
        for key, name, widgets in DASHBOARDS:
            s.add(
                Dashboard(
                    id=demo_id("analytics-dashboard", key), name=name, widgets=widgets, created_at=now, updated_at=now
                )
            )
        s.add(
            CustomerProfile(
                id=demo_id("analytics-customer", "casey"),
                email="customer@demo.test",
                email_key="customer@demo.test",
                external_id="shop-1001",
                attributes={"plan": "gold", "first_seen": "2025-11-02", "orders": 7},
                created_at=now,
                updated_at=now,
            )
        )
        s.add(
            CustomerProfile(
                id=demo_id("analytics-customer", "dana"),
                email="dana@demo.test",
                email_key="dana@demo.test",
                attributes={"plan": "basic", "first_seen": "2026-01-15"},
                created_at=now,
                updated_at=now,
            )
        )
