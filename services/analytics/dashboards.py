"""Analytics: dashboards."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.analytics import Dashboard
from services.analytics import schemas as sc
from services.analytics.lookups import _get, series
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF

record_kind("analytics.dashboard", get="analytics.dashboards.get", label="name")


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
    summary="every widget of the dashboard with its series (what the desktop draws); ?from=&to= one range for every card",
)
def dashboard_data(ctx: Ctx, id: str, query: sc.DashboardRange, session: Session = SESSION) -> sc.DashboardData:
    """With ``from``/``to`` every card shows that range (one date range for the whole dashboard);
    without, each card its own ``filters.days`` up to today."""
    today = ctx.now().date()
    d = _get(session, Dashboard, id, "dashboard")
    shared = query.from_ is not None or query.to is not None
    end = query.to or today
    start = query.from_ or end - timedelta(days=29)
    if shared and end < start:
        raise ValidationFailed("to is before from", {"from": str(start), "to": str(end)})
    out: list[sc.WidgetData] = []
    for w in d.widgets:
        days = int((w.get("filters") or {}).get("days", 30))
        group_by = (w.get("filters") or {}).get("group_by")
        lo, hi = (start, end) if shared else (today - timedelta(days=days - 1), today)
        points = series(session, w["metric"], lo, hi, w.get("interval", "day"), group_by)
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
    return sc.DashboardData(
        id=d.id, name=d.name, widgets=out, from_=start if shared else None, to=end if shared else None
    )
