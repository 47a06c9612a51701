"""Sign tables: documents, their signers and fields, templates, the audit trail, tenant settings and
the tenant's sealing certificate.

Signing tokens are kept as their SHA-256 only (``token_hash``); the certificate's private key is
sealed (``services.core.sealing``) and its table is never synced to stations.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class SignDocument(TenantScoped, Base):
    __tablename__ = "sign_documents"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    title: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default="draft", index=True)
    signing_order: Mapped[str] = mapped_column(String(20), default="parallel")
    message: Mapped[str] = mapped_column(Text, default="")
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    pages: Mapped[int] = mapped_column(Integer, default=1)
    # The original PDF (blob by its hash) and, once completed, the sealed one.
    sha256: Mapped[str] = mapped_column(String(64), default="")
    signed_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    template_id: Mapped[str | None] = mapped_column(String(36), default=None)
    void_reason: Mapped[str | None] = mapped_column(Text, default=None)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignSigner(TenantScoped, Base):
    __tablename__ = "sign_signers"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_sign_signers_token_hash", "token_hash", unique=True),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    document_id: Mapped[str] = mapped_column(String(36), index=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(320), default="")
    role: Mapped[str] = mapped_column(String(20), default="signer")
    order: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    # In person: signs at a station, never e-mailed, no token.
    in_person: Mapped[bool] = mapped_column(Boolean, default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    signature_type: Mapped[str | None] = mapped_column(String(10), default=None)
    signature_text: Mapped[str | None] = mapped_column(String(200), default=None)
    signature_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    decline_reason: Mapped[str | None] = mapped_column(Text, default=None)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    viewed_at: Mapped[datetime | None] = mapped_column(default=None)
    acted_at: Mapped[datetime | None] = mapped_column(default=None)
    reminded_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignField(TenantScoped, Base):
    __tablename__ = "sign_fields"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    document_id: Mapped[str] = mapped_column(String(36), index=True)
    # None while a template's field waits for its signer (``slot``: the n-th signer added).
    signer_id: Mapped[str | None] = mapped_column(String(36), default=None)
    slot: Mapped[int | None] = mapped_column(Integer, default=None)
    type: Mapped[str] = mapped_column(String(20))
    page: Mapped[int] = mapped_column(Integer, default=1)
    x: Mapped[float] = mapped_column(Float, default=0.0)
    y: Mapped[float] = mapped_column(Float, default=0.0)
    width: Mapped[float] = mapped_column(Float, default=0.2)
    height: Mapped[float] = mapped_column(Float, default=0.05)
    required: Mapped[bool] = mapped_column(Boolean, default=True)
    value: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignTemplate(TenantScoped, Base):
    __tablename__ = "sign_templates"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    sha256: Mapped[str] = mapped_column(String(64), default="")
    pages: Mapped[int] = mapped_column(Integer, default=1)
    fields: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignAudit(TenantScoped, Base):
    __tablename__ = "sign_audit"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    document_id: Mapped[str] = mapped_column(String(36), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    actor: Mapped[str] = mapped_column(String(200), default="")
    email: Mapped[str | None] = mapped_column(String(320), default=None)
    ip: Mapped[str | None] = mapped_column(String(64), default=None)
    user_agent: Mapped[str | None] = mapped_column(String(300), default=None)
    document_sha256: Mapped[str] = mapped_column(String(64), default="")


class SignSettings(TenantScoped, Base):
    """One row per tenant: expiry and reminders (absent: the defaults)."""

    __tablename__ = "sign_settings"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignCertificate(TenantScoped, Base):
    """The certificate that seals completed PDFs; the key sealed, never in clear, never synced."""

    __tablename__ = "sign_certificates"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    cert_pem: Mapped[str] = mapped_column(Text)
    chain_pem: Mapped[str] = mapped_column(Text, default="")
    key_sealed: Mapped[str] = mapped_column(Text)
    self_signed: Mapped[bool] = mapped_column(Boolean, default=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
