"""Helpdesk reports: first response, resolution and SLA attainment by group over a date range.

The tickets opened in the range (``from`` and ``to`` inclusive days, UTC; default the last 30 days)
are grouped by ``category``, ``agent`` (the assignee), ``priority`` (the SLA policy's unit) or
``source`` (the channel: public form, agent, mail); the helpdesk's queues (new, mine, breaching, ...)
are views of the present, not attributes a past ticket keeps. Per group:

* ``first_response``: tickets answered, median and mean minutes from opening to the first public
  agent reply (calendar minutes);
* ``resolution``: tickets resolved, median and mean minutes from opening to resolution;
* SLA ``met`` / ``breached`` for each target (breached: done after its due time, or not done and
  its due time passed) and ``attainment`` = met / (met + breached), null when nothing is decided;
* ``satisfaction`` when tickets carry ratings (``satisfaction_rating`` 1-5, recorded by the public
  ticket pages): ratings, mean, and the share of 4 and 5 (CSAT).
"""

from __future__ import annotations

import csv
import io
import statistics
from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models import User
from local_db.models.support import SupportCategory, SupportTicket
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.files import FileResult
from services.core.roles import MANAGERS

GroupBy = Literal["category", "agent", "priority", "source"]
MAX_DAYS = 366
RATING = getattr(SupportTicket, "satisfaction_rating", None)  # the public pages' record, when present


