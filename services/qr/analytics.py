"""Qr: analytics."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import select

from local_db.models.qr import QrScan
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.files import FileResult
from services.qr.lookups import _range, _summary
from services.qr.schemas import (
    AnalyticsOut,
    AnalyticsQuery,
    ExportQuery,
    RealtimeOut,
    RealtimeQuery,
    ScanOut,
)

REALTIME_LIMIT = 200


EXPORT_LIMIT = 1_000_000


@use_case("qr.analytics", "GET /analytics", tx="read", summary="dashboard overview of every code")
def dashboard(ctx: Ctx, query: AnalyticsQuery) -> AnalyticsOut:
    start, end = _range(ctx, query.from_, query.to)
    with ctx.read() as s:
        return _summary(ctx, s, None, start, end)


def _scan_out(r: QrScan) -> ScanOut:
    return ScanOut(
        id=r.id,
        code_id=r.code_id,
        short_code=r.short_code,
        at=r.at,
        device=r.device,
        browser=r.browser,
        os=r.os,
        referrer=r.referrer,
        ip_hash=r.ip_hash,
        bot=r.bot,
    )


@use_case("qr.analytics.realtime", "GET /analytics/realtime", tx="read", summary="the latest scans")
def realtime(ctx: Ctx, query: RealtimeQuery) -> RealtimeOut:
    since = ctx.now() - timedelta(minutes=query.minutes)
    stmt = select(QrScan).where(QrScan.at >= since)
    if query.code_id:
        stmt = stmt.where(QrScan.code_id == query.code_id)
    with ctx.read() as s:
        rows = s.execute(stmt.order_by(QrScan.at.desc()).limit(REALTIME_LIMIT)).scalars().all()
        return RealtimeOut(minutes=query.minutes, count=len(rows), scans=[_scan_out(r) for r in rows])


EXPORT_FIELDS = ("id", "code_id", "short_code", "at", "device", "browser", "os", "referrer", "ip_hash", "bot")


@use_case("qr.analytics.export", "GET /analytics/export", tx="read", summary="every scan row as CSV or JSON")
def export(ctx: Ctx, query: ExportQuery) -> FileResult:
    start, end = _range(ctx, query.from_, query.to)
    stmt = select(QrScan).where(
        QrScan.at >= datetime.combine(start, time.min, UTC),
        QrScan.at < datetime.combine(end + timedelta(days=1), time.min, UTC),
    )
    if query.code_id:
        stmt = stmt.where(QrScan.code_id == query.code_id)
    with ctx.read() as s:
        rows = [
            _scan_out(r).model_dump(mode="json")
            for r in s.execute(stmt.order_by(QrScan.at).limit(EXPORT_LIMIT)).scalars()
        ]
    name = f"qr-scans-{start}-{end}"
    if query.format == "json":
        return FileResult(json.dumps(rows).encode(), "application/json", f"{name}.json", inline=False)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=EXPORT_FIELDS)
    w.writeheader()
    w.writerows(rows)
    return FileResult(buf.getvalue().encode(), "text/csv", f"{name}.csv", inline=False)
