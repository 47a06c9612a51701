"""Analytics: report jobs, and reports and dashboards mailed on a schedule (PDF or CSV)."""

from __future__ import annotations

import calendar
import logging
from datetime import date, datetime, timedelta
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.analytics import AnalyticsReport, AnalyticsSchedule, Dashboard
from local_db.models.jobs import Job
from services.analytics import schemas as sc
from services.analytics.alerts import check_metrics
from services.analytics.lookups import _get, series
from services.analytics.reports import to_csv, to_pdf
from services.analytics.schemas import BucketOut
from services.core import auth
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import ValidationFailed, conflict_state
from services.core.files import FileResult
from services.core.jobs import out as job_out
from services.core.jobs import submit
from services.core.mail import Mail, send_after_commit
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.scheduler import periodic
from services.core.storage import read_blob

record_kind("analytics.report", get="analytics.reports.get", label="name")


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


# --- scheduled delivery: a report or a dashboard mailed as PDF or CSV (issue 35) --------------------
#
# A schedule names metrics (a report) or a dashboard (every card, one shared range), a format, a
# period and recipients. The periodic job ``analytics.scheduled_reports`` (every 5 minutes) sends
# each due one: in one transaction it moves ``next_run_at`` on by a period (a conditional update on
# the value it read, so of two processes one sends) and renders the file; the mails go after the
# commit. A process killed before the commit sends nothing and the next run sends it; one killed
# after it has moved the schedule on: a mail is sent at most once per period.

SEND_CHECK = timedelta(minutes=5)
_log = logging.getLogger("services.analytics.scheduled")


def schedule_out(r: AnalyticsSchedule) -> sc.ScheduleOut:
    return sc.ScheduleOut.model_validate(r, from_attributes=True)


def _add_period(at: datetime, every: str) -> datetime:
    if every == "day":
        return at + timedelta(days=1)
    if every == "week":
        return at + timedelta(days=7)
    year, month = at.year + at.month // 12, at.month % 12 + 1
    return at.replace(year=year, month=month, day=min(at.day, calendar.monthrange(year, month)[1]))


def next_after(at: datetime, every: str, now: datetime) -> datetime:
    """The first beat after ``now`` (a server away for a while sends once, not every missed beat)."""
    nxt = _add_period(at, every)
    while nxt <= now:
        nxt = _add_period(nxt, every)
    return nxt


@use_case(
    "analytics.schedules.create",
    "POST /scheduled-reports",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New scheduled report",
    summary="mail a report {metrics} or a dashboard {dashboard_id} as pdf|csv every day|week|month to recipients",
)
def create_schedule(ctx: Ctx, body: sc.ScheduleIn, session: Session = SESSION) -> sc.ScheduleOut:
    if body.metrics is not None:
        check_metrics(session, body.metrics)
    elif session.get(Dashboard, body.dashboard_id) is None:
        msg = f"unknown dashboard {body.dashboard_id!r}"
        raise ValidationFailed(msg, {"fields": [{"field": "dashboard_id", "message": msg}]})
    now = ctx.now()
    r = AnalyticsSchedule(
        name=body.name,
        metrics=list(dict.fromkeys(body.metrics or [])),
        dashboard_id=body.dashboard_id,
        format=body.format,
        every=body.every,
        range_days=body.range_days,
        recipients=list(dict.fromkeys(x.lower() for x in body.recipients)),
        next_run_at=body.first_at or _add_period(now, body.every),
        sends=0,
        created_at=now,
    )
    session.add(r)
    session.flush()
    return schedule_out(r)


@use_case("analytics.schedules.list", "GET /scheduled-reports", tx="read", roles=STAFF, summary="scheduled reports")
def list_schedules(ctx: Ctx, query: ListQuery, session: Session = SESSION) -> Page[sc.ScheduleOut]:
    stmt = select(AnalyticsSchedule)
    if query.search:
        stmt = stmt.where(contains(AnalyticsSchedule.name, query.search))
    page = paginate(session, stmt, query, columns={"created_at": AnalyticsSchedule.created_at})
    return page.map(schedule_out)


