"""Tax tables: transactions synced from the shop (with every revision kept), filings per state and
period, and exemption certificates (every tenant row has the TenantScoped mixin).

Money is kept in integer cents: exact on every backend (SQLite has no decimal type), and a sum of
cents is a sum of cents whatever the row count.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Boolean, Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class TaxTransaction(TenantScoped, Base):
    """An order or a refund as it counts now (its latest revision); older revisions are in
    ``tax_transaction_revisions``."""

    __tablename__ = "tax_transactions"
    # Not cached by stations: the shop's sync writes thousands of rows in bulk (Core inserts, which the
    # change log does not see), and liability is asked of the platform.
    __table_args__ = (
        # One row per shop record: a re-run of the sync finds it instead of adding a second.
        UniqueConstraint("tenant_id", "kind", "external_id", name="uq_tax_transactions_tenant_kind_external"),
        # Covers liability and nexus: their sums read the index alone, never the table (4x at 100k rows).
        Index(
            "ix_tax_transactions_liability",
            "tenant_id",
            "date",
            "state",
            "kind",
            "exempt",
            "amount_cents",
            "tax_cents",
        ),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    kind: Mapped[str] = mapped_column(String(10))  # order | refund
    external_id: Mapped[str] = mapped_column(String(100))
    # A refund's order: our transaction id when the order synced, else None (a standalone refund).
    order_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    order_external_id: Mapped[str | None] = mapped_column(String(100), default=None)
    date: Mapped[date] = mapped_column(Date)
    state: Mapped[str] = mapped_column(String(2))
    amount_cents: Mapped[int] = mapped_column(Integer, default=0)
    shipping_cents: Mapped[int] = mapped_column(Integer, default=0)
    tax_cents: Mapped[int] = mapped_column(Integer, default=0)
    exempt: Mapped[bool] = mapped_column(Boolean, default=False)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    # Set when its period's filing is filed: a change is refused from then on.
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(String(10), default="sync")  # sync | manual
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaxTransactionRevision(TenantScoped, Base):
    """Every revision of a transaction as it was written (the current one included)."""

    __tablename__ = "tax_transaction_revisions"
    __table_args__ = (
        UniqueConstraint("tenant_id", "transaction_id", "revision", name="uq_tax_transaction_revisions_rev"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    transaction_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("tax_transactions.id", ondelete="CASCADE"), index=True
    )
    revision: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    reason: Mapped[str] = mapped_column(Text, default="")
    actor: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaxFiling(TenantScoped, Base):
    """One return: a state and a period, with the liability it reports."""

    __tablename__ = "tax_filings"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "state", "period_start", name="uq_tax_filings_tenant_state_period"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    state: Mapped[str] = mapped_column(String(2))
    period_start: Mapped[date] = mapped_column(Date)
    period_end: Mapped[date] = mapped_column(Date)
    frequency: Mapped[str] = mapped_column(String(10), default="monthly")
    status: Mapped[str] = mapped_column(String(10), default="upcoming")
    # The liability when it was approved (what is filed); the live figure is recomputed.
    liability_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    approved_at: Mapped[datetime | None] = mapped_column(default=None)
    filed_at: Mapped[datetime | None] = mapped_column(default=None)
    decided_at: Mapped[datetime | None] = mapped_column(default=None)
    note: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaxCertificate(TenantScoped, Base):
    """A customer's exemption certificate (DOMAIN §3: number, reason, zone, dates, percentage)."""

    __tablename__ = "tax_certificates"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    customer_name: Mapped[str] = mapped_column(String(200))
    customer_email: Mapped[str | None] = mapped_column(String(320), default=None)
    # The shop's customer id: a tax calculation for that customer applies the certificate.
    customer_id: Mapped[str | None] = mapped_column(String(100), default=None, index=True)
    state: Mapped[str] = mapped_column(String(2))  # the exposure zone
    exemption_number: Mapped[str] = mapped_column(String(100))
    reason: Mapped[str] = mapped_column(String(20), default="resale")
    exempt_percentage: Mapped[int] = mapped_column(Integer, default=100)
    signed_date: Mapped[date | None] = mapped_column(Date, default=None)
    expiration_date: Mapped[date | None] = mapped_column(Date, default=None, index=True)
    status: Mapped[str] = mapped_column(String(10), default="active")
    file_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    file_type: Mapped[str | None] = mapped_column(String(100), default=None)
    # When certificate.expiring was emitted: once per certificate.
    expiring_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaxRateTable(TenantScoped, Base):
    """One imported ZIP-code rate table of a state, with the days it is in force.

    A state's tables follow each other without a gap or an overlap: the importer checks it.
    """

    __tablename__ = "tax_rate_tables"
    # Not cached by stations: tens of thousands of rows written in bulk; the calculation is asked of
    # the platform (the shop's checkout calls it there).
    __table_args__ = (UniqueConstraint("tenant_id", "state", "effective_from", name="uq_tax_rate_tables_from"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    state: Mapped[str] = mapped_column(String(2))
    effective_from: Mapped[date] = mapped_column(Date)
    effective_to: Mapped[date | None] = mapped_column(Date, default=None)  # None: until the next table
    filename: Mapped[str] = mapped_column(String(255), default="")
    rows: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaxRate(TenantScoped, Base):
    """One ZIP code's rates in a table, in millionths (a published rate has at most six decimals),
    so a sum of rates is exact on every backend."""

    __tablename__ = "tax_rates"
    __table_args__ = (
        UniqueConstraint("tenant_id", "table_id", "zip", name="uq_tax_rates_table_zip"),
        # The calculation's one lookup: a ZIP code's rows across the state's tables.
        Index("ix_tax_rates_zip", "tenant_id", "zip"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    table_id: Mapped[str] = mapped_column(String(36), ForeignKey("tax_rate_tables.id", ondelete="CASCADE"), index=True)
    zip: Mapped[str] = mapped_column(String(5))
    region: Mapped[str] = mapped_column(String(100), default="")
    state_rate: Mapped[int] = mapped_column(Integer, default=0)
    county_rate: Mapped[int] = mapped_column(Integer, default=0)
    city_rate: Mapped[int] = mapped_column(Integer, default=0)
    special_rate: Mapped[int] = mapped_column(Integer, default=0)
