"""Platform tables: tenants, users, memberships, API keys, counters, the outbox."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class Tenant(Base):
    __tablename__ = "tenants"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    slug: Mapped[str] = mapped_column(String(63), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    modules: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(20), default="active")  # active, suspended, expired
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Set on a tenant's sandbox (what pk_test_ keys act on): the live tenant's id. A sandbox is
    # reached only through a test key, never by its slug, and lists in no one's tenants.
    sandbox_of: Mapped[str | None] = mapped_column(String(36), default=None, index=True)


class User(Base):
    __tablename__ = "users"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(320), unique=True)  # stored lower-case
    name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(200))
    disabled: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Membership(TenantScoped, Base):
    __tablename__ = "memberships"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "user_id", name="uq_memberships_tenant_user"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    user_id: Mapped[str] = mapped_column(String(36), ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))  # owner, admin, operator, warehouse-device
    user_modules: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiKey(TenantScoped, Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    environment: Mapped[str] = mapped_column(String(4))  # live, test
    prefix: Mapped[str] = mapped_column(String(20))  # first characters, for people to recognise a key
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 hex of the whole key
    modules: Mapped[list[Any]] = mapped_column(default=list)
    created_by: Mapped[str | None] = mapped_column(String(36), ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)


class Counter(Base):
    """Named monotonic counters (outbox sequence, ticket and tracking numbers).

    ``scope`` is a tenant id or ``"station"``; values are never reused.
    """

    __tablename__ = "counters"

    scope: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[int] = mapped_column(Integer, default=0)


class OutboxEntry(TenantScoped, Base):
    """A station change, kept as the platform call that repeats it."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_status_seq", "status", "seq"),
        UniqueConstraint("tenant_id", "station_seq", name="uq_outbox_tenant_station_seq"),
        {"sqlite_autoincrement": True},
    )
    # No index of its own: uq_outbox_tenant_station_seq starts with it, and every station change
    # written kept both up to date (migration 0006_core_covered_tenant_idx).
    tenant_id: Mapped[str] = mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"))

    # The per-station order of changes: assigned by the database in the
    # change's transaction, never reused (AUTOINCREMENT), so no counter row.
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    id: Mapped[str] = mapped_column(String(36), unique=True, default=new_id)
    station_id: Mapped[str] = mapped_column(String(64))
    command: Mapped[str] = mapped_column(String(100))
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(Text)
    body: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    idempotency_key: Mapped[str] = mapped_column(String(64), unique=True)
    # pending: waiting to be sent; sent: applied (or already applied) on the
    # platform; conflict / rejected: refused there, shown as a sync issue until
    # a person decides; discarded: a person dropped it.
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    # The sync protocol: the order of this station's changes within the tenant
    # (the platform applies them in it and spots a gap or a repeat), who made
    # the change, the identifiers it made (the platform's replay takes the
    # same ones), and an HMAC with the station's key over all of it.
    station_seq: Mapped[int] = mapped_column(Integer, default=0)
    actor_id: Mapped[str | None] = mapped_column(String(64), default=None)
    ids: Mapped[list[Any]] = mapped_column(default=list)
    signature: Mapped[str | None] = mapped_column(String(80), default=None)
    # The platform's answer to a refused change (error code, message, current state).
    answer: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    # The id of the record the change made or changed here (its answer's ``id``): a platform
    # without the sync routes gives a created record its own id, mapped back from this.
    result_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # The file an upload carried: {sha256, filename, content_type}; the bytes stay in the
    # station's blob store and go to the platform before the entry.
    file: Mapped[dict[str, Any] | None] = mapped_column(default=None)


class IdempotencyRecord(TenantScoped, Base):
    """A command call already done under an ``Idempotency-Key``: its answer, kept to replay."""

    __tablename__ = "idempotency_records"
    __table_args__ = (UniqueConstraint("tenant_id", "key", name="uq_idempotency_records_tenant_key"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    key: Mapped[str] = mapped_column(String(200))
    command: Mapped[str] = mapped_column(String(100))
    request_hash: Mapped[str] = mapped_column(String(64))
    response: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class RevokedSession(Base):
    """A signed-out session token (by its ``jti``): refused until it would have expired anyway,
    then pruned. Not tenant-scoped: one sign-in spans the user's tenants."""

    __tablename__ = "revoked_sessions"

    jti: Mapped[str] = mapped_column(String(36), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)
