"""Analytics: lookups."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.analytics import MetricDaily, MetricPoint
from services.analytics import schemas as sc
from services.core.errors import NotFound, ValidationFailed

MAX_BUCKETS = 3700


def _get(s: Session, model: Any, id: str, what: str) -> Any:
    row = s.get(model, id)
    if row is None:
        raise NotFound(f"{what} not found", {"id": id})
    return row


def bucket_of(d: date, interval: str) -> date:
    if interval == "week":
        return d - timedelta(days=d.weekday())  # ISO weeks start on Monday
    if interval == "month":
        return d.replace(day=1)
    return d


def _buckets(start: date, end: date, interval: str) -> list[date]:
    out: list[date] = []
    b = bucket_of(start, interval)
    while b <= end:
        out.append(b)
        if interval == "day":
            b += timedelta(days=1)
        elif interval == "week":
            b += timedelta(days=7)
        else:
            b = date(b.year + (b.month == 12), b.month % 12 + 1, 1)
    return out


def series(
    s: Session, name: str, start: date, end: date, interval: str = "day", group_by: str | None = None
) -> list[sc.BucketOut]:
    """Sum and count per bucket, ``start`` and ``end`` inclusive. Without ``group_by`` the daily
    roll-up answers (one row per day); with it the points of the window are read."""
    if end < start:
        raise ValidationFailed("to is before from", {"from": str(start), "to": str(end)})
    if (end - start).days > MAX_BUCKETS:
        raise ValidationFailed("a series covers at most ten years", {"days": (end - start).days})
    if group_by is None:
        sums: dict[date, list[float]] = defaultdict(lambda: [0.0, 0])
        for day, value, count in s.execute(
            select(MetricDaily.day, MetricDaily.value, MetricDaily.count).where(
                MetricDaily.name == name, MetricDaily.day >= start, MetricDaily.day <= end
            )
        ):
            acc = sums[bucket_of(day, interval)]
            acc[0] += value
            acc[1] += count
        return [
            sc.BucketOut(bucket=b, value=round(sums[b][0], 6), count=int(sums[b][1]))
            if b in sums
            else sc.BucketOut(bucket=b, value=0.0, count=0)
            for b in _buckets(start, end, interval)
        ]
    lo = datetime.combine(start, time(), UTC)
    hi = datetime.combine(end + timedelta(days=1), time(), UTC)
    groups: dict[tuple[date, str], list[float]] = defaultdict(lambda: [0.0, 0])
    # The dimension is read by the database (JSON path), not by decoding every row's JSON here.
    for at, value, key in s.execute(
        select(MetricPoint.at, MetricPoint.value, MetricPoint.dimensions[group_by].as_string()).where(
            MetricPoint.name == name, MetricPoint.at >= lo, MetricPoint.at < hi
        )
    ):
        acc = groups[(bucket_of(at.astimezone(UTC).date(), interval), "" if key is None else str(key))]
        acc[0] += value
        acc[1] += 1
    return [
        sc.BucketOut(bucket=b, value=round(v[0], 6), count=int(v[1]), group=g or None)
        for (b, g), v in sorted(groups.items())
    ]
