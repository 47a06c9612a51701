"""Analytics: metrics."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from local_db.models.analytics import MetricDaily, MetricPoint
from services.analytics import schemas as sc
from services.analytics.lookups import series
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import Page, PageSpec
from services.core.roles import STAFF

# One statement on both backends (SQLite and PostgreSQL speak ON CONFLICT).
UPSERT_DAILY = text(
    "INSERT INTO analytics_daily (tenant_id, name, day, value, count) VALUES (:tenant_id, :name, :day, :value, 1)"
    " ON CONFLICT (tenant_id, name, day) DO UPDATE SET value = analytics_daily.value + :value,"
    " count = analytics_daily.count + 1"
)


def record_point(
    ctx: Ctx, s: Session, name: str, value: float, at: datetime, dimensions: dict[str, Any]
) -> MetricPoint:
    p = MetricPoint(name=name, value=value, at=at, dimensions=dimensions)
    s.add(p)
    s.flush()
    s.execute(
        UPSERT_DAILY, {"tenant_id": ctx.tenant_id, "name": name, "day": at.astimezone(UTC).date(), "value": value}
    )
    return p


@use_case(
    "analytics.metrics.record",
    "POST /metrics",
    tx="write",
    roles=STAFF,
    status=201,
    says="Record {name}",
    summary="record a metric point {name, value, at?, dimensions?}",
)
def record_metric(ctx: Ctx, body: sc.MetricIn, session: Session = SESSION) -> sc.MetricOut:
    at = body.at or ctx.now()
    p = record_point(ctx, session, body.name, body.value, at, dict(body.dimensions))
    return sc.MetricOut(id=p.id, name=p.name, value=p.value, at=p.at, dimensions=p.dimensions)


def _window(q: sc.SeriesQuery, today: date) -> tuple[date, date]:
    end = q.to or today
    return (q.from_ or end - timedelta(days=29)), end


@use_case(
    "analytics.metrics.query",
    "GET /metrics",
    tx="read",
    roles=STAFF,
    summary="the series of a metric: ?name=&from=&to=&interval=day|week|month&group_by=;"
    " without name, every metric's total over the window",
)
def query_metrics(ctx: Ctx, query: sc.SeriesQuery) -> Page[sc.BucketOut]:
    start, end = _window(query, ctx.now().date())
    with ctx.read() as s:
        if query.name is None:
            if end < start:
                raise ValidationFailed("to is before from", {"from": str(start), "to": str(end)})
            rows = s.execute(
                select(MetricDaily.name, func.sum(MetricDaily.value), func.sum(MetricDaily.count))
                .where(MetricDaily.day >= start, MetricDaily.day <= end)
                .group_by(MetricDaily.name)
                .order_by(MetricDaily.name)
            )
            items = [sc.BucketOut(bucket=start, value=round(v or 0, 6), count=int(n or 0), group=m) for m, v, n in rows]
        else:
            items = series(s, query.name, start, end, query.interval, query.group_by)
    # The whole series is one page: a chart needs every bucket.
    return Page(items, len(items), PageSpec("A", 1, max(len(items), 1), 0, None, False))