@use_case("analytics.schedules.get", "GET /scheduled-reports/{id}", tx="read", roles=STAFF, summary="one")
def get_schedule(ctx: Ctx, id: str, session: Session = SESSION) -> sc.ScheduleOut:
    return schedule_out(_get(session, AnalyticsSchedule, id, "scheduled report"))


@use_case(
    "analytics.schedules.delete", "DELETE /scheduled-reports/{id}", tx="write", roles=MANAGERS, says="Stop sending"
)
def delete_schedule(ctx: Ctx, id: str, session: Session = SESSION) -> None:
    session.delete(_get(session, AnalyticsSchedule, id, "scheduled report"))


def _render(s: Session, r: AnalyticsSchedule, start: date, end: date) -> tuple[str, str, bytes]:
    """The file: (name, media type, bytes); a dashboard's cards all over the same range."""
    data: dict[str, list[BucketOut]] = {}
    if r.dashboard_id is not None:
        d = s.get(Dashboard, r.dashboard_id)
        if d is None:
            raise LookupError("the dashboard was deleted")
        for w in d.widgets:
            title = w["title"] if w["title"] not in data else f"{w['title']} ({w['metric']})"
            data[title] = series(s, w["metric"], start, end, w.get("interval", "day"))
        title = d.name
    else:
        for m in r.metrics:
            data[m] = series(s, m, start, end, "day")
        title = r.name
    period = f"{start.isoformat()} to {end.isoformat()} ({(end - start).days + 1} days)"
    content = to_csv(data) if r.format == "csv" else to_pdf(title, period, data)
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in r.name)[:60] or "report"
    return f"{safe}-{end.isoformat()}.{r.format}", MEDIA[r.format], content


def send_one(ctx: Ctx, schedule_id: str, due: datetime) -> bool:
    """Send one due schedule (once, whichever process gets there first)."""
    now = ctx.now()
    with ctx.write() as s:
        r = s.get(AnalyticsSchedule, schedule_id)
        if r is None:
            return False
        end = now.date()
        start = end - timedelta(days=r.range_days - 1)
        error, file = None, None
        try:
            file = _render(s, r, start, end)
        except LookupError as exc:
            error = str(exc)
        values: dict[str, Any] = {"next_run_at": next_after(due, r.every, now), "last_error": error}
        if file is not None:
            values.update(last_sent_at=now, sends=AnalyticsSchedule.sends + 1)
        won = cast(
            "CursorResult[Any]",
            s.execute(
                update(AnalyticsSchedule)
                .where(AnalyticsSchedule.id == schedule_id, AnalyticsSchedule.next_run_at == due)
                .values(**values)
                .execution_options(synchronize_session=False)
            ),
        ).rowcount
        if won != 1 or file is None:
            return False
        text = f"{r.name}: {start.isoformat()} to {end.isoformat()}, attached as {r.format.upper()}."
        for to in r.recipients:
            send_after_commit(ctx, Mail(to=to, subject=f"Report: {r.name}", text=text, attachments=(file,)))
    return True


@periodic("analytics.scheduled_reports", every=SEND_CHECK, lease=timedelta(minutes=30))
def send_due(rt: Runtime) -> dict[str, Any]:
    now = rt.clock.now()
    with rt.db.reading(None) as s:
        due = s.execute(
            select(AnalyticsSchedule.id, AnalyticsSchedule.tenant_id, AnalyticsSchedule.next_run_at)
            .where(AnalyticsSchedule.next_run_at <= now)
            .order_by(AnalyticsSchedule.next_run_at)
            .limit(500)
        ).all()
        infos = {t.id: auth.tenant_info(t) for t in s.scalars(select(Tenant).where(Tenant.id.in_({d[1] for d in due})))}
    sent = 0
    for schedule_id, tenant_id, at in due:
        ctx = Ctx(rt, infos[tenant_id], SYSTEM)
        ctx.operation = ("analytics.schedules.send", "analytics.report")
        try:
            sent += send_one(ctx, schedule_id, at)
        except Exception:  # noqa: BLE001 - one schedule's failure leaves the others going
            _log.exception("a scheduled report failed")
    return {"sent": sent}
