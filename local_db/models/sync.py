"""Sync tables.

Platform side: registered stations, a receipt per applied station change
(answers a repeat exactly as the first time), and the change log that the
stations' pull reads (one row per changed record, with the tenant's update
sequence number, Anki's "usn").

Station side: one link per tenant to the platform (cursor, sealed secret).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class SyncStation(TenantScoped, Base):
    """A station registered by an owner or admin; its secret signs what it sends."""

    __tablename__ = "sync_stations"
    __table_args__ = (UniqueConstraint("tenant_id", "station_id", name="uq_sync_stations_tenant_station"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    station_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    # Sealed with the server's secret key: the platform must recompute HMACs.
    secret_sealed: Mapped[str] = mapped_column(Text)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    # The last station sequence number consumed (applied, refused or void).
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    last_seen_at: Mapped[datetime | None] = mapped_column(default=None)


class SyncReceipt(TenantScoped, Base):
    """What the platform answered to one station change (kept to answer a repeat the same way)."""

    __tablename__ = "sync_receipts"

    station_pk: Mapped[str] = mapped_column(
        String(36), ForeignKey("sync_stations.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # applied, conflict, rejected, void
    answer: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SyncChange(Base):
    """The newest change of one record, for the pull (upserted: one row per record)."""

    __tablename__ = "sync_changes"
    __table_args__ = (Index("ix_sync_changes_tenant_usn", "tenant_id", "usn", "table_name", "row_id"),)

    tenant_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    table_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    row_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    usn: Mapped[int] = mapped_column(Integer)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)


class SyncLink(TenantScoped, Base):
    """A station's link to the platform for one tenant."""

    __tablename__ = "sync_links"
    __table_args__ = (UniqueConstraint("tenant_id", name="uq_sync_links_tenant"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    station_id: Mapped[str] = mapped_column(String(64))
    platform_url: Mapped[str] = mapped_column(String(500))
    # Sealed with the station's own key: never in clear in the database.
    secret_sealed: Mapped[str] = mapped_column(Text)
    cursor: Mapped[str] = mapped_column(String(200), default="")
    registered_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_sync_at: Mapped[datetime | None] = mapped_column(default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)


class SyncSuspendedTrigger(Base):
    """A station's search-index trigger set aside while a full pull writes many records (its SQL
    kept to put it back: the index is rebuilt in one pass at the end, or at the next start after
    a crash)."""

    __tablename__ = "sync_suspended_triggers"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    index_table: Mapped[str] = mapped_column(String(128))
    sql: Mapped[str] = mapped_column(Text)
