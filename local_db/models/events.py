"""Event history (the transactional event log) and webhook delivery: subscriptions,
deliveries (one per event and subscription) and every attempt of a delivery."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class Event(TenantScoped, Base):
    __tablename__ = "events"
    __table_args__ = (Index("ix_events_tenant_type_created", "tenant_id", "type", "created_at"),)
    # No index of its own: the composite above starts with it, and every event written kept both
    # up to date (migration 0006_core_covered_tenant_idx).
    tenant_id: Mapped[str] = mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"))

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    type: Mapped[str] = mapped_column(String(100))
    source: Mapped[str] = mapped_column(String(50))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # Where the event was born: "platform" or a station id. A station signs
    # its events (sha256= HMAC with its key) so a changed row is detected.
    origin: Mapped[str] = mapped_column(String(64), default="platform")
    signature: Mapped[str | None] = mapped_column(String(80), default=None)
    synced_at: Mapped[datetime | None] = mapped_column(default=None)


class Subscription(TenantScoped, Base):
    __tablename__ = "event_subscriptions"
    # Fan-out reads the active subscriptions of one tenant on every emit.
    __table_args__ = (Index("ix_event_subscriptions_tenant_active", "tenant_id", "active"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    event_types: Mapped[list[Any]] = mapped_column(default=list)
    target: Mapped[str] = mapped_column(String(20), default="webhook")
    webhook_url: Mapped[str] = mapped_column(String(2048))
    # Sealed (services.core.sealing): the platform must read it back to compute HMACs,
    # so it is encrypted at rest rather than hashed. Never returned by the API.
    secret: Mapped[str] = mapped_column(Text)
    # Secret rotation: the old secret keeps signing (second header) until this time.
    previous_secret: Mapped[str | None] = mapped_column(Text, default=None)
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(default=None)
    filter: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    # "created_at" (with source) or the legacy "timestamp" body.
    payload_format: Mapped[str] = mapped_column(String(20), default="created_at")
    # "hmac-sha256" (X-Service-Signature over the body) or "standard-webhooks" (webhook-id,
    # webhook-timestamp, webhook-signature over id.timestamp.body, with a whsec_ secret).
    signing: Mapped[str] = mapped_column(String(20), default="hmac-sha256", server_default="hmac-sha256")
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Endpoint health (services/events/health.py): who to mail when it is disabled, when it was
    # last turned on (failures before that do not count), and why and since when it is off.
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    enabled_at: Mapped[datetime | None] = mapped_column(default=None)
    disabled_at: Mapped[datetime | None] = mapped_column(default=None)
    disabled_reason: Mapped[str | None] = mapped_column(String(300), default=None)


class Delivery(TenantScoped, Base):
    __tablename__ = "event_deliveries"
    __table_args__ = (
        # The worker's claim: due pending rows across tenants.
        Index("ix_event_deliveries_status_next", "status", "next_attempt_at"),
        Index("ix_event_deliveries_sub_created", "subscription_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    # NULL for test events (their body is kept in ``payload``).
    event_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("events.id", ondelete="CASCADE"), default=None, index=True
    )
    subscription_id: Mapped[str] = mapped_column(String(36), ForeignKey("event_subscriptions.id", ondelete="CASCADE"))
    event_type: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(10), default="event")  # event, replay, test
    payload: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    status: Mapped[str] = mapped_column(String(12), default="pending")  # pending, succeeded, failed, cancelled
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    max_attempts: Mapped[int] = mapped_column(Integer, default=5)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=None)
    # Lease of the worker that claimed the row: another process skips it until then.
    claimed_until: Mapped[datetime | None] = mapped_column(default=None)
    claim_token: Mapped[str | None] = mapped_column(String(36), default=None)
    last_status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    last_error: Mapped[str | None] = mapped_column(String(40), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)


class DeliveryAttempt(TenantScoped, Base):
    __tablename__ = "event_delivery_attempts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    delivery_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("event_deliveries.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)  # 1-based; X-Service-Retry-Count is number - 1
    trigger: Mapped[str] = mapped_column(String(10), default="scheduled")  # scheduled, manual
    attempted_at: Mapped[datetime] = mapped_column(default=utcnow)
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    error_class: Mapped[str | None] = mapped_column(String(40), default=None)
    error_message: Mapped[str | None] = mapped_column(String(300), default=None)
    # The first 4 KiB of the response body.
    response_body: Mapped[str] = mapped_column(Text, default="")
