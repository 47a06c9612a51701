"""The audit log: who changed a tenant's access and settings, when, from where (services/core/audit.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class AuditEntry(TenantScoped, Base):
    __tablename__ = "audit_entries"
    # Listed newest first per tenant, and purged by age across tenants.
    __table_args__ = (Index("ix_audit_entries_tenant_at", "tenant_id", "at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor_id: Mapped[str] = mapped_column(String(64))
    actor_email: Mapped[str | None] = mapped_column(String(320), default=None)
    actor_kind: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(80))
    record_id: Mapped[str | None] = mapped_column(String(64), default=None)
    changes: Mapped[dict[str, Any]] = mapped_column(default=dict)
    ip: Mapped[str | None] = mapped_column(String(64), default=None)
