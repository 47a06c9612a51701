"""Sign: lookups."""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.sign import SignAudit, SignDocument, SignField, SignSigner
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.files import FileResult
from services.core.links import public_url
from services.core.mail import Mail, send_after_commit
from services.core.signing import token_hash
from services.core.storage import read_blob
from services.sign import pdf, states
from services.sign import schemas as sc
from services.sign.sealing import seal_document

PDF_TYPES = frozenset({"application/pdf"})


MAX_FIELDS = 500


TOKEN_BYTES = 32  # 256 bits, URL-safe base64: 43 characters


@dataclass(frozen=True)
class SignConfig:
    """Where signing links point: ``PLATFORM_PUBLIC_URL`` (DECISIONS: links start with it)."""

    # None: services.core.links.public_url (PLATFORM_PUBLIC_URL, else the server's own address).
    public_url: str | None = None


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


def link(ctx: Ctx, token: str) -> str:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return f"{ctx.runtime.part(SignConfig).public_url or public_url(ctx.runtime)}/{slug}/sign/p/{token}"  # the signing page


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


def _file(ctx: Ctx, d: SignDocument) -> FileResult:
    sha = d.signed_sha256 or d.sha256
    name = "".join(c if c.isalnum() or c in "-_ " else "_" for c in d.title)[:80].strip() or "document"
    suffix = "-signed" if d.signed_sha256 else ""
    return FileResult(read_blob(ctx, sha), "application/pdf", f"{name}{suffix}.pdf", inline=False)


def _trail(s: Session, doc_id: str) -> list[sc.AuditOut]:
    rows = s.execute(select(SignAudit).where(SignAudit.document_id == doc_id).order_by(SignAudit.at, SignAudit.id))
    return [sc.AuditOut.model_validate(a) for a in rows.scalars()]


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
