"""Use cases of QR Codes: codes, the public scan, downloads, analytics, templates, folders, barcodes,
and the versioned public API (``/api/v1/qr``, API keys only).
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import string
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Date, bindparam, delete, select, text, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.qr import QrBarcode, QrCode, QrFolder, QrScan, QrTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.files import FileResult, Redirect, Upload
from services.core.links import public_url
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import ANYONE, MANAGERS
from services.core.storage import IMAGE_TYPES, read_blob, store_blob
from services.qr import checkdigits, render, scanning, states
from services.qr.schemas import (
    AnalyticsOut,
    AnalyticsQuery,
    BarcodeCreate,
    BarcodeOut,
    BarcodeQuery,
    Breakdown,
    DayCount,
    DestinationUpdate,
    DownloadQuery,
    ExportQuery,
    FolderCreate,
    FolderOut,
    FolderUpdate,
    LogoOut,
    PreviewQuery,
    QrCreate,
    QrOut,
    QrQuery,
    QrUpdate,
    RealtimeOut,
    RealtimeQuery,
    ScanOut,
    Style,
    TemplateCreate,
    TemplateOut,
    TemplateUpdate,
    static_content_problem,
)

CODE = record_kind("qr.code", get="qr.codes.get", label="name")
TEMPLATE = record_kind("qr.template", get="qr.templates.get", label="name")
FOLDER = record_kind("qr.folder", get="qr.folders.get", label="name")
BARCODE = record_kind("qr.barcode", get="qr.barcodes.get", label="value")
SORTABLE = {"created_at": QrCode.created_at, "name": QrCode.name, "scans": QrCode.scans}
SHORT_ALPHABET = string.ascii_letters + string.digits
SHORT_LENGTH = 7
DEFAULT_DAYS = 30
MAX_RANGE_DAYS = 3660
REALTIME_LIMIT = 200
EXPORT_LIMIT = 1_000_000


@dataclass(frozen=True)
class QrConfig:
    """Where scan addresses point: ``PLATFORM_PUBLIC_URL`` (DECISIONS: links start with it)."""

    # None: services.core.links.public_url (PLATFORM_PUBLIC_URL, else the server's own address).
    public_url: str | None = None


# --- helpers ------------------------------------------------------------------


def scan_address(ctx: Ctx, short_code: str) -> str:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return f"{(ctx.runtime.part(QrConfig).public_url or public_url(ctx.runtime))}/{slug}/qr/r/{short_code}"


def _out(ctx: Ctx, c: QrCode) -> QrOut:
    content = scan_address(ctx, c.short_code) if c.dynamic else c.content
    return QrOut(
        id=c.id,
        name=c.name,
        type=c.type,
        content=content,
        dynamic=c.dynamic,
        short_code=c.short_code,
        destination_url=c.destination_url,
        folder_id=c.folder_id,
        template_id=c.template_id,
        style=c.style,
        valid_since=c.valid_since,
        valid_until=c.valid_until,
        max_scans=c.max_scans,
        scan_alert_threshold=c.scan_alert_threshold,
        enabled=c.enabled,
        scans=c.scans,
        bots=c.bots,
        created_at=c.created_at,
    )


def _code(s: Session, cid: str) -> QrCode:
    c = s.get(QrCode, cid)
    if c is None:
        raise NotFound("QR code not found", {"id": cid})
    return c


def _utc(d: datetime | None) -> datetime | None:
    """Times are kept in UTC; a time without offset is read as UTC."""
    if d is None:
        return None
    return d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)


def _style(s: Session, template_id: str | None, style: Style | None) -> dict[str, Any]:
    if style is not None:
        return style.model_dump()
    if template_id:
        t = s.get(QrTemplate, template_id)
        if t is None:
            raise ValidationFailed("unknown template", {"template_id": template_id})
        return dict(t.style)
    return Style().model_dump()


def _check_refs(s: Session, folder_id: str | None, template_id: str | None) -> None:
    if folder_id and s.get(QrFolder, folder_id) is None:
        raise ValidationFailed("unknown folder", {"folder_id": folder_id})
    if template_id and s.get(QrTemplate, template_id) is None:
        raise ValidationFailed("unknown template", {"template_id": template_id})


def _check_window(since: datetime | None, until: datetime | None) -> None:
    if since and until and until <= since:
        raise ValidationFailed(
            "valid_until must be after valid_since", {"valid_since": str(since), "valid_until": str(until)}
        )


def _logo(ctx: Ctx, style: dict[str, Any]) -> bytes | None:
    fid = style.get("logo_file_id")
    if not fid:
        return None
    try:
        return read_blob(ctx, fid)
    except (OSError, ValueError) as exc:
        raise ValidationFailed("unknown logo file", {"logo_file_id": fid}) from exc


def _new_short_code(s: Session) -> str:
    while True:
        code = "".join(secrets.choice(SHORT_ALPHABET) for _ in range(SHORT_LENGTH))
        if s.execute(select(QrCode.id).where(QrCode.short_code == code)).first() is None:
            return code


def _validate_create(body: QrCode | QrCreate) -> None:
    if body.dynamic and not body.destination_url:
        raise ValidationFailed("a dynamic code needs destination_url", {"destination_url": None})
    if not body.dynamic and not body.content:
        raise ValidationFailed("a static code needs content", {"content": ""})


def serving(c: QrCode, now: datetime) -> bool:
    """The scan is redirected: enabled, dynamic, inside the validity window and under the cap."""
    return (
        c.enabled
        and c.dynamic
        and c.destination_url is not None
        and (c.valid_since is None or now >= c.valid_since)
        and (c.valid_until is None or now < c.valid_until)
        and (c.max_scans is None or c.scans < c.max_scans)
    )


def _image(ctx: Ctx, data: str, style: dict[str, Any], fmt: str, size: int, name: str) -> FileResult:
    content = render.render(fmt, data, style, size, _logo(ctx, style))
    return FileResult(content, render.MEDIA[fmt], f"{name}.{fmt}")


# --- codes --------------------------------------------------------------------


@use_case("qr.codes.list", "GET /qr", tx="read", record=CODE, summary="list QR codes")
def list_codes(ctx: Ctx, query: QrQuery) -> Page[QrOut]:
    stmt = select(QrCode)
    if query.folder_id:
        stmt = stmt.where(QrCode.folder_id == query.folder_id)
    if query.search:
        stmt = stmt.where(contains(QrCode.name, query.search.strip()))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns=SORTABLE)
        return Page([_out(ctx, c) for c in page.items], page.total, page.spec)


@use_case(
    "qr.codes.create", "POST /qr", tx="write", status=201, says="New QR code", record=CODE, summary="create a QR code"
)
def create_code(ctx: Ctx, body: QrCreate) -> QrOut:
    _validate_create(body)
    since, until = _utc(body.valid_since), _utc(body.valid_until)
    _check_window(since, until)
    now = ctx.now()
    with ctx.write() as s:
        _check_refs(s, body.folder_id, body.template_id)
        style = _style(s, body.template_id, body.style)
        _logo(ctx, style)
        c = QrCode(
            id=new_id(),
            tenant_id=ctx.tenant_id,
            name=body.name,
            type=body.type,
            content="" if body.dynamic else body.content,
            dynamic=body.dynamic,
            short_code=_new_short_code(s),
            destination_url=body.destination_url,
            folder_id=body.folder_id,
            template_id=body.template_id,
            style=style,
            valid_since=since,
            valid_until=until,
            max_scans=body.max_scans,
            scan_alert_threshold=body.scan_alert_threshold,
            enabled=body.enabled,
            scans=0,
            bots=0,
            threshold_sent=False,
            created_at=now,
            updated_at=now,
        )
        s.add(c)
        s.flush()
        return _out(ctx, c)


@use_case("qr.codes.get", "GET /qr/{id}", tx="read", record=CODE, summary="QR code details")
def get_code(ctx: Ctx, id: str) -> QrOut:
    with ctx.read() as s:
        return _out(ctx, _code(s, id))


@use_case(
    "qr.codes.update", "PATCH /qr/{id}", tx="write", says="QR code changed", record=CODE, summary="update a QR code"
)
def update_code(ctx: Ctx, id: str, body: QrUpdate) -> QrOut:
    given = body.model_fields_set
    with ctx.write() as s:
        c = _code(s, id)
        _check_refs(
            s, body.folder_id if "folder_id" in given else None, body.template_id if "template_id" in given else None
        )
        if "enabled" in given and body.enabled is not None and body.enabled != c.enabled:
            current = "enabled" if c.enabled else "disabled"
            states.CODE.check(current, "enable" if body.enabled else "disable", states.STAFF)
            c.enabled = body.enabled
        for f in ("name", "folder_id", "max_scans", "scan_alert_threshold"):
            if f in given:
                setattr(c, f, getattr(body, f))
        if "content" in given and body.content is not None:
            if c.dynamic:
                raise conflict_state("qr code", "dynamic", "set the content of")
            if why := static_content_problem(c.type, body.content):
                raise ValidationFailed(why, {"fields": [{"field": "content", "message": why}]})
            c.content = body.content
        if "valid_since" in given:
            c.valid_since = _utc(body.valid_since)
        if "valid_until" in given:
            c.valid_until = _utc(body.valid_until)
        _check_window(c.valid_since, c.valid_until)
        if "template_id" in given:
            c.template_id = body.template_id
            if body.style is None and body.template_id:
                c.style = _style(s, body.template_id, None)
        if body.style is not None:
            c.style = body.style.model_dump()
            _logo(ctx, c.style)
        if "scan_alert_threshold" in given:
            # A new threshold may be reached (again): it announces once more.
            c.threshold_sent = False
        c.updated_at = ctx.now()
        s.flush()
        return _out(ctx, c)


@use_case(
    "qr.codes.delete",
    "DELETE /qr/{id}",
    tx="write",
    roles=MANAGERS,
    says="QR code deleted",
    record=CODE,
    summary="delete a QR code",
)
def delete_code(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(_code(s, id))


@use_case(
    "qr.codes.destination",
    "PATCH /qr/{id}/destination",
    tx="write",
    says="Destination changed",
    record=CODE,
    summary="change where a dynamic code points",
)
def change_destination(ctx: Ctx, id: str, body: DestinationUpdate) -> QrOut:
    with ctx.write() as s:
        c = _code(s, id)
        if not c.dynamic:
            # The printed image carries the content itself: nothing to point elsewhere.
            raise conflict_state("qr code", "static", "change the destination of")
        states.CODE.check("enabled" if c.enabled else "disabled", "retarget", states.STAFF)
        c.destination_url = body.destination_url
        c.updated_at = ctx.now()
        s.flush()
        return _out(ctx, c)


@use_case("qr.codes.download", "GET /qr/{id}/download", tx="read", record=CODE, summary="download as PNG, SVG or PDF")
def download(ctx: Ctx, id: str, query: DownloadQuery) -> FileResult:
    with ctx.read() as s:
        c = _code(s, id)
        out = _out(ctx, c)
    return _image(ctx, out.content, out.style, query.format, query.size, f"qr-{c.short_code}")


@use_case("qr.codes.preview", "POST /qr/preview", tx="read", summary="preview a QR code without saving")
def preview(ctx: Ctx, body: QrCreate, query: PreviewQuery) -> FileResult:
    _validate_create(body)
    with ctx.read() as s:
        style = _style(s, body.template_id, body.style)
    data = scan_address(ctx, "PREVIEW") if body.dynamic else body.content
    return _image(ctx, data, style, query.format, query.size, "preview")


@use_case(
    "qr.logos.upload",
    "POST /logos",
    tx="write",
    upload=True,
    status=201,
    says="Logo",
    summary="upload a logo for QR styles (PNG or JPEG)",
)
def upload_logo(ctx: Ctx, upload: Upload) -> LogoOut:
    blob = store_blob(ctx, upload.content, allowed=IMAGE_TYPES)
    with ctx.write():
        pass
    return LogoOut(file_id=blob.sha256, size=blob.size, content_type=blob.content_type)


# --- the public scan ----------------------------------------------------------


@use_case(
    "qr.scan",
    "GET /../r/{short_code}",
    tx="own",
    auth="public",
    headers=("user-agent", "referer"),
    limit="public_scan",
    summary="scan address: 302 to the destination",
)
def scan(ctx: Ctx, short_code: str, headers: dict[str, str | None] | None = None) -> Redirect:
    """Record the scan (always, orphans too) and redirect while the code serves; else 404."""
    h = headers or {}
    ua = (h.get("user-agent") or "")[:300]
    agent = scanning.parse_agent(ua)
    now = ctx.now()
    tenant_id = ctx.tenant_id
    short = short_code[:64]
    target: str | None = None
    secret = ctx.runtime.secret_key
    with ctx.write() as s:
        conn = s.connection()
        # One statement: counted on the code only if it serves (the cap exact under concurrency).
        hit = scanning.serve(conn, tenant_id=tenant_id, short_code=short, now=now, bot=agent.bot)
        code_id = hit.id if hit is not None else None
        row = {
            "id": scanning.scan_id(now),
            "tenant_id": tenant_id,
            "code_id": code_id,
            "short_code": short,
            "at": now,
            "device": agent.device,
            "browser": agent.browser,
            "os": agent.os,
            "referrer": scanning.referrer_host(h.get("referer")),
            "ip_hash": scanning.anonymise_ip(
                secret.encode() if isinstance(secret, str) else secret, tenant_id, now.date(), ctx.ip
            ),
            "user_agent": ua,
            "bot": agent.bot,
        }
        scanning.record_counted(conn, tenant_id=tenant_id, scan=row, code_id=code_id, agent=agent)
        if hit is not None:
            target = hit.destination_url
            if not agent.bot:
                count = int(hit.scans)
                emit(
                    ctx,
                    "qr.scanned",
                    {
                        "qr_id": hit.id,
                        "short_code": short_code,
                        "scans": count,
                        "device": agent.device,
                        "browser": agent.browser,
                        "os": agent.os,
                        "referrer": row["referrer"],
                    },
                )
                th = hit.scan_alert_threshold
                if th is not None and count >= th and not hit.threshold_sent:
                    flipped = s.execute(
                        update(QrCode)
                        .where(QrCode.id == hit.id, QrCode.threshold_sent.is_(False))
                        .values(threshold_sent=True)
                    )
                    if getattr(flipped, "rowcount", 0) == 1:
                        emit(ctx, "qr.threshold_reached", {"qr_id": hit.id, "threshold": th, "scans": count})
    if target is None:
        raise NotFound("no active QR code at this address", {"short_code": short_code})
    return Redirect(target)


# --- analytics ----------------------------------------------------------------


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


@use_case("qr.codes.analytics", "GET /qr/{id}/analytics", tx="read", record=CODE, summary="analytics of one QR code")
def code_analytics(ctx: Ctx, id: str, query: AnalyticsQuery) -> AnalyticsOut:
    start, end = _range(ctx, query.from_, query.to)
    with ctx.read() as s:
        if s.execute(select(QrCode.id).where(QrCode.id == id)).first() is None:
            raise NotFound("QR code not found", {"id": id})
        return _summary(ctx, s, id, start, end)


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


# --- templates and folders ----------------------------------------------------


def _template_out(t: QrTemplate) -> TemplateOut:
    return TemplateOut(id=t.id, name=t.name, style=t.style, created_at=t.created_at)


@use_case("qr.templates.list", "GET /templates", tx="read", record=TEMPLATE, summary="list templates")
def list_templates(ctx: Ctx, query: ListQuery) -> Page[TemplateOut]:
    with ctx.read() as s:
        stmt = select(QrTemplate)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrTemplate.name, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrTemplate.created_at, "name": QrTemplate.name})
        return Page([_template_out(t) for t in page.items], page.total, page.spec)


@use_case("qr.templates.get", "GET /templates/{id}", tx="read", record=TEMPLATE, summary="a template")
def get_template(ctx: Ctx, id: str) -> TemplateOut:
    with ctx.read() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        return _template_out(t)


@use_case(
    "qr.templates.create",
    "POST /templates",
    tx="write",
    status=201,
    says="New template",
    record=TEMPLATE,
    summary="create a template",
)
def create_template(ctx: Ctx, body: TemplateCreate) -> TemplateOut:
    style = body.style.model_dump()
    _logo(ctx, style)
    with ctx.write() as s:
        t = QrTemplate(id=new_id(), tenant_id=ctx.tenant_id, name=body.name, style=style, created_at=ctx.now())
        s.add(t)
        s.flush()
        return _template_out(t)


@use_case(
    "qr.templates.update",
    "PATCH /templates/{id}",
    tx="write",
    says="Template changed",
    record=TEMPLATE,
    summary="update a template",
)
def update_template(ctx: Ctx, id: str, body: TemplateUpdate) -> TemplateOut:
    with ctx.write() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        if body.name is not None:
            t.name = body.name
        if body.style is not None:
            t.style = body.style.model_dump()
            _logo(ctx, t.style)
        s.flush()
        return _template_out(t)


@use_case(
    "qr.templates.delete",
    "DELETE /templates/{id}",
    tx="write",
    says="Template deleted",
    record=TEMPLATE,
    summary="delete a template (codes keep their style)",
)
def delete_template(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        s.execute(update(QrCode).where(QrCode.template_id == id).values(template_id=None))
        s.delete(t)


def _folder_out(f: QrFolder) -> FolderOut:
    return FolderOut(id=f.id, name=f.name, parent_id=f.parent_id, created_at=f.created_at)


def _check_parent(s: Session, fid: str | None, parent_id: str | None) -> None:
    seen = {fid} if fid else set()
    p = parent_id
    while p:
        if p in seen:
            raise ValidationFailed("a folder cannot be inside itself", {"parent_id": parent_id})
        seen.add(p)
        parent = s.get(QrFolder, p)
        if parent is None:
            raise ValidationFailed("unknown parent folder", {"parent_id": parent_id})
        p = parent.parent_id


@use_case("qr.folders.list", "GET /folders", tx="read", record=FOLDER, summary="list folders")
def list_folders(ctx: Ctx, query: ListQuery) -> Page[FolderOut]:
    with ctx.read() as s:
        stmt = select(QrFolder)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrFolder.name, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrFolder.created_at, "name": QrFolder.name})
        return Page([_folder_out(f) for f in page.items], page.total, page.spec)


@use_case("qr.folders.get", "GET /folders/{id}", tx="read", record=FOLDER, summary="a folder")
def get_folder(ctx: Ctx, id: str) -> FolderOut:
    with ctx.read() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        return _folder_out(f)


@use_case(
    "qr.folders.create",
    "POST /folders",
    tx="write",
    status=201,
    says="New folder",
    record=FOLDER,
    summary="create a folder",
)
def create_folder(ctx: Ctx, body: FolderCreate) -> FolderOut:
    with ctx.write() as s:
        _check_parent(s, None, body.parent_id)
        f = QrFolder(
            id=new_id(), tenant_id=ctx.tenant_id, name=body.name, parent_id=body.parent_id, created_at=ctx.now()
        )
        s.add(f)
        s.flush()
        return _folder_out(f)


@use_case(
    "qr.folders.update",
    "PATCH /folders/{id}",
    tx="write",
    says="Folder changed",
    record=FOLDER,
    summary="rename or move a folder",
)
def update_folder(ctx: Ctx, id: str, body: FolderUpdate) -> FolderOut:
    with ctx.write() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        if body.name is not None:
            f.name = body.name
        if "parent_id" in body.model_fields_set:
            _check_parent(s, f.id, body.parent_id)
            f.parent_id = body.parent_id
        s.flush()
        return _folder_out(f)


@use_case(
    "qr.folders.delete",
    "DELETE /folders/{id}",
    tx="write",
    says="Folder deleted",
    record=FOLDER,
    summary="delete an empty folder",
)
def delete_folder(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        busy = (
            s.execute(select(QrCode.id).where(QrCode.folder_id == id).limit(1)).first()
            or s.execute(select(QrFolder.id).where(QrFolder.parent_id == id).limit(1)).first()
        )
        if busy:
            raise Conflict("the folder is not empty: move its codes and folders first", {"id": id})
        s.delete(f)


# --- barcodes -----------------------------------------------------------------


def _barcode_out(b: QrBarcode) -> BarcodeOut:
    return BarcodeOut(id=b.id, type=b.type, value=b.value, created_at=b.created_at)


@use_case("qr.barcodes.list", "GET /barcode", tx="read", record=BARCODE, summary="list barcodes")
def list_barcodes(ctx: Ctx, query: ListQuery) -> Page[BarcodeOut]:
    with ctx.read() as s:
        stmt = select(QrBarcode)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrBarcode.value, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrBarcode.created_at})
        return Page([_barcode_out(b) for b in page.items], page.total, page.spec)


@use_case(
    "qr.barcodes.create",
    "POST /barcode",
    tx="write",
    status=201,
    says="New barcode",
    record=BARCODE,
    summary="create a barcode (check digit computed or verified)",
)
def create_barcode(ctx: Ctx, body: BarcodeCreate) -> BarcodeOut:
    value = checkdigits.normalise(body.type, body.value)
    with ctx.write() as s:
        b = QrBarcode(id=new_id(), tenant_id=ctx.tenant_id, type=body.type, value=value, created_at=ctx.now())
        s.add(b)
        s.flush()
        return _barcode_out(b)


@use_case(
    "qr.barcodes.get",
    "GET /barcode/{id}",
    tx="read",
    record=BARCODE,
    summary="a barcode: the record, or its image with ?format=png|svg",
)
def get_barcode(ctx: Ctx, id: str, query: BarcodeQuery) -> BarcodeOut | FileResult:
    with ctx.read() as s:
        b = s.get(QrBarcode, id)
        if b is None:
            raise NotFound("barcode not found", {"id": id})
        out = _barcode_out(b)
    if query.format is None:
        return out
    content = render.barcode_image(out.type, out.value, query.format)
    return FileResult(content, render.MEDIA[query.format], f"{out.type}-{out.value}.{query.format}")


@use_case(
    "qr.barcodes.delete",
    "DELETE /barcode/{id}",
    tx="write",
    says="Barcode deleted",
    record=BARCODE,
    summary="delete a barcode",
)
def delete_barcode(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        b = s.get(QrBarcode, id)
        if b is None:
            raise NotFound("barcode not found", {"id": id})
        s.execute(delete(QrBarcode).where(QrBarcode.id == id))


# --- the versioned public API (API keys only) ---------------------------------


@use_case("qr.v1.list", "GET /v1/qr", tx="read", roles=ANYONE, keys_only=True, record=CODE, summary="v1: list QR codes")
def v1_list(ctx: Ctx, query: QrQuery) -> Page[QrOut]:
    return list_codes(ctx, query)


@use_case(
    "qr.v1.create",
    "POST /v1/qr",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    status=201,
    says="New QR code",
    record=CODE,
    summary="v1: create a QR code",
)
def v1_create(ctx: Ctx, body: QrCreate) -> QrOut:
    return create_code(ctx, body)


@use_case(
    "qr.v1.get", "GET /v1/qr/{id}", tx="read", roles=ANYONE, keys_only=True, record=CODE, summary="v1: QR code details"
)
def v1_get(ctx: Ctx, id: str) -> QrOut:
    return get_code(ctx, id)


@use_case(
    "qr.v1.update",
    "PATCH /v1/qr/{id}",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    says="QR code changed",
    record=CODE,
    summary="v1: update a QR code",
)
def v1_update(ctx: Ctx, id: str, body: QrUpdate) -> QrOut:
    return update_code(ctx, id, body)


@use_case(
    "qr.v1.delete",
    "DELETE /v1/qr/{id}",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    says="QR code deleted",
    record=CODE,
    summary="v1: delete a QR code",
)
def v1_delete(ctx: Ctx, id: str) -> None:
    delete_code(ctx, id)


@use_case(
    "qr.v1.analytics",
    "GET /v1/qr/{id}/analytics",
    tx="read",
    roles=ANYONE,
    keys_only=True,
    record=CODE,
    summary="v1: analytics of one QR code",
)
def v1_analytics(ctx: Ctx, id: str, query: AnalyticsQuery) -> AnalyticsOut:
    return code_analytics(ctx, id, query)