class ReportQuery(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    from_: date | None = Field(default=None, alias="from")
    to: date | None = None
    group_by: GroupBy = "category"


class Durations(BaseModel):
    count: int
    median_minutes: float | None
    mean_minutes: float | None


class Attainment(BaseModel):
    met: int
    breached: int
    attainment: float | None


class Satisfaction(BaseModel):
    ratings: int
    mean: float | None
    csat: float | None  # share of ratings of 4 or 5


class ReportRow(BaseModel):
    key: str | None
    name: str
    tickets: int
    first_response: Durations
    resolution: Durations
    first_response_sla: Attainment
    resolution_sla: Attainment
    satisfaction: Satisfaction | None


class ReportOut(BaseModel):
    from_: date = Field(serialization_alias="from")
    to: date
    group_by: str
    rows: list[ReportRow]
    total: ReportRow


def _range(q: ReportQuery, today: date) -> tuple[date, date]:
    to = q.to or today
    start = q.from_ or (to - timedelta(days=29))
    if start > to:
        raise ValidationFailed("from is after to", {"from": start.isoformat(), "to": to.isoformat()})
    if (to - start).days >= MAX_DAYS:
        raise ValidationFailed(f"a report covers at most {MAX_DAYS} days", {"days": (to - start).days + 1})
    return start, to


def _minutes(a: datetime | None, b: datetime | None) -> float | None:
    return None if a is None or b is None else (b - a).total_seconds() / 60


def _durations(xs: list[float]) -> Durations:
    if not xs:
        return Durations(count=0, median_minutes=None, mean_minutes=None)
    return Durations(
        count=len(xs), median_minutes=round(statistics.median(xs), 1), mean_minutes=round(statistics.fmean(xs), 1)
    )


def _sla(done: datetime | None, due: datetime | None, now: datetime) -> bool | None:
    """True met, False breached, None not decided yet (or no target)."""
    if due is None:
        return None
    if done is not None:
        return done <= due
    return False if due < now else None


def _attainment(outcomes: list[bool | None]) -> Attainment:
    met, breached = outcomes.count(True), outcomes.count(False)
    return Attainment(
        met=met, breached=breached, attainment=round(met / (met + breached), 3) if met + breached else None
    )


def _row(key: str | None, name: str, rows: list[Any], now: datetime, rated: bool) -> ReportRow:
    firsts = [m for r in rows if (m := _minutes(r.created_at, r.first_response_at)) is not None]
    resolved = [m for r in rows if (m := _minutes(r.created_at, r.resolved_at)) is not None]
    satisfaction = None
    if rated:
        ratings = [int(r.rating) for r in rows if r.rating is not None]
        satisfaction = Satisfaction(
            ratings=len(ratings),
            mean=round(statistics.fmean(ratings), 2) if ratings else None,
            csat=round(sum(1 for x in ratings if x >= 4) / len(ratings), 3) if ratings else None,
        )
    return ReportRow(
        key=key,
        name=name,
        tickets=len(rows),
        first_response=_durations(firsts),
        resolution=_durations(resolved),
        first_response_sla=_attainment([_sla(r.first_response_at, r.first_response_due, now) for r in rows]),
        resolution_sla=_attainment([_sla(r.resolved_at, r.resolution_due, now) for r in rows]),
        satisfaction=satisfaction,
    )


def build_report(ctx: Ctx, s: Session, q: ReportQuery) -> ReportOut:
    now = ctx.now()
    start, to = _range(q, now.date())
    T = SupportTicket
    group_col = {"category": T.category_id, "agent": T.assignee_id, "priority": T.priority, "source": T.source}[
        q.group_by
    ]
    cols = [T.created_at, T.first_response_at, T.resolved_at, T.first_response_due, T.resolution_due]
    rating = RATING.label("rating") if RATING is not None else None
    stmt = select(group_col.label("key"), *cols, *([rating] if rating is not None else [])).where(
        T.created_at >= datetime.combine(start, time.min, UTC),
        T.created_at < datetime.combine(to + timedelta(days=1), time.min, UTC),
    )
    rows = s.execute(stmt).all()
    names: dict[str | None, str] = {None: "(none)"}
    if q.group_by == "category":
        names.update(dict(s.execute(select(SupportCategory.id, SupportCategory.name)).all()))
    elif q.group_by == "agent":
        ids = {r.key for r in rows if r.key}
        if ids:
            names.update(dict(s.execute(select(User.id, User.name).where(User.id.in_(ids))).all()))
        names[None] = "(unassigned)"
    groups: dict[str | None, list[Any]] = defaultdict(list)
    for r in rows:
        groups[r.key].append(r)
    rated = rating is not None
    out = [_row(k, names.get(k, k or "(none)"), g, now, rated) for k, g in groups.items()]
    out.sort(key=lambda row: (-row.tickets, row.name))
    return ReportOut(
        from_=start, to=to, group_by=q.group_by, rows=out, total=_row(None, "All tickets", list(rows), now, rated)
    )


@use_case(
    "support.reports.get",
    "GET /api/tenants/{tenant}/support/reports",
    tx="read",
    roles=MANAGERS,
    summary="first response, resolution and SLA attainment by category, agent, priority or source",
)
def get_report(ctx: Ctx, query: ReportQuery, session: Session = SESSION) -> ReportOut:
    return build_report(ctx, session, query)


CSV_COLUMNS = [
    "group", "key", "name", "tickets", "first_responses", "first_response_median_minutes",
    "first_response_mean_minutes", "resolved", "resolution_median_minutes", "resolution_mean_minutes",
    "first_response_sla_met", "first_response_sla_breached", "first_response_sla_attainment",
    "resolution_sla_met", "resolution_sla_breached", "resolution_sla_attainment",
    "ratings", "rating_mean", "csat",
]  # fmt: skip


@use_case(
    "support.reports.csv",
    "GET /api/tenants/{tenant}/support/reports/csv",
    tx="read",
    roles=MANAGERS,
    summary="the same report as CSV (one line a group, then the total)",
)
def get_report_csv(ctx: Ctx, query: ReportQuery, session: Session = SESSION) -> FileResult:
    report = build_report(ctx, session, query)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for row in [*report.rows, report.total]:
        sat = row.satisfaction
        name = row.name
        if name[:1] in ("=", "+", "-", "@"):
            name = "'" + name  # a category name never runs as a spreadsheet formula
        w.writerow(
            [
                report.group_by, row.key or "", name, row.tickets,
                row.first_response.count, row.first_response.median_minutes, row.first_response.mean_minutes,
                row.resolution.count, row.resolution.median_minutes, row.resolution.mean_minutes,
                row.first_response_sla.met, row.first_response_sla.breached, row.first_response_sla.attainment,
                row.resolution_sla.met, row.resolution_sla.breached, row.resolution_sla.attainment,
                sat.ratings if sat else "", sat.mean if sat else "", sat.csat if sat else "",
            ]
        )  # fmt: skip
    filename = f"helpdesk-{report.group_by}-{report.from_}-{report.to}.csv"
    return FileResult(buf.getvalue().encode(), "text/csv", filename, inline=False)
