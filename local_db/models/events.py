"""Event history (the transactional event log); delivery tables join it in the events module."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class Event(TenantScoped, Base):
    __tablename__ = "events"
    __table_args__ = (Index("ix_events_tenant_type_created", "tenant_id", "type", "created_at"),)

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
