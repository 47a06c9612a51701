"""Analytics use cases: metrics and their series, dashboards, report jobs, customer profiles."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from local_db.models.analytics import AnalyticsReport, CustomerProfile, Dashboard, MetricDaily, MetricPoint
from local_db.models.jobs import Job
from services.analytics import schemas as sc
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed, conflict_state
from services.core.files import FileResult
from services.core.jobs import out as job_out
from services.core.jobs import submit
from services.core.pagination import ListQuery, Page, PageSpec, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.storage import read_blob

record_kind("analytics.dashboard", get="analytics.dashboards.get", label="name")
record_kind("analytics.report", get="analytics.reports.get", label="name")
record_kind("analytics.customer", get="analytics.customers.get", label="email")
MAX_BUCKETS = 3700

# One statement on both backends (SQLite and PostgreSQL speak ON CONFLICT).
UPSERT_DAILY = text(
    "INSERT INTO analytics_daily (tenant_id, name, day, value, count) VALUES (:tenant_id, :name, :day, :value, 1)"
    " ON CONFLICT (tenant_id, name, day) DO UPDATE SET value = analytics_daily.value + :value,"
    " count = analytics_daily.count + 1"
)


def _get(s: Session, model: Any, id: str, what: str) -> Any:
    row = s.get(model, id)
    if row is None:
        raise NotFound(f"{what} not found", {"id": id})
    return row


# --- metrics -------------------------------------------------------------------------------


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


# --- dashboards ----------------------------------------------------------------------------


def _dash_out(d: Dashboard) -> sc.DashboardOut:
    return sc.DashboardOut(id=d.id, name=d.name, widgets=d.widgets, created_at=d.created_at, updated_at=d.updated_at)


@use_case("analytics.dashboards.list", "GET /dashboards", tx="read", roles=STAFF, record="analytics.dashboard")
def list_dashboards(ctx: Ctx, query: ListQuery, session: Session = SESSION) -> Page[sc.DashboardOut]:
    stmt = select(Dashboard)
    if query.search:
        stmt = stmt.where(contains(Dashboard.name, query.search))
    page = paginate(session, stmt, query, columns={"created_at": Dashboard.created_at, "name": Dashboard.name})
    return page.map(_dash_out)


@use_case("analytics.dashboards.get", "GET /dashboards/{id}", tx="read", roles=STAFF, record="analytics.dashboard")
def get_dashboard(ctx: Ctx, id: str, session: Session = SESSION) -> sc.DashboardOut:
    return _dash_out(_get(session, Dashboard, id, "dashboard"))


@use_case(
    "analytics.dashboards.create",
    "POST /dashboards",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New dashboard",
    record="analytics.dashboard",
    summary="a dashboard of widgets {title, metric, interval, chart: number|line|bar, filters} (owner, admin)",
)
def create_dashboard(ctx: Ctx, body: sc.DashboardIn, session: Session = SESSION) -> sc.DashboardOut:
    now = ctx.now()
    d = Dashboard(name=body.name, widgets=[w.model_dump() for w in body.widgets], created_at=now, updated_at=now)
    session.add(d)
    session.flush()
    return _dash_out(d)


@use_case(
    "analytics.dashboards.update",
    "PUT /dashboards/{id}",
    tx="write",
    roles=MANAGERS,
    says="Edit dashboard",
    record="analytics.dashboard",
)
def update_dashboard(ctx: Ctx, id: str, body: sc.DashboardIn, session: Session = SESSION) -> sc.DashboardOut:
    d = _get(session, Dashboard, id, "dashboard")
    d.name, d.widgets, d.updated_at = body.name, [w.model_dump() for w in body.widgets], ctx.now()
    session.flush()
    return _dash_out(d)


@use_case(
    "analytics.dashboards.delete",
    "DELETE /dashboards/{id}",
    tx="write",
    roles=MANAGERS,
    says="Delete dashboard",
    record="analytics.dashboard",
)
def delete_dashboard(ctx: Ctx, id: str, session: Session = SESSION) -> None:
    session.delete(_get(session, Dashboard, id, "dashboard"))


@use_case(
    "analytics.dashboards.data",
    "GET /dashboards/{id}/data",
    tx="read",
    roles=STAFF,
    record="analytics.dashboard",
    summary="every widget of the dashboard with its series (what the desktop draws)",
)
def dashboard_data(ctx: Ctx, id: str, session: Session = SESSION) -> sc.DashboardData:
    today = ctx.now().date()
    d = _get(session, Dashboard, id, "dashboard")
    out: list[sc.WidgetData] = []
    for w in d.widgets:
        days = int((w.get("filters") or {}).get("days", 30))
        group_by = (w.get("filters") or {}).get("group_by")
        points = series(
            session, w["metric"], today - timedelta(days=days - 1), today, w.get("interval", "day"), group_by
        )
        out.append(
            sc.WidgetData(
                title=w["title"],
                metric=w["metric"],
                chart=w.get("chart", "line"),
                interval=w.get("interval", "day"),
                total=round(sum(p.value for p in points), 6),
                series=points,
            )
        )
    return sc.DashboardData(id=d.id, name=d.name, widgets=out)


# --- reports -------------------------------------------------------------------------------


def report_out(ctx: Ctx, s: Session, r: AnalyticsReport) -> sc.ReportOut:
    job = s.get(Job, r.job_id) if r.job_id else None
    j = job_out(job) if job is not None else None
    status = j.status if j else "queued"
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return sc.ReportOut(
        id=r.id,
        name=r.name,
        metrics=list(r.metrics),
        from_=r.date_from,
        to=r.date_to,
        format=r.format,
        status=status,
        progress=j.progress if j else 0,
        job_id=r.job_id,
        download_url=f"/{slug}/analytics/api/reports/{r.id}/download"
        if status == "succeeded" and r.file_sha256
        else None,
        error=j.message if j and status == "failed" else None,
        created_at=r.created_at,
    )


@use_case("analytics.reports.list", "GET /reports", tx="read", roles=STAFF, record="analytics.report")
def list_reports(ctx: Ctx, query: sc.ReportQuery) -> Page[sc.ReportOut]:
    stmt = select(AnalyticsReport)
    if query.search:
        stmt = stmt.where(contains(AnalyticsReport.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": AnalyticsReport.created_at, "name": AnalyticsReport.name}
        )
        out = page.map(lambda r: report_out(ctx, s, r))
    if query.status:
        out.items = [r for r in out.items if r.status == query.status]
    return out


@use_case("analytics.reports.get", "GET /reports/{id}", tx="read", roles=STAFF, record="analytics.report")
def get_report(ctx: Ctx, id: str, session: Session = SESSION) -> sc.ReportOut:
    return report_out(ctx, session, _get(session, AnalyticsReport, id, "report"))


@use_case(
    "analytics.reports.create",
    "POST /reports",
    tx="write",
    roles=STAFF,
    status=201,
    says="New report",
    record="analytics.report",
    summary="start a report job {name, metrics, from, to, format: csv|xlsx|pdf}",
)
def create_report(ctx: Ctx, body: sc.ReportIn, session: Session = SESSION) -> sc.ReportOut:
    r = AnalyticsReport(
        name=body.name,
        metrics=list(dict.fromkeys(body.metrics)),
        date_from=body.from_,
        date_to=body.to,
        format=body.format,
        created_at=ctx.now(),
    )
    session.add(r)
    session.flush()
    job = submit(ctx, "analytics.report", {"report_id": r.id, "interval": body.interval}, title=f"Report {body.name}")
    r.job_id = job.id
    session.flush()
    return report_out(ctx, session, r)


MEDIA = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


@use_case(
    "analytics.reports.download",
    "GET /reports/{id}/download",
    tx="read",
    roles=STAFF,
    record="analytics.report",
    summary="the report's file once its job succeeded (409 before)",
)
def download_report(ctx: Ctx, id: str, session: Session = SESSION) -> FileResult:
    r = _get(session, AnalyticsReport, id, "report")
    out = report_out(ctx, session, r)
    if out.status != "succeeded" or not r.file_sha256:
        raise conflict_state("report", out.status, "download")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in r.name)[:60] or "report"
    return FileResult(read_blob(ctx, r.file_sha256), MEDIA[r.format], f"{safe}.{r.format}", inline=False)


# --- customer profiles ---------------------------------------------------------------------


def _customer_out(c: CustomerProfile, status: int | None = None) -> sc.CustomerOut:
    out = sc.CustomerOut(
        id=c.id,
        email=c.email,
        external_id=c.external_id,
        attributes=c.attributes,
        created_at=c.created_at,
        updated_at=c.updated_at,
    )
    out._http_status = status
    return out


@use_case("analytics.customers.list", "GET /customers", tx="read", roles=STAFF, record="analytics.customer")
def list_customers(ctx: Ctx, query: sc.CustomerQuery, session: Session = SESSION) -> Page[sc.CustomerOut]:
    stmt = select(CustomerProfile)
    if query.search:
        stmt = stmt.where(
            contains(CustomerProfile.email, query.search) | contains(CustomerProfile.external_id, query.search)
        )
    page = paginate(
        session, stmt, query, columns={"created_at": CustomerProfile.created_at, "email": CustomerProfile.email}
    )
    return page.map(_customer_out)


@use_case("analytics.customers.get", "GET /customers/{id}", tx="read", roles=STAFF, record="analytics.customer")
def get_customer(ctx: Ctx, id: str, session: Session = SESSION) -> sc.CustomerOut:
    return _customer_out(_get(session, CustomerProfile, id, "customer"))


@use_case(
    "analytics.customers.upsert",
    "POST /customers",
    tx="write",
    roles=STAFF,
    status=201,
    says="Customer profile",
    record="analytics.customer",
    summary="upsert a profile by email or external_id: set overwrites, set_once fills what is missing"
    " (201 made, 200 updated)",
)
def upsert_customer(ctx: Ctx, body: sc.CustomerIn, session: Session = SESSION) -> sc.CustomerOut:
    now = ctx.now()
    key = body.email.strip().lower() if body.email else None
    by_email = session.scalar(select(CustomerProfile).where(CustomerProfile.email_key == key)) if key else None
    by_ext = (
        session.scalar(select(CustomerProfile).where(CustomerProfile.external_id == body.external_id))
        if body.external_id
        else None
    )
    if by_email is not None and by_ext is not None and by_email.id != by_ext.id:
        # Two known people: never merged by an upsert (PostHog's identify safeguard).
        raise ValidationFailed(
            "email and external_id belong to two profiles", {"email": body.email, "external_id": body.external_id}
        )
    c = by_email or by_ext
    made = c is None
    if c is None:
        c = CustomerProfile(attributes={}, created_at=now)
        session.add(c)
    if key and not c.email_key:
        c.email, c.email_key = body.email, key
    if body.external_id and not c.external_id:
        c.external_id = body.external_id
    attrs = dict(c.attributes or {})
    for k, v in body.set_once.items():
        attrs.setdefault(k, v)
    attrs.update(body.set)
    c.attributes, c.updated_at = attrs, now
    session.flush()
    return _customer_out(c, 201 if made else 200)
