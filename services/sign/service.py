"""Sign use cases: documents, signers, fields, templates, sending, the public token routes, voiding,
expiry and reminders, and in-person signing at a station (docs/sign.md).

Signing tokens are made when a signer is e-mailed, kept as their SHA-256 only and travel in the
e-mail alone: no staff answer, log line or desktop screen carries one. In-person signers have no
token at all: staff sign them in through ``sign.documents.sign_in_person``.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models.sign import SignAudit, SignDocument, SignField, SignSigner, SignTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.links import public_url
from services.core.mail import Mail, send_after_commit
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.signing import token_hash
from services.core.storage import read_blob, store_blob
from services.sign import pdf, states
from services.sign import schemas as sc
from services.sign.sealing import load_settings, seal_document

DOCUMENT = record_kind("sign.document", get="sign.documents.get", label="title")
TEMPLATE = record_kind("sign.template", get="sign.templates.get", label="name")
MODULE = "sign"
PDF_TYPES = frozenset({"application/pdf"})
MAX_SIGNERS = 50
MAX_FIELDS = 500
TOKEN_BYTES = 32  # 256 bits, URL-safe base64: 43 characters


@dataclass(frozen=True)
class SignConfig:
    """Where signing links point: ``PLATFORM_PUBLIC_URL`` (DECISIONS: links start with it)."""

    # None: services.core.links.public_url (PLATFORM_PUBLIC_URL, else the server's own address).
    public_url: str | None = None


# --- helpers ---------------------------------------------------------------------------


def _utc(d: datetime | None) -> datetime | None:
    if d is None:
        return None
    return d.astimezone(UTC) if d.tzinfo else d.replace(tzinfo=UTC)


def _doc(s: Session, doc_id: str) -> SignDocument:
    d = s.get(SignDocument, doc_id)  # another tenant's row reads as None
    if d is None:
        raise NotFound(f"no document {doc_id}", {"document": doc_id})
    return d


def _signers(s: Session, doc_id: str) -> list[SignSigner]:
    return list(
        s.execute(
            select(SignSigner).where(SignSigner.document_id == doc_id).order_by(SignSigner.order, SignSigner.created_at)
        ).scalars()
    )


def _fields(s: Session, doc_id: str) -> list[SignField]:
    return list(
        s.execute(select(SignField).where(SignField.document_id == doc_id).order_by(SignField.created_at)).scalars()
    )


def audit(
    ctx: Ctx,
    s: Session,
    d: SignDocument,
    action: str,
    *,
    actor: str | None = None,
    email: str | None = None,
    user_agent: str | None = None,
    sha256: str | None = None,
) -> None:
    if actor is None:
        p = ctx.principal
        actor = p.name or p.email or p.kind
        email = email if email is not None else p.email
    s.add(
        SignAudit(
            document_id=d.id,
            at=ctx.now(),
            action=action,
            actor=actor[:200],
            email=email,
            ip=ctx.ip,
            user_agent=(user_agent or None) and user_agent[:300],
            document_sha256=sha256 or d.sha256,
        )
    )


def _pdf_pages(content: bytes) -> int:
    try:
        return len(pdf.page_boxes(content))
    except pdf.BadPdf as exc:
        raise ValidationFailed(str(exc), {"field": "file"}) from exc


def _check_expiry(ctx: Ctx, expires_at: datetime | None) -> datetime | None:
    when = _utc(expires_at)
    if when is not None and when <= _utc(ctx.now()):  # type: ignore[operator]
        raise ValidationFailed("expires_at must be in the future", {"field": "expires_at"})
    return when


def _out(d: SignDocument) -> sc.DocumentOut:
    return sc.DocumentOut.model_validate(d)


def _editable(d: SignDocument) -> None:
    states.DOCUMENT.check(d.status, "edit", verb="change signers or fields of")


def link(ctx: Ctx, token: str) -> str:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return f"{(ctx.runtime.part(SignConfig).public_url or public_url(ctx.runtime))}/{slug}/sign/api/sign/{token}"


def _invite(ctx: Ctx, d: SignDocument, sg: SignSigner, *, reminder: bool = False) -> None:
    """A fresh token for the signer, e-mailed after commit; only its hash is kept."""
    if sg.in_person or not sg.email:
        return
    token = secrets.token_urlsafe(TOKEN_BYTES)
    sg.token_hash = token_hash(token)
    who = ctx.tenant.name if ctx.tenant else "The platform"
    verb = "Reminder: please sign" if reminder else "Please sign"
    if sg.role == "cc":
        verb = "For your records"
    text = (
        f'Hello {sg.name},\n\n{who} sent you "{d.title}".\n\n'
        + (f"{d.message}\n\n" if d.message else "")
        + f"Open your private link (do not forward it; it is yours alone):\n{link(ctx, token)}\n\n"
        + (f"The link expires on {d.expires_at:%Y-%m-%d %H:%M} UTC.\n" if d.expires_at else "")
    )
    send_after_commit(ctx, Mail(to=sg.email, subject=f"{verb}: {d.title}", text=text, private=True))


def _acting(sg: SignSigner) -> bool:
    """Signers and approvers act; viewers and cc only receive."""
    return sg.role in ("signer", "approver")


def _notify_next(ctx: Ctx, d: SignDocument, signers: list[SignSigner]) -> None:
    """Sequential order: the lowest order still pending gets its e-mail (all of that order)."""
    waiting = [g for g in signers if g.status == "pending" and _acting(g) and not g.in_person]
    if d.signing_order == "parallel":
        nxt = waiting
    else:
        open_orders = [g.order for g in signers if _acting(g) and g.status not in ("signed", "declined")]
        first = min(open_orders) if open_orders else None
        nxt = [g for g in waiting if g.order == first]
    now = ctx.now()
    for g in nxt:
        g.status = states.SIGNER.check(g.status, "send")
        g.sent_at = now
        _invite(ctx, d, g)


# --- documents -------------------------------------------------------------------------


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


def _file(ctx: Ctx, d: SignDocument) -> FileResult:
    sha = d.signed_sha256 or d.sha256
    name = "".join(c if c.isalnum() or c in "-_ " else "_" for c in d.title)[:80].strip() or "document"
    suffix = "-signed" if d.signed_sha256 else ""
    return FileResult(read_blob(ctx, sha), "application/pdf", f"{name}{suffix}.pdf", inline=False)


@use_case("sign.documents.audit", "GET /documents/{id}/audit", tx="read", record=DOCUMENT, summary="audit trail")
def document_audit(ctx: Ctx, id: str) -> sc.AuditList:
    with ctx.read() as s:
        d = _doc(s, id)
        return sc.AuditList(items=_trail(s, d.id))


def _trail(s: Session, doc_id: str) -> list[sc.AuditOut]:
    rows = s.execute(select(SignAudit).where(SignAudit.document_id == doc_id).order_by(SignAudit.at, SignAudit.id))
    return [sc.AuditOut.model_validate(a) for a in rows.scalars()]


# --- signers ---------------------------------------------------------------------------


@use_case(
    "sign.signers.list", "GET /documents/{id}/signers", tx="read", record=DOCUMENT, summary="signers of a document"
)
def list_signers(ctx: Ctx, id: str) -> Page[sc.SignerOut]:
    from services.core.pagination import PageSpec

    with ctx.read() as s:
        _doc(s, id)
        rows = [sc.SignerOut.model_validate(g) for g in _signers(s, id)]
    return Page(rows, len(rows), PageSpec("A", 1, max(len(rows), 1), 0, None, False))


@use_case(
    "sign.signers.add",
    "POST /documents/{id}/signers",
    tx="write",
    status=201,
    says="Add signer",
    record=DOCUMENT,
    summary="add a signer (draft only)",
)
def add_signer(ctx: Ctx, id: str, body: sc.SignerIn) -> sc.SignerOut:
    now = ctx.now()
    with ctx.write() as s:
        d = _doc(s, id)
        _editable(d)
        if not body.in_person and not body.email:
            raise ValidationFailed("an e-mail address is needed (or in_person)", {"field": "email"})
        signers = _signers(s, d.id)
        if len(signers) >= MAX_SIGNERS:
            raise ValidationFailed(f"at most {MAX_SIGNERS} signers", {"field": "signers"})
        order = body.order or (max((g.order for g in signers), default=0) + 1)
        g = SignSigner(
            document_id=d.id,
            name=body.name,
            email=body.email,
            role=body.role,
            order=order,
            status="pending",
            in_person=body.in_person,
            created_at=now,
        )
        s.add(g)
        s.flush()
        # A template's fields wait for the n-th signer added.
        slot = len(signers) + 1
        for f in _fields(s, d.id):
            if f.signer_id is None and f.slot == slot:
                f.signer_id = g.id
        d.updated_at = now
        return sc.SignerOut.model_validate(g)


@use_case(
    "sign.signers.delete",
    "DELETE /documents/{id}/signers/{sid}",
    tx="write",
    says="Remove signer",
    record=DOCUMENT,
    summary="remove a signer and their fields (draft only)",
)
def delete_signer(ctx: Ctx, id: str, sid: str) -> None:
    with ctx.write() as s:
        d = _doc(s, id)
        g = s.get(SignSigner, sid)
        if g is None or g.document_id != d.id:
            raise NotFound(f"no signer {sid}", {"signer": sid})
        _editable(d)
        for f in _fields(s, d.id):
            if f.signer_id == g.id:
                s.delete(f)
        s.delete(g)
        d.updated_at = ctx.now()


# --- fields ----------------------------------------------------------------------------


@use_case("sign.fields.list", "GET /documents/{id}/fields", tx="read", record=DOCUMENT, summary="fields of a document")
def list_fields(ctx: Ctx, id: str) -> Page[sc.FieldOut]:
    from services.core.pagination import PageSpec

    with ctx.read() as s:
        _doc(s, id)
        rows = [sc.FieldOut.model_validate(f) for f in _fields(s, id)]
    return Page(rows, len(rows), PageSpec("A", 1, max(len(rows), 1), 0, None, False))


@use_case(
    "sign.fields.add",
    "POST /documents/{id}/fields",
    tx="write",
    status=201,
    says="Place field",
    record=DOCUMENT,
    summary="place a field on a page (draft only)",
)
def add_field(ctx: Ctx, id: str, body: sc.FieldIn) -> sc.FieldOut:
    with ctx.write() as s:
        d = _doc(s, id)
        _editable(d)
        g = s.get(SignSigner, body.signer_id)
        if g is None or g.document_id != d.id:
            raise ValidationFailed("no such signer on this document", {"field": "signer_id"})
        if body.page > d.pages:
            raise ValidationFailed(f"the document has {d.pages} pages", {"field": "page", "pages": d.pages})
        if body.x + body.width > 1.0001 or body.y + body.height > 1.0001:
            raise ValidationFailed("the field runs off the page", {"field": "x"})
        count = s.execute(select(func.count()).where(SignField.document_id == d.id)).scalar_one()
        if count >= MAX_FIELDS:
            raise ValidationFailed(f"at most {MAX_FIELDS} fields", {"field": "fields"})
        f = SignField(document_id=d.id, created_at=ctx.now(), **body.model_dump())
        s.add(f)
        s.flush()
        d.updated_at = ctx.now()
        return sc.FieldOut.model_validate(f)


@use_case(
    "sign.fields.delete",
    "DELETE /documents/{id}/fields/{fid}",
    tx="write",
    says="Remove field",
    record=DOCUMENT,
    summary="remove a field (draft only)",
)
def delete_field(ctx: Ctx, id: str, fid: str) -> None:
    with ctx.write() as s:
        d = _doc(s, id)
        f = s.get(SignField, fid)
        if f is None or f.document_id != d.id:
            raise NotFound(f"no field {fid}", {"field": fid})
        _editable(d)
        s.delete(f)
        d.updated_at = ctx.now()


# --- templates -------------------------------------------------------------------------


def _template(s: Session, tid: str) -> SignTemplate:
    t = s.get(SignTemplate, tid)
    if t is None:
        raise NotFound(f"no template {tid}", {"template": tid})
    return t


@use_case("sign.templates.list", "GET /templates", tx="read", record=TEMPLATE, summary="list templates")
def list_templates(ctx: Ctx, query: ListQuery) -> Page[sc.TemplateOut]:
    stmt = select(SignTemplate)
    if query.search:
        stmt = stmt.where(contains(SignTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": SignTemplate.created_at, "name": SignTemplate.name})
        return page.map(sc.TemplateOut.model_validate)


@use_case("sign.templates.get", "GET /templates/{id}", tx="read", record=TEMPLATE, summary="a template")
def get_template(ctx: Ctx, id: str) -> sc.TemplateOut:
    with ctx.read() as s:
        return sc.TemplateOut.model_validate(_template(s, id))


def _template_fields(raw: Any) -> list[dict[str, Any]]:
    from pydantic import TypeAdapter, ValidationError

    from services.core.errors import validation_details

    try:
        items = TypeAdapter(list[sc.TemplateField]).validate_python(raw)
    except ValidationError as exc:
        raise ValidationFailed("fields failed validation", validation_details(exc)) from exc
    if len(items) > MAX_FIELDS:
        raise ValidationFailed(f"at most {MAX_FIELDS} fields", {"field": "fields"})
    return [i.model_dump() for i in items]


@use_case(
    "sign.templates.create",
    "POST /templates",
    tx="write",
    status=201,
    upload=True,
    says="New template",
    record=TEMPLATE,
    summary="create a template from a PDF (multipart file + name + fields JSON) or a draft ({name, document_id})",
)
def create_template(ctx: Ctx, upload: Upload) -> sc.TemplateOut:
    import json

    from services.core.bodies import parse_json, validate_body

    now = ctx.now()
    if upload.content_type.startswith("application/json"):
        body = validate_body(sc.TemplateFromDocument, parse_json(upload.content))
        with ctx.write() as s:
            d = _doc(s, body.document_id)
            states.DOCUMENT.check(d.status, "edit", verb="make a template of")
            signers = {g.id: i + 1 for i, g in enumerate(_signers(s, d.id))}
            fields = [
                sc.TemplateField(
                    slot=signers.get(f.signer_id or "", f.slot or 1),
                    type=f.type,  # type: ignore[arg-type]
                    page=f.page,
                    x=f.x,
                    y=f.y,
                    width=f.width,
                    height=f.height,
                    required=f.required,
                ).model_dump()
                for f in _fields(s, d.id)
            ]
            t = SignTemplate(
                name=body.name, sha256=d.sha256, pages=d.pages, fields=fields, created_at=now, updated_at=now
            )
            s.add(t)
            s.flush()
            return sc.TemplateOut.model_validate(t)
    extra = dict(upload.fields)
    name = (extra.pop("name", "") or "").strip()
    raw_fields = extra.pop("fields", "[]")
    if extra:
        raise ValidationFailed("unknown fields", {"fields": [{"field": f, "message": "not allowed"} for f in extra]})
    if not name or len(name) > 200:
        raise ValidationFailed("name is required (1-200 characters)", {"field": "name"})
    try:
        parsed = json.loads(raw_fields)
    except ValueError as exc:
        raise ValidationFailed("fields must be JSON", {"field": "fields"}) from exc
    fields = _template_fields(parsed)
    blob = store_blob(ctx, upload.content, allowed=PDF_TYPES)
    pages = _pdf_pages(upload.content)
    if any(f["page"] > pages for f in fields):
        raise ValidationFailed(f"the PDF has {pages} pages", {"field": "fields"})
    with ctx.write() as s:
        t = SignTemplate(name=name, sha256=blob.sha256, pages=pages, fields=fields, created_at=now, updated_at=now)
        s.add(t)
        s.flush()
        return sc.TemplateOut.model_validate(t)


@use_case(
    "sign.templates.update",
    "PUT /templates/{id}",
    tx="write",
    says="Template changed",
    record=TEMPLATE,
    summary="rename a template or replace its fields",
)
def update_template(ctx: Ctx, id: str, body: sc.TemplateUpdate) -> sc.TemplateOut:
    with ctx.write() as s:
        t = _template(s, id)
        if body.name is not None:
            t.name = body.name
        if body.fields is not None:
            if any(f.page > t.pages for f in body.fields):
                raise ValidationFailed(f"the template has {t.pages} pages", {"field": "fields"})
            t.fields = [f.model_dump() for f in body.fields]
        t.updated_at = ctx.now()
        s.flush()
        return sc.TemplateOut.model_validate(t)


@use_case(
    "sign.templates.delete",
    "DELETE /templates/{id}",
    tx="write",
    says="Delete template",
    record=TEMPLATE,
    summary="delete a template (documents made from it stay)",
)
def delete_template(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(_template(s, id))


# --- signing (public by token, and in person) -------------------------------------------


def _require_module(ctx: Ctx) -> None:
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise NotFound("no such signing link")


def _by_token(ctx: Ctx, s: Session, token: str) -> tuple[SignDocument, SignSigner]:
    """The signer of a live link; any other token (unknown, voided, expired) is the same 404."""
    _require_module(ctx)
    gone = NotFound("no such signing link")
    if not (20 <= len(token) <= 100):
        raise gone
    g = s.execute(select(SignSigner).where(SignSigner.token_hash == token_hash(token))).scalar_one_or_none()
    if g is None:
        raise gone
    d = s.get(SignDocument, g.document_id)
    if d is None or d.status in ("voided", "expired"):
        raise gone
    if d.status == "sent" and d.expires_at is not None and _utc(d.expires_at) <= _utc(ctx.now()):  # type: ignore[operator]
        raise gone
    return d, g


def _public(s: Session, d: SignDocument, g: SignSigner) -> sc.PublicDocument:
    mine = [f for f in _fields(s, d.id) if f.signer_id == g.id]
    return sc.PublicDocument(
        title=d.title,
        message=d.message,
        status=d.status,  # type: ignore[arg-type]
        pages=d.pages,
        sha256=d.sha256,
        expires_at=d.expires_at,
        signer={"name": g.name, "email": g.email, "role": g.role},
        signer_status=g.status,  # type: ignore[arg-type]
        fields=[sc.PublicField.model_validate(f, from_attributes=True) for f in mine],
    )


def _ua(headers: dict[str, str | None] | None) -> str | None:
    return ((headers or {}).get("user-agent") or "")[:300] or None


@use_case(
    "sign.public.get",
    "GET /sign/{token}",
    tx="own",
    auth="public",
    limit="public_sign",
    headers=("user-agent",),
    summary="a signer's view of the document (first open: document.viewed)",
)
def public_get(ctx: Ctx, token: str, headers: dict[str, str | None] | None = None) -> sc.PublicDocument:
    with ctx.write() as s:
        d, g = _by_token(ctx, s, token)
        if d.status == "sent" and g.status == "sent":
            g.status = states.SIGNER.check(g.status, "view")
            g.viewed_at = ctx.now()
            audit(ctx, s, d, "viewed", actor=g.name, email=g.email, user_agent=_ua(headers))
            emit(ctx, "document.viewed", {"document_id": d.id, "signer_id": g.id})
        return _public(s, d, g)


@use_case(
    "sign.public.act",
    "POST /sign/{token}",
    tx="own",
    auth="public",
    limit="public_sign",
    headers=("user-agent",),
    summary="sign or decline",
)
def public_act(
    ctx: Ctx, token: str, body: sc.SignAction, headers: dict[str, str | None] | None = None
) -> sc.SignResult:
    with ctx.write() as s:
        d, g = _by_token(ctx, s, token)
        return _act(ctx, s, d, g, body, user_agent=_ua(headers), in_person=False)


@use_case(
    "sign.public.download",
    "GET /sign/{token}/download",
    tx="read",
    auth="public",
    limit="public_sign",
    summary="the PDF on the signer's link: original before completion, sealed after",
)
def public_download(ctx: Ctx, token: str) -> FileResult:
    with ctx.read() as s:
        d, _ = _by_token(ctx, s, token)
        return _file(ctx, d)


@use_case(
    "sign.public.audit",
    "GET /sign/{token}/audit",
    tx="read",
    auth="public",
    limit="public_sign",
    summary="the audit trail on the signer's link",
)
def public_audit(ctx: Ctx, token: str) -> sc.AuditList:
    with ctx.read() as s:
        d, _ = _by_token(ctx, s, token)
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


def _signature_png(data: str) -> bytes:
    raw = data.split(",", 1)[1] if data.startswith("data:") else data
    try:
        png = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValidationFailed("signature.image must be base64 PNG", {"field": "signature.image"}) from exc
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValidationFailed("signature.image must be a PNG", {"field": "signature.image"})
    return png


def _act(
    ctx: Ctx,
    s: Session,
    d: SignDocument,
    g: SignSigner,
    body: sc.SignAction,
    *,
    user_agent: str | None,
    in_person: bool,
) -> sc.SignResult:
    now = ctx.now()
    actor = "in_person" if in_person else None
    if d.status != "sent":
        raise conflict_state("document", d.status, body.action)
    if g.status in ("signed", "declined") or not _acting(g):
        raise conflict_state("signer", g.status if _acting(g) else g.role, body.action)
    signers = _signers(s, d.id)
    if d.signing_order == "sequential":
        first = min(x.order for x in signers if _acting(x) and x.status not in ("signed", "declined"))
        if g.order != first:
            raise Conflict("earlier signers have not signed yet", {"state": g.status, "order": g.order})
    if body.action == "decline":
        if not body.reason or not body.reason.strip():
            raise ValidationFailed("a reason is needed to decline", {"field": "reason"})
        g.status = states.SIGNER.check(g.status, "decline", actor)
        g.decline_reason, g.acted_at = body.reason.strip(), now
        d.status, d.updated_at = states.DOCUMENT.check(d.status, "decline"), now
        audit(ctx, s, d, "declined", actor=g.name, email=g.email, user_agent=user_agent)
        emit(ctx, "document.declined", {"document_id": d.id, "signer_id": g.id, "reason": g.decline_reason})
        return sc.SignResult(document_status="declined", signer_status="declined")
    # sign
    if not body.consent:
        raise ValidationFailed("consent to sign electronically is required", {"field": "consent"})
    mine = [f for f in _fields(s, d.id) if f.signer_id == g.id]
    known = {f.id for f in mine}
    stray = sorted(set(body.values) - known)
    if stray:
        raise ValidationFailed("values for fields that are not yours", {"fields": stray})
    sig = body.signature
    if g.role == "signer" and sig is None:
        raise ValidationFailed("a signature is required", {"field": "signature"})
    png: bytes | None = None
    if sig is not None:
        if sig.type == "drawn":
            if not sig.image:
                raise ValidationFailed("a drawn signature needs image (base64 PNG)", {"field": "signature.image"})
            png = _signature_png(sig.image)
        elif not (sig.text or "").strip():
            raise ValidationFailed("a typed signature needs text", {"field": "signature.text"})
    missing = []
    for f in mine:
        v = body.values.get(f.id)
        if f.type in ("signature", "initials"):
            f.value = (sig.text if sig and sig.type == "typed" else g.name) if sig else None
            continue
        if f.type == "name" and v is None:
            v = g.name
        if f.type == "email" and v is None:
            v = g.email
        if f.type == "date" and v is None:
            v = f"{now:%Y-%m-%d}"
        text = ("true" if v else "false") if isinstance(v, bool) else (v or "").strip()
        if len(text) > sc.MAX_VALUE:
            raise ValidationFailed(f"value over {sc.MAX_VALUE} characters", {"field": f.id})
        if f.required and (not text or (f.type == "checkbox" and text != "true")):
            missing.append(f.id)
        f.value = text
    if missing:
        raise ValidationFailed("required fields are missing", {"fields": missing})
    g.status = states.SIGNER.check(g.status, "sign", actor)
    g.acted_at = now
    if sig is not None:
        g.signature_type = sig.type
        g.signature_text = (sig.text or g.name)[:200] if sig.type == "typed" else None
        if png is not None:
            from services.core.storage import keep_blob

            g.signature_sha256, _ = keep_blob(ctx, png)
    audit(ctx, s, d, "signed", actor=g.name, email=g.email, user_agent=user_agent)
    d.updated_at = now
    if all(x.status == "signed" for x in signers if _acting(x)):
        d.status = states.DOCUMENT.check(d.status, "complete", "system")
        d.completed_at = now
        s.flush()
        seal_document(ctx, s, d, signers, _fields(s, d.id))
        emit(ctx, "document.signed", {"document_id": d.id, "title": d.title})
        for x in signers:
            if x.role == "cc" and x.email:
                send_after_commit(
                    ctx, Mail(to=x.email, subject=f"Completed: {d.title}", text=f'"{d.title}" is signed by all.')
                )
    else:
        _notify_next(ctx, d, signers)
    return sc.SignResult(document_status=d.status, signer_status=g.status)  # type: ignore[arg-type]


# --- expiry and reminders --------------------------------------------------------------


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
