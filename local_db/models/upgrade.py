"""Upgrade (trade-in) tables: customers, valuations, submissions, offers, photos, shipments, inspections.

Money is kept in integer cents: exact on every backend (SQLite has no decimal type).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, LargeBinary, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class UpgradeCustomer(TenantScoped, Base):
    __tablename__ = "upgrade_customers"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "email", name="uq_upgrade_customers_tenant_email"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(320))  # stored lower-case
    name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(40), default=None)
    address: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Bumped on logout: every token issued before it stops working.
    token_version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class UpgradeValuation(TenantScoped, Base):
    __tablename__ = "upgrade_valuations"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "product_id", name="uq_upgrade_valuations_tenant_product"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product_id: Mapped[str] = mapped_column(String(100))
    product_name: Mapped[str] = mapped_column(String(200))
    base_cents: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    # The tenant marks its phones: their trade-ins need an IMEI before they are submitted.
    is_phone: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class UpgradeSubmission(TenantScoped, Base):
    __tablename__ = "upgrade_submissions"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_upgrade_submissions_tenant_status_created", "tenant_id", "status", "created_at"),
        Index("ix_upgrade_submissions_tenant_serial", "tenant_id", "serial_number"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    customer_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("upgrade_customers.id", ondelete="CASCADE"), index=True
    )
    product_id: Mapped[str] = mapped_column(String(100))
    serial_number: Mapped[str] = mapped_column(String(100))
    imei: Mapped[str | None] = mapped_column(String(15), default=None)  # 15 digits, Luhn-checked
    condition: Mapped[str] = mapped_column(String(20))  # declared by the customer
    description: Mapped[str] = mapped_column(Text, default="")
    photos: Mapped[list[Any]] = mapped_column(default=list)  # customer photo ids, in order
    status: Mapped[str] = mapped_column(String(20), default="draft")
    graded_condition: Mapped[str | None] = mapped_column(String(20), default=None)
    credit_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    currency: Mapped[str | None] = mapped_column(String(3), default=None)
    decline_reason: Mapped[str | None] = mapped_column(Text, default=None)
    received_at: Mapped[datetime | None] = mapped_column(default=None)
    submitted_at: Mapped[datetime | None] = mapped_column(default=None)
    # When the customer accepted an offer (the initial one, or a revised one after grading): what
    # "trade-ins accepted" counts, by the same rows Records lists.
    accepted_at: Mapped[datetime | None] = mapped_column(default=None)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class UpgradeOffer(TenantScoped, Base):
    __tablename__ = "upgrade_offers"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    submission_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("upgrade_submissions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(10), default="initial")  # initial, revised
    amount_cents: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3))
    notes: Mapped[str] = mapped_column(Text, default="")
    reasons: Mapped[list[Any]] = mapped_column(default=list)
    photos: Mapped[list[Any]] = mapped_column(default=list)
    expires_at: Mapped[datetime] = mapped_column()
    status: Mapped[str] = mapped_column(String(12), default="pending")  # pending, accepted, declined, superseded
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    decided_by: Mapped[str | None] = mapped_column(String(100), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(default=None)


class UpgradePhoto(TenantScoped, Base):
    __tablename__ = "upgrade_photos"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    customer_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)  # uploaded by a customer
    uploaded_by: Mapped[str | None] = mapped_column(String(36), default=None)  # uploaded by staff
    submission_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(50))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    # Small JPEG kept in the row: the bench opens a submission with its
    # thumbnails in one read, and a station copy needs no blob files for them.
    thumbnail: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class UpgradeShipment(TenantScoped, Base):
    __tablename__ = "upgrade_shipments"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "barcode", name="uq_upgrade_shipments_tenant_barcode"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    submission_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("upgrade_submissions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(10))  # kit, return
    barcode: Mapped[str] = mapped_column(String(40))
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class UpgradeInspection(TenantScoped, Base):
    __tablename__ = "upgrade_inspections"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    submission_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("upgrade_submissions.id", ondelete="CASCADE"), unique=True
    )
    status: Mapped[str] = mapped_column(String(12), default="in_progress")  # in_progress, completed
    inspector_id: Mapped[str | None] = mapped_column(String(36), default=None)
    inspector_name: Mapped[str | None] = mapped_column(String(200), default=None)
    checklist: Mapped[dict[str, Any]] = mapped_column(default=dict)
    suggested_condition: Mapped[str | None] = mapped_column(String(20), default=None)
    graded_condition: Mapped[str | None] = mapped_column(String(20), default=None)
    graded_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    reasons: Mapped[list[Any]] = mapped_column(default=list)
    notes: Mapped[str] = mapped_column(Text, default="")
    photos: Mapped[list[Any]] = mapped_column(default=list)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)


class UpgradeCreditEntry(TenantScoped, Base):
    """One line of a customer's credit ledger: a trade-in's credit (+) or a payout (-).

    The balance is the sum of the lines; a trade-in credits once (its entry's id is derived from
    the submission) and a payout never takes the balance below zero.
    """

    __tablename__ = "upgrade_credit_entries"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_upgrade_credit_entries_tenant_customer", "tenant_id", "customer_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    customer_id: Mapped[str] = mapped_column(String(36), ForeignKey("upgrade_customers.id", ondelete="CASCADE"))
    submission_id: Mapped[str | None] = mapped_column(String(36), default=None)
    kind: Mapped[str] = mapped_column(String(12))  # credit | payout
    method: Mapped[str | None] = mapped_column(String(20), default=None)  # store_credit | bank | paypal
    amount_cents: Mapped[int] = mapped_column(Integer)  # signed: credits positive, payouts negative
    currency: Mapped[str] = mapped_column(String(3))
    reference: Mapped[str | None] = mapped_column(String(200), default=None)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
