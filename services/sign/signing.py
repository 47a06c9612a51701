"""Sign: signing."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.sign import SignDocument, SignSigner
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.files import FileResult
from services.core.signing import token_hash
from services.sign import schemas as sc
from services.sign import states
from services.sign.lookups import _act, _fields, _file, _trail, _utc, audit

MODULE = "sign"


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
    with ctx.read() as s:
        d, g = _by_token(ctx, s, token)
        if not (d.status == "sent" and g.status == "sent"):
            # Opened before: a read. Only the first open writes (a write takes SQLite's lock, so
            # every view of a link as a write made its visitors queue behind each other).
            return _public(s, d, g)
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
