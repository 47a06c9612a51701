"""Tax: certificates."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.tax import TaxCertificate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.tax.lookups import _cert_out, _expiry_check
from services.tax.schemas import (
    CertificateIn,
    CertificateOut,
    CertificateQuery,
    ExpiryCheckOut,
)

record_kind("tax.certificate", get="tax.certificates.get", label="exemption_number")


def _find_cert(s: Session, id: str) -> TaxCertificate:
    c = s.get(TaxCertificate, id)
    if c is None:
        raise NotFound(f"no certificate {id}", {"id": id})
    return c


@use_case(
    "tax.certificates.list",
    "GET /certificates",
    tx="read",
    roles=STAFF,
    record="tax.certificate",
    summary="exemption certificates (filter by status and state)",
)
def list_certificates(ctx: Ctx, query: CertificateQuery) -> Page[CertificateOut]:
    stmt = select(TaxCertificate)
    if query.state:
        stmt = stmt.where(TaxCertificate.state == query.state.upper())
    if query.search:
        stmt = stmt.where(
            contains(TaxCertificate.customer_name, query.search)
            | contains(TaxCertificate.exemption_number, query.search)
        )
    today = ctx.now().date()
    if query.status == "expired":
        stmt = stmt.where(
            (TaxCertificate.status == "expired")
            | ((TaxCertificate.status == "active") & (TaxCertificate.expiration_date < today))
        )
    elif query.status == "active":
        stmt = stmt.where(
            TaxCertificate.status == "active",
            TaxCertificate.expiration_date.is_(None) | (TaxCertificate.expiration_date >= today),
        )
    elif query.status:
        stmt = stmt.where(TaxCertificate.status == query.status)
    else:  # a deleted (revoked) certificate leaves the default list; ?status=revoked shows it
        stmt = stmt.where(TaxCertificate.status != "revoked")
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": TaxCertificate.created_at,
                "expiration_date": TaxCertificate.expiration_date,
                "customer_name": TaxCertificate.customer_name,
            },
        )
        return Page([_cert_out(c, today) for c in page.items], page.total, page.spec)


@use_case(
    "tax.certificates.get",
    "GET /certificates/{id}",
    tx="read",
    roles=STAFF,
    record="tax.certificate",
    summary="one exemption certificate",
)
def get_certificate(ctx: Ctx, id: str) -> CertificateOut:
    with ctx.read() as s:
        return _cert_out(_find_cert(s, id), ctx.now().date())


@use_case(
    "tax.certificates.create",
    "POST /certificates",
    tx="write",
    roles=STAFF,
    status=201,
    says="New exemption certificate {exemption_number}",
    record="tax.certificate",
    summary="record a customer's exemption certificate (certificate.uploaded)",
)
def create_certificate(ctx: Ctx, body: CertificateIn) -> CertificateOut:
    today = ctx.now().date()
    if body.expiration_date is not None and body.expiration_date < today:
        raise ValidationFailed(
            "the certificate has already expired",
            {"fields": [{"field": "expiration_date", "message": "in the past", "type": "date"}]},
        )
    with ctx.write() as s:
        c = TaxCertificate(
            id=new_id(),
            customer_name=body.customer_name,
            customer_email=body.customer_email,
            customer_id=body.customer_id,
            state=body.state,
            exemption_number=body.exemption_number,
            reason=body.reason,
            exempt_percentage=body.exempt_percentage,
            signed_date=body.signed_date,
            expiration_date=body.expiration_date,
            status="active",
            created_at=ctx.now(),
        )
        s.add(c)
        s.flush()
        emit(
            ctx,
            "certificate.uploaded",
            {
                "certificate_id": c.id,
                "customer_name": c.customer_name,
                "state": c.state,
                "exemption_number": c.exemption_number,
                "expiration_date": c.expiration_date.isoformat() if c.expiration_date else None,
            },
        )
        _expiry_check(ctx, s)
        return _cert_out(c, today)


@use_case(
    "tax.certificates.delete",
    "DELETE /certificates/{id}",
    tx="write",
    roles=MANAGERS,
    says="Exemption certificate revoked",
    record="tax.certificate",
    summary="revoke an exemption certificate (kept for the audit, no longer valid)",
)
def revoke_certificate(ctx: Ctx, id: str) -> CertificateOut:
    with ctx.write() as s:
        c = _find_cert(s, id)
        if c.status == "revoked":
            raise Conflict("the certificate is already revoked", {"current_state": "revoked", "action": "revoke"})
        c.status = "revoked"
        s.flush()
        return _cert_out(c, ctx.now().date())


@use_case(
    "tax.certificates.check_expiry",
    "POST /certificates/check-expiry",
    tx="write",
    roles=STAFF,
    says="Check certificate expiry",
    summary="emit certificate.expiring for certificates within 30 days of expiry (also run by every sync)",
)
def check_expiry(ctx: Ctx) -> ExpiryCheckOut:
    with ctx.write() as s:
        expiring, expired = _expiry_check(ctx, s)
    return ExpiryCheckOut(expiring=expiring, expired=expired)
