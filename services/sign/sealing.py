"""The tenant's sealing certificate and the sealing of a completed document.

The first completed document of a tenant without a certificate makes a self-signed one (RSA-3072,
ten years); an owner may install their own (``PUT /certificate``). The private key is stored sealed
with ``services.core.sealing`` (Fernet under a key derived from ``PLATFORM_SECRET_KEY``), never in
clear, and its table is not synced to stations.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.sign import SignAudit, SignCertificate, SignDocument, SignField, SignSettings, SignSigner
from services.core import sealing
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.roles import OWNER, STAFF
from services.core.storage import keep_blob, read_blob
from services.sign import pdf
from services.sign import schemas as sc


def load_settings(s: Session) -> sc.SignSettingsData:
    row = s.execute(select(SignSettings)).scalar_one_or_none()
    return sc.SignSettingsData.model_validate(row.data) if row is not None else sc.SignSettingsData()


def _active(s: Session) -> SignCertificate | None:
    return (
        s.execute(
            select(SignCertificate).where(SignCertificate.active.is_(True)).order_by(SignCertificate.created_at.desc())
        )
        .scalars()
        .first()
    )


def key_pair(ctx: Ctx, s: Session) -> tuple[pdf.KeyPair, SignCertificate]:
    """The active certificate, made (self-signed) on first use."""
    row = _active(s)
    if row is None:
        name = ctx.tenant.name if ctx.tenant else "Platform"
        made = pdf.self_signed(f"{name} document seal", ctx.now())
        row = SignCertificate(
            cert_pem=made.cert_pem.decode(),
            key_sealed=sealing.seal(ctx.runtime.secret_key, made.key_pem.decode()),
            self_signed=True,
            active=True,
            created_at=ctx.now(),
        )
        s.add(row)
        s.flush()
    clear = sealing.unseal(ctx.runtime.secret_key, row.key_sealed).encode()
    return pdf.KeyPair(row.cert_pem.encode(), clear, row.chain_pem.encode()), row


def seal_document(ctx: Ctx, s: Session, d: SignDocument, signers: list[SignSigner], fields: list[SignField]) -> None:
    """Stamp values, append the audit page, seal; the sealed PDF is kept as a blob by its hash."""
    original = read_blob(ctx, d.sha256)
    by_id = {g.id: g for g in signers}
    stamps: list[pdf.Stamp] = []
    for f in fields:
        g = by_id.get(f.signer_id or "")
        if g is None:
            continue
        image = None
        if f.type in ("signature", "initials") and g.signature_type == "drawn" and g.signature_sha256:
            image = read_blob(ctx, g.signature_sha256)
        text = f.value or ""
        if f.type == "initials" and g.signature_type != "drawn":
            text = "".join(w[0] for w in (g.signature_text or g.name).split() if w).upper()
        stamps.append(pdf.Stamp(f.page, f.x, f.y, f.width, f.height, f.type, text, image))
    s.flush()
    trail = s.execute(select(SignAudit).where(SignAudit.document_id == d.id).order_by(SignAudit.at, SignAudit.id))
    pair, row = key_pair(ctx, s)
    subject = pdf.info(pair.cert_pem).subject
    cert = pdf.Certificate(
        title=d.title,
        document_id=d.id,
        original_sha256=d.sha256,
        signers=[(g.name, g.email, g.role, g.status) for g in signers],
        trail=[pdf.AuditLine(a.at, a.action, a.actor, a.email, a.ip, a.document_sha256) for a in trail.scalars()],
    )
    stamped = pdf.stamp_and_append(original, stamps, cert, subject)
    sealed = pdf.seal(
        stamped, pair, reason=f"All parties signed: {d.title}", location=ctx.tenant.name if ctx.tenant else ""
    )
    digest, _ = keep_blob(ctx, sealed)
    d.signed_sha256 = digest
    s.add(
        SignAudit(
            document_id=d.id,
            at=ctx.now(),
            action="completed",
            actor="platform seal" + (" (self-signed)" if row.self_signed else ""),
            email=None,
            ip=None,
            user_agent=None,
            document_sha256=digest,
        )
    )


def _cert_out(row: SignCertificate) -> sc.CertificateOut:
    i = pdf.info(row.cert_pem.encode())
    return sc.CertificateOut(
        subject=i.subject,
        issuer=i.issuer,
        fingerprint_sha256=i.fingerprint_sha256,
        not_before=i.not_before,
        not_after=i.not_after,
        self_signed=row.self_signed,
    )


@use_case("sign.certificate.get", "GET /certificate", tx="read", roles=STAFF, summary="the sealing certificate")
def get_certificate(ctx: Ctx) -> sc.CertificateOut:
    with ctx.read() as s:
        row = _active(s)
        if row is None:
            raise NotFound("no sealing certificate yet: one is made (self-signed) when a document first completes")
        return _cert_out(row)


@use_case(
    "sign.certificate.install",
    "PUT /certificate",
    tx="write",
    roles=OWNER,
    online=True,
    says="Sealing certificate installed",
    summary="install the tenant's own sealing certificate (PEM certificate + private key)",
)
def install_certificate(ctx: Ctx, body: sc.CertificateIn) -> sc.CertificateOut:
    try:
        _, clear = pdf.check_pair(
            body.certificate_pem.encode(),
            body.private_key_pem.encode(),
            body.password.encode() if body.password else None,
        )
        if body.chain_pem.strip():
            from cryptography import x509

            x509.load_pem_x509_certificates(body.chain_pem.encode())
    except (ValueError, TypeError) as exc:
        raise ValidationFailed(f"certificate or key not accepted: {exc}", {"field": "certificate_pem"}) from exc
    with ctx.write() as s:
        for old in s.execute(select(SignCertificate).where(SignCertificate.active.is_(True))).scalars():
            old.active = False
        row = SignCertificate(
            cert_pem=body.certificate_pem,
            chain_pem=body.chain_pem,
            key_sealed=sealing.seal(ctx.runtime.secret_key, clear.decode()),
            self_signed=False,
            active=True,
            created_at=ctx.now(),
        )
        s.add(row)
        s.flush()
        return _cert_out(row)
