"""QR Codes tables: codes, templates, folders, barcodes, scans and the daily counters analytics read.

A scan is one small insert into ``qr_scans`` plus upserts of ``qr_daily`` counters, so a
summary reads a few counter rows per day instead of the scan table (DECISIONS: counts come
from stored counters). Orphan scans (unknown or inactive codes) carry ``code_id`` NULL.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Boolean, Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class QrFolder(TenantScoped, Base):
    __tablename__ = "qr_folders"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    parent_id: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QrTemplate(TenantScoped, Base):
    __tablename__ = "qr_templates"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    style: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QrCode(TenantScoped, Base):
    __tablename__ = "qr_codes"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    # The scan looks a code up by (tenant, short code): one unique index serves it.
    __table_args__ = (UniqueConstraint("tenant_id", "short_code", name="uq_qr_codes_tenant_short_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    type: Mapped[str] = mapped_column(String(10), default="url")
    content: Mapped[str] = mapped_column(Text, default="")
    dynamic: Mapped[bool] = mapped_column(Boolean, default=True)
    short_code: Mapped[str] = mapped_column(String(16))
    destination_url: Mapped[str | None] = mapped_column(Text, default=None)
    # Where a scan goes while the code does not serve (paused, expired, capped); None: a 410 page.
    fallback_url: Mapped[str | None] = mapped_column(Text, default=None)
    folder_id: Mapped[str | None] = mapped_column(String(36), default=None)
    template_id: Mapped[str | None] = mapped_column(String(36), default=None)
    style: Mapped[dict[str, Any]] = mapped_column(default=dict)
    valid_since: Mapped[datetime | None] = mapped_column(default=None)
    valid_until: Mapped[datetime | None] = mapped_column(default=None)
    max_scans: Mapped[int | None] = mapped_column(Integer, default=None)
    scan_alert_threshold: Mapped[int | None] = mapped_column(Integer, default=None)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # Non-bot scans and bot scans, kept on the code so the redirect checks the cap without counting.
    scans: Mapped[int] = mapped_column(Integer, default=0)
    bots: Mapped[int] = mapped_column(Integer, default=0)
    threshold_sent: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class QrBarcode(TenantScoped, Base):
    __tablename__ = "qr_barcodes"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    type: Mapped[str] = mapped_column(String(10))
    value: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QrScan(TenantScoped, Base):
    """Every scan, kept for realtime and export; never read by the summaries."""

    __tablename__ = "qr_scans"
    # Realtime and export walk one code's (or the tenant's) scans by time.
    __table_args__ = (
        Index("ix_qr_scans_tenant_code_at", "tenant_id", "code_id", "at"),
        Index("ix_qr_scans_tenant_at", "tenant_id", "at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code_id: Mapped[str | None] = mapped_column(String(36), default=None)
    short_code: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    device: Mapped[str] = mapped_column(String(20), default="other")
    browser: Mapped[str] = mapped_column(String(40), default="other")
    os: Mapped[str] = mapped_column(String(40), default="other")
    referrer: Mapped[str] = mapped_column(String(200), default="")
    ip_hash: Mapped[str] = mapped_column(String(32), default="")
    user_agent: Mapped[str] = mapped_column(String(300), default="")
    bot: Mapped[bool] = mapped_column(Boolean, default=False)


class QrDaily(TenantScoped, Base):
    """Stored counters: one row per (code, day, dimension, key); ``code_id`` '' for orphans."""

    __tablename__ = "qr_daily"
    # The primary key is the upsert's conflict target and the summary's range scan.
    tenant_id: Mapped[str] = mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    code_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    dim: Mapped[str] = mapped_column(String(10), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class QrVisitor(TenantScoped, Base):
    """Distinct anonymised visitors of a code per day (the insert that succeeds counts one unique)."""

    __tablename__ = "qr_visitors"
    tenant_id: Mapped[str] = mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    code_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    ip_hash: Mapped[str] = mapped_column(String(32), primary_key=True)
