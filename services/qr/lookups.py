"""Qr: lookups."""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Date, bindparam, text
from sqlalchemy.orm import Session

from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.storage import read_blob
from services.qr.schemas import (
    AnalyticsOut,
    Breakdown,
    DayCount,
)

DEFAULT_DAYS = 30


MAX_RANGE_DAYS = 3660


def _logo(ctx: Ctx, style: dict[str, Any]) -> bytes | None:
    fid = style.get("logo_file_id")
    if not fid:
        return None
    try:
        return read_blob(ctx, fid)
    except (OSError, ValueError) as exc:
        raise ValidationFailed("unknown logo file", {"logo_file_id": fid}) from exc


def _range(ctx: Ctx, frm: date | None, to: date | None) -> tuple[date, date]:
    end = to or ctx.now().date()
    start = frm or end - timedelta(days=DEFAULT_DAYS - 1)
    if start > end:
        raise ValidationFailed("from must not be after to", {"from": str(start), "to": str(end)})
    if (end - start).days > MAX_RANGE_DAYS:
        raise ValidationFailed("range over ten years", {"from": str(start), "to": str(end)})
    return start, end


BREAKDOWNS = ("device", "browser", "os", "referrer", "orphans")


@dataclass
class _Part:
    """Counters of a stretch of days: per day (scans, unique, bots) and per (dim, key)."""

    days: dict[date, list[int]]
    dims: dict[tuple[str, str], int]
    # The days as answer rows, built once: a month kept in the cache is not rebuilt on every read.
    rows: list[DayCount] = field(default_factory=list)


class MonthCache:
    """Counters of months that are over, kept in the process (a runtime part).

    A scan is always counted on the day it happens (``ctx.now()``), so a month that has ended never
    changes again: its counters can be kept without being invalidated. A year's summary then reads
    the days of the current month only. Bounded: the oldest months read go first.
    """

    LIMIT = 20_000

    def __init__(self) -> None:
        self.months: dict[tuple[str, str, date], _Part] = {}
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, date]) -> _Part | None:
        return self.months.get(key)

    def put(self, key: tuple[str, str, date], part: _Part) -> None:
        with self.lock:
            while len(self.months) >= self.LIMIT:
                self.months.pop(next(iter(self.months)))
            self.months[key] = part


def _part_sql(dims: str, by: str, code: bool) -> Any:
    sql = (
        f"SELECT {by}, SUM(count) FROM qr_daily WHERE tenant_id = :tenant_id AND day >= :start AND day <= :end"
        + (" AND code_id = :code_id" if code else "")
        + f" AND dim IN ({dims}) GROUP BY {by}"
    )
    return text(sql).bindparams(bindparam("start", type_=Date()), bindparam("end", type_=Date()))


# Built once (the summary runs them on every read): per day, and per breakdown key; each with and
# without a code. The tenant is in every statement (plain SQL is not scoped by the session).
_DAY_SQL = {code: _part_sql("'scans', 'unique', 'bots'", "day, dim", code) for code in (True, False)}


_DIM_SQL = {code: _part_sql(", ".join(f"'{d}'" for d in BREAKDOWNS), "dim, key", code) for code in (True, False)}


def _read_part(s: Session, tenant_id: str, code_id: str | None, start: date, end: date) -> _Part:
    """The counters of ``start``..``end`` summed in SQL (never the scan table)."""
    params = {"tenant_id": tenant_id, "start": start, "end": end, "code_id": code_id}
    conn = s.connection()
    slot = {"scans": 0, "unique": 1, "bots": 2}
    days: dict[date, list[int]] = {}
    for day, dim, count in conn.execute(_DAY_SQL[code_id is not None], params):
        days.setdefault(_as_date(day), [0, 0, 0])[slot[dim]] = int(count)
    dims = {(dim, key): int(count) for dim, key, count in conn.execute(_DIM_SQL[code_id is not None], params)}
    # Trusted integers from the counters: built without re-validation.
    rows = [DayCount.model_construct(day=d, scans=v[0], unique=v[1], bots=v[2]) for d, v in sorted(days.items())]
    return _Part(days, dims, rows)


def _as_date(value: Any) -> date:
    """A day as the driver gives it back from plain SQL (SQLite: text)."""
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def _month_end(first: date) -> date:
    return (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)


def summary(
    s: Session,
    tenant_id: str,
    code_id: str | None,
    start: date,
    end: date,
    *,
    today: date | None = None,
    cache: MonthCache | None = None,
) -> AnalyticsOut:
    """Totals and breakdowns from the stored daily counters. The months of the range that are over
    come from ``cache`` (read once); the rest (the current month, a partial last month) is summed
    in SQL."""
    parts: list[_Part] = []
    live_from = start
    if cache is not None and today is not None:
        this_month = today.replace(day=1)
        # Each kept part runs from its first day to the end of that month (a whole month, or the
        # range's first, partial month): the key is that first day.
        while live_from < this_month and _month_end(live_from) <= end:
            last = _month_end(live_from)
            key = (tenant_id, code_id or "*", live_from)
            part = cache.get(key)
            if part is None:
                part = _read_part(s, tenant_id, code_id, live_from, last)
                cache.put(key, part)
            parts.append(part)
            live_from = last + timedelta(days=1)
    if live_from <= end:
        parts.append(_read_part(s, tenant_id, code_id, live_from, end))
    dims: dict[tuple[str, str], int] = defaultdict(int)
    for part in parts:
        for k, n in part.dims.items():
            dims[k] += n
    # The parts' days never overlap.
    by_day = sorted((row for part in parts for row in part.rows), key=lambda r: r.day)
    listed: dict[str, list[Breakdown]] = {d: [] for d in BREAKDOWNS}
    for (dim, label), n in sorted(dims.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1])):
        listed[dim].append(Breakdown.model_construct(key=label, count=n))
    return AnalyticsOut.model_construct(
        code_id=code_id,
        scans=sum(r.scans for r in by_day),
        unique=sum(r.unique for r in by_day),
        bots=sum(r.bots for r in by_day),
        orphans=sum(b.count for b in listed["orphans"]) if code_id is None else None,
        by_day=by_day,
        device=listed["device"],
        browser=listed["browser"],
        os=listed["os"],
        referrer=listed["referrer"],
    )


def _summary(ctx: Ctx, s: Session, code_id: str | None, start: date, end: date) -> AnalyticsOut:
    cache = ctx.runtime.part(MonthCache)
    return summary(s, ctx.tenant_id, code_id, start, end, today=ctx.now().date(), cache=cache)
