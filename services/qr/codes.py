"""Qr: codes."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.qr import QrCode, QrFolder, QrTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed, conflict_state
from services.core.files import FileResult, Upload
from services.core.links import public_url
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS
from services.core.storage import IMAGE_TYPES, store_blob
from services.qr import render, states
from services.qr.lookups import _logo, _range, _summary
from services.qr.schemas import (
    AnalyticsOut,
    AnalyticsQuery,
    DestinationUpdate,
    DownloadQuery,
    LogoOut,
    PreviewQuery,
    QrCreate,
    QrOut,
    QrQuery,
    QrUpdate,
    Style,
    static_content_problem,
)

CODE = record_kind("qr.code", get="qr.codes.get", label="name")


SORTABLE = {"created_at": QrCode.created_at, "name": QrCode.name, "scans": QrCode.scans}


SHORT_ALPHABET = string.ascii_letters + string.digits


SHORT_LENGTH = 7


@dataclass(frozen=True)
class QrConfig:
    """Where scan addresses point: ``PLATFORM_PUBLIC_URL`` (DECISIONS: links start with it)."""

    # None: services.core.links.public_url (PLATFORM_PUBLIC_URL, else the server's own address).
    public_url: str | None = None


def scan_address(ctx: Ctx, short_code: str) -> str:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return f"{ctx.runtime.part(QrConfig).public_url or public_url(ctx.runtime)}/{slug}/qr/r/{short_code}"


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
        fallback_url=c.fallback_url,
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


def _new_short_code(s: Session) -> str:
    while True:
        code = "".join(secrets.choice(SHORT_ALPHABET) for _ in range(SHORT_LENGTH))
        if s.execute(select(QrCode.id).where(QrCode.short_code == code)).first() is None:
            return code


def _validate_create(body: QrCode | QrCreate) -> None:
    if body.dynamic and body.type == "url" and not body.destination_url:
        raise ValidationFailed("a dynamic code needs destination_url", {"destination_url": None})
    if body.dynamic and body.type != "url" and not (body.destination_url or body.content):
        # A dynamic text, vCard, Wi-Fi, e-mail, phone or SMS code shows its content on a landing page.
        raise ValidationFailed(
            f"a dynamic {body.type} code needs content (shown on its landing page) or destination_url",
            {"content": ""},
        )
    if not body.dynamic and not body.content:
        raise ValidationFailed("a static code needs content", {"content": ""})


def serving(c: QrCode, now: datetime) -> bool:
    """The scan is redirected: enabled, dynamic, inside the validity window and under the cap."""
    return (
        c.enabled
        and c.dynamic
        and (c.destination_url is not None or (c.type != "url" and bool(c.content)))
        and (c.valid_since is None or now >= c.valid_since)
        and (c.valid_until is None or now < c.valid_until)
        and (c.max_scans is None or c.scans < c.max_scans)
    )


def _image(ctx: Ctx, data: str, style: dict[str, Any], fmt: str, size: int, name: str) -> FileResult:
    content = render.render(fmt, data, style, size, _logo(ctx, style))
    return FileResult(content, render.MEDIA[fmt], f"{name}.{fmt}")


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
            # A dynamic URL code's printed content is its scan address; other types keep what their
            # landing page shows.
            content="" if body.dynamic and body.type == "url" else body.content,
            dynamic=body.dynamic,
            short_code=_new_short_code(s),
            destination_url=body.destination_url,
            fallback_url=body.fallback_url,
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
        for f in ("name", "folder_id", "max_scans", "scan_alert_threshold", "fallback_url"):
            if f in given:
                setattr(c, f, getattr(body, f))
        if "content" in given and body.content is not None:
            if c.dynamic and c.type == "url":
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


@use_case("qr.codes.analytics", "GET /qr/{id}/analytics", tx="read", record=CODE, summary="analytics of one QR code")
def code_analytics(ctx: Ctx, id: str, query: AnalyticsQuery) -> AnalyticsOut:
    start, end = _range(ctx, query.from_, query.to)
    with ctx.read() as s:
        if s.execute(select(QrCode.id).where(QrCode.id == id)).first() is None:
            raise NotFound("QR code not found", {"id": id})
        return _summary(ctx, s, id, start, end)
