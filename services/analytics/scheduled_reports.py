"""Analytics: scheduled reports."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.analytics import AnalyticsReport
from local_db.models.jobs import Job
from services.analytics import schemas as sc
from services.analytics.lookups import _get
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import conflict_state
from services.core.files import FileResult
from services.core.jobs import out as job_out
from services.core.jobs import submit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
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
