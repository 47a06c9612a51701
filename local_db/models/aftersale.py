"""Aftersale tables: customer accounts, warranty registrations, proof-of-purchase files, claims.

A serial number has at most one active registration: ``active_serial`` holds the normalised
serial while the registration is active (NULL otherwise) under a unique constraint, so the
duplicate check is one index probe and two racing registrations cannot both win.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class AftersaleCustomer(TenantScoped, Base):
    __tablename__ = "aftersale_customers"
    __synced__ = True
    __table_args__ = (UniqueConstraint("tenant_id", "email", name="uq_aftersale_customers_tenant_email"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(320))
    name: Mapped[str] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(40), default=None)
    password_hash: Mapped[str] = mapped_column(String(200))
    token_version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AftersaleFile(TenantScoped, Base):
    __tablename__ = "aftersale_files"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AftersaleWarranty(TenantScoped, Base):
    __tablename__ = "aftersale_warranties"
    __synced__ = True
    __table_args__ = (
        UniqueConstraint("tenant_id", "active_serial", name="uq_aftersale_warranties_active_serial"),
        Index("ix_aftersale_warranties_tenant_email", "tenant_id", "email"),
        Index("ix_aftersale_warranties_tenant_created", "tenant_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    serial_number: Mapped[str] = mapped_column(String(100))
    active_serial: Mapped[str | None] = mapped_column(String(100), default=None)
    product_sku: Mapped[str] = mapped_column(String(100))
    product_name: Mapped[str | None] = mapped_column(String(200), default=None)
    warranty_months: Mapped[int] = mapped_column(Integer, default=12)
    purchase_date: Mapped[date] = mapped_column(Date)
    coverage_until: Mapped[date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20), default="active")  # active|expired|voided|disputed
    email: Mapped[str] = mapped_column(String(320))
    name: Mapped[str] = mapped_column(String(200))
    retailer: Mapped[str | None] = mapped_column(String(200), default=None)
    proof_file_id: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # A second claimant's registration (status disputed) names the one holding the serial.
    disputes_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # Why staff voided it (a void is kept, not deleted: claims and disputes point at it).
    void_reason: Mapped[str | None] = mapped_column(Text, default=None)


class AftersaleClaim(TenantScoped, Base):
    __tablename__ = "aftersale_claims"
    __synced__ = True
    __table_args__ = (Index("ix_aftersale_claims_tenant_status_created", "tenant_id", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    warranty_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("aftersale_warranties.id", ondelete="CASCADE"), index=True
    )
    customer_id: Mapped[str | None] = mapped_column(String(36), default=None)
    email: Mapped[str] = mapped_column(String(320))
    description: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="open")  # open | in_progress | closed | cancelled
    resolution: Mapped[str | None] = mapped_column(Text, default=None)
    handled_by: Mapped[str | None] = mapped_column(String(36), default=None)
    photos: Mapped[list[Any]] = mapped_column(default=list)  # file ids (POST photos), in order
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AftersaleRepair(TenantScoped, Base):
    """A claim's repair order: received -> diagnosed -> repaired | replaced -> returned (or cancelled).

    ``parts`` records what was taken from stock for it, with the inventory movement of each
    (``[{"sku", "quantity", "location_id", "movement_id"}]``): the movement is Inventory's, made
    through its use case; this is the repair's own account of it.
    """

    __tablename__ = "aftersale_repairs"
    __synced__ = True
    __table_args__ = (
        UniqueConstraint("tenant_id", "number", name="uq_aftersale_repairs_tenant_number"),
        Index("ix_aftersale_repairs_tenant_status_created", "tenant_id", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    number: Mapped[str] = mapped_column(String(40))
    claim_id: Mapped[str] = mapped_column(String(36), ForeignKey("aftersale_claims.id", ondelete="CASCADE"), index=True)
    warranty_id: Mapped[str] = mapped_column(String(36))
    serial_number: Mapped[str] = mapped_column(String(100))
    product_sku: Mapped[str] = mapped_column(String(100))
    # received | diagnosed | repaired | replaced | returned | cancelled
    status: Mapped[str] = mapped_column(String(20), default="received")
    diagnosis: Mapped[str | None] = mapped_column(Text, default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    replacement_serial: Mapped[str | None] = mapped_column(String(100), default=None)
    parts: Mapped[list[Any]] = mapped_column(default=list)
    handled_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    diagnosed_at: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)  # repaired or replaced
    returned_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)
