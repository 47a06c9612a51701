"""Sign: documents."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from local_db.models.sign import SignAudit, SignDocument, SignField, SignSigner, SignTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.storage import store_blob
from services.sign import schemas as sc
from services.sign import states
from services.sign.lookups import (
    PDF_TYPES,
    _act,
    _acting,
    _doc,
    _fields,
    _file,
    _invite,
    _notify_next,
    _pdf_pages,
    _signers,
    _trail,
    _utc,
    audit,
)
from services.sign.sealing import load_settings

DOCUMENT = record_kind("sign.document", get="sign.documents.get", label="title")


def _check_expiry(ctx: Ctx, expires_at: datetime | None) -> datetime | None:
    when = _utc(expires_at)
    if when is not None and when <= _utc(ctx.now()):  # type: ignore[operator]
        raise ValidationFailed("expires_at must be in the future", {"field": "expires_at"})
    return when


def _out(d: SignDocument) -> sc.DocumentOut:
    return sc.DocumentOut.model_validate(d)


@use_case("sign.documents.list", "GET /documents", tx="read", record=DOCUMENT, summary="list documents")
def list_documents(ctx: Ctx, query: sc.DocumentQuery) -> Page[sc.DocumentOut]:
    stmt = select(SignDocument)
    if query.status:
        stmt = stmt.where(SignDocument.status == query.status)
    if query.search:
        stmt = stmt.where(contains(SignDocument.title, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": SignDocument.created_at,
                "title": SignDocument.title,
                "status": SignDocument.status,
                "updated_at": SignDocument.updated_at,
            },
        )
        return page.map(sc.DocumentOut.model_validate)


@use_case("sign.documents.get", "GET /documents/{id}", tx="read", record=DOCUMENT, summary="a document")
def get_document(ctx: Ctx, id: str) -> sc.DocumentOut:
    with ctx.read() as s:
        return _out(_doc(s, id))


def _form_fields(upload: Upload, query: sc.DocumentCreateQuery | None) -> sc.DocumentFields:
    raw: dict[str, Any] = {k: v for k, v in (query.model_dump(exclude_none=True) if query else {}).items()}
    raw.update(upload.fields)
    if isinstance(raw.get("expires_at"), datetime):
        raw["expires_at"] = raw["expires_at"].isoformat()
    unknown = sorted(set(raw) - set(sc.DocumentFields.model_fields))
    if unknown:
        raise ValidationFailed("unknown fields", {"fields": [{"field": f, "message": "not allowed"} for f in unknown]})
    from services.core.bodies import validate_body

    return validate_body(sc.DocumentFields, raw)


@use_case(
    "sign.documents.create",
    "POST /documents",
    tx="write",
    status=201,
    upload=True,
    says="New document",
    record=DOCUMENT,
    summary="create a document from an uploaded PDF (multipart file + fields) or a template (JSON)",
)
def create_document(ctx: Ctx, upload: Upload, query: sc.DocumentCreateQuery) -> sc.DocumentOut:
    if upload.content_type.startswith("application/json"):
        from services.core.bodies import parse_json, validate_body

        body = validate_body(sc.DocumentFromTemplate, parse_json(upload.content))
        return _from_template(ctx, body)
    fields = _form_fields(upload, query)
    # A station's outbox repeats the path (with its query) and the file, not multipart text parts:
    # the fields travel on as query parameters.
    query.title, query.signing_order = fields.title, fields.signing_order
    query.message, query.expires_at = fields.message or None, fields.expires_at
    blob = store_blob(ctx, upload.content, allowed=PDF_TYPES)
    pages = _pdf_pages(upload.content)
    now = ctx.now()
    with ctx.write() as s:
        d = SignDocument(
            title=fields.title,
            status="draft",
            signing_order=fields.signing_order,
            message=fields.message,
            expires_at=_check_expiry(ctx, fields.expires_at),
            pages=pages,
            sha256=blob.sha256,
            created_by=ctx.principal.user_id,
            created_at=now,
            updated_at=now,
        )
        s.add(d)
        s.flush()
        audit(ctx, s, d, "created")
        return _out(d)


def _from_template(ctx: Ctx, body: sc.DocumentFromTemplate) -> sc.DocumentOut:
    now = ctx.now()
    with ctx.write() as s:
        t = s.get(SignTemplate, body.template_id)
        if t is None:
            raise ValidationFailed("no such template", {"field": "template_id", "template_id": body.template_id})
        d = SignDocument(
            title=body.title,
            status="draft",
            signing_order=body.signing_order,
            message=body.message,
            expires_at=_check_expiry(ctx, body.expires_at),
            pages=t.pages,
            sha256=t.sha256,
            template_id=t.id,
            created_by=ctx.principal.user_id,
            created_at=now,
            updated_at=now,
        )
        s.add(d)
        s.flush()
        for f in t.fields:
            tf = sc.TemplateField.model_validate(f)
            s.add(SignField(document_id=d.id, signer_id=None, created_at=now, **tf.model_dump()))
        audit(ctx, s, d, "created")
        return _out(d)


@use_case(
    "sign.documents.send",
    "POST /documents/{id}/send",
    tx="write",
    says="Send for signature",
    record=DOCUMENT,
    summary="send for signature",
)
def send_document(ctx: Ctx, id: str, body: sc.SendRequest) -> sc.DocumentOut:
    now = ctx.now()
    with ctx.write() as s:
        d = _doc(s, id)
        target = states.DOCUMENT.check(d.status, "send")
        signers = _signers(s, d.id)
        if not any(_acting(g) for g in signers):
            raise ValidationFailed("add at least one signer or approver before sending", {"field": "signers"})
        fields = _fields(s, d.id)
        loose = [f.id for f in fields if f.signer_id is None]
        if loose:
            raise ValidationFailed("some template fields have no signer yet: add signers", {"fields": loose})
        if body.message is not None:
            d.message = body.message
        if body.expires_at is not None:
            d.expires_at = _check_expiry(ctx, body.expires_at)
        if d.expires_at is None:
            d.expires_at = now + timedelta(days=load_settings(s).expiry_days)
        d.status, d.sent_at, d.updated_at = target, now, now
        _notify_next(ctx, d, signers)
        for g in signers:
            if g.role in ("viewer", "cc") and g.status == "pending":
                g.status, g.sent_at = "sent", now
                _invite(ctx, d, g)
        audit(ctx, s, d, "sent")
        emit(ctx, "document.sent", {"document_id": d.id, "title": d.title, "signers": len(signers)})
        return _out(d)


@use_case(
    "sign.documents.delete",
    "DELETE /documents/{id}",
    tx="write",
    roles=STAFF,
    says="Delete or void document",
    record=DOCUMENT,
    summary="delete a draft; void a sent document",
)
def delete_document(ctx: Ctx, id: str, body: sc.VoidRequest | None = None) -> None:
    now = ctx.now()
    with ctx.write() as s:
        d = _doc(s, id)
        if d.status == "draft":
            for row in [*_fields(s, d.id), *_signers(s, d.id)]:
                s.delete(row)
            for a in s.execute(select(SignAudit).where(SignAudit.document_id == d.id)).scalars():
                s.delete(a)
            s.delete(d)
            return
        d.status = states.DOCUMENT.check(d.status, "void")
        d.void_reason = body.reason if body else None
        d.updated_at = now
        for g in _signers(s, d.id):
            g.token_hash = None  # a voided document's links answer 404
        audit(ctx, s, d, "voided")


@use_case(
    "sign.documents.download",
    "GET /documents/{id}/download",
    tx="read",
    record=DOCUMENT,
    summary="the PDF: the original before completion, the sealed one after",
)
def download_document(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        d = _doc(s, id)
        return _file(ctx, d)


@use_case("sign.documents.audit", "GET /documents/{id}/audit", tx="read", record=DOCUMENT, summary="audit trail")
def document_audit(ctx: Ctx, id: str) -> sc.AuditList:
    with ctx.read() as s:
        d = _doc(s, id)
        return sc.AuditList(items=_trail(s, d.id))


@use_case(
    "sign.documents.sign_in_person",
    "POST /documents/{id}/in-person",
    tx="write",
    says="Signed in person",
    record=DOCUMENT,
    summary="an in-person signer signs at a station, in front of staff (no link exists)",
)
def sign_in_person(ctx: Ctx, id: str, body: sc.InPersonSign) -> sc.SignResult:
    sid = body.signer_id
    with ctx.write() as s:
        d = _doc(s, id)
        g = s.get(SignSigner, sid)
        if g is None or g.document_id != d.id:
            raise NotFound(f"no signer {sid}", {"signer": sid})
        if not g.in_person:
            raise Conflict("this signer signs on their own link, not at a station", {"reason": "not_in_person"})
        action = sc.SignAction(action="sign", values=body.values, signature=body.signature, consent=body.consent)
        staff = ctx.principal.email or ctx.principal.id
        return _act(ctx, s, d, g, action, user_agent=f"station, witnessed by {staff}", in_person=True)


@use_case("sign.settings.get", "GET /settings", tx="read", summary="expiry and reminder settings")
def get_settings(ctx: Ctx) -> sc.SignSettingsData:
    with ctx.read() as s:
        return load_settings(s)


@use_case(
    "sign.settings.update",
    "PUT /settings",
    tx="write",
    roles=MANAGERS,
    says="Sign settings changed",
    summary="set expiry and reminders",
)
def put_settings(ctx: Ctx, body: sc.SignSettingsData) -> sc.SignSettingsData:
    from local_db.models.sign import SignSettings

    with ctx.write() as s:
        row = s.execute(select(SignSettings)).scalar_one_or_none()
        if row is None:
            row = SignSettings(data={})
            s.add(row)
        row.data, row.updated_at = body.model_dump(), ctx.now()
        return body


@use_case(
    "sign.documents.sweep",
    "POST /documents/sweep",
    tx="write",
    roles=MANAGERS,
    says="Expire and remind",
    record=DOCUMENT,
    summary="expire documents past their date and remind signers who have not acted (run by the worker)",
)
def sweep(ctx: Ctx) -> sc.SweepOut:
    now = _utc(ctx.now())
    assert now is not None
    expired = reminded = 0
    with ctx.write() as s:
        cfg = load_settings(s)
        for d in s.execute(select(SignDocument).where(SignDocument.status == "sent")).scalars():
            signers = _signers(s, d.id)
            if d.expires_at is not None and _utc(d.expires_at) <= now:  # type: ignore[operator]
                d.status, d.updated_at = states.DOCUMENT.check(d.status, "expire", "system"), now
                for g in signers:
                    g.token_hash = None
                audit(ctx, s, d, "expired", actor="system", email=None)
                expired += 1
                continue
            if not cfg.reminders:
                continue
            for g in signers:
                if g.status not in ("sent", "viewed") or not _acting(g) or g.sent_at is None:
                    continue
                last, sent = _utc(g.reminded_at), _utc(g.sent_at)
                assert sent is not None
                due = (
                    sent + timedelta(days=cfg.first_reminder_days)
                    if last is None
                    else last + timedelta(days=cfg.reminder_every_days)
                )
                if due <= now:
                    g.reminded_at = now
                    _invite(ctx, d, g, reminder=True)  # a fresh link: the old one stops working
                    reminded += 1
    return sc.SweepOut(expired=expired, reminded=reminded)
