"""The scheduler's jobs: periodic work a module declares and delayed work a use case asks for,
kept in the database so several server processes share them and a crash loses none."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, new_id, utcnow


class ScheduledJob(Base):
    # Not TenantScoped: a periodic job (sign sweep, retention) runs for the whole platform; a
    # delayed one names its tenant, and the admin route shows a tenant its own and the platform's.
    __tablename__ = "scheduled_jobs"
    __table_args__ = (Index("ix_scheduled_jobs_status_next", "status", "next_run_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    # A periodic job's declared name (one row each); a delayed job's ``kind:id``.
    name: Mapped[str] = mapped_column(String(160), unique=True)
    kind: Mapped[str] = mapped_column(String(120))
    tenant_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("tenants.id", ondelete="CASCADE"), default=None, index=True
    )
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    every_seconds: Mapped[int | None] = mapped_column(Integer, default=None)  # None: runs once
    status: Mapped[str] = mapped_column(String(20), default="scheduled")  # scheduled, done, failed
    next_run_at: Mapped[datetime | None] = mapped_column(default=None)
    # The claim of the process running it: a token per run, so a run whose lease ran out and was
    # taken again cannot write its end over the new run's.
    lease_owner: Mapped[str | None] = mapped_column(String(120), default=None)
    lease_until: Mapped[datetime | None] = mapped_column(default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # failures in a row
    max_attempts: Mapped[int] = mapped_column(Integer, default=5)
    runs: Mapped[int] = mapped_column(Integer, default=0)
    last_status: Mapped[str | None] = mapped_column(String(20), default=None)  # succeeded, failed
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    last_result: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    last_started_at: Mapped[datetime | None] = mapped_column(default=None)
    last_finished_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
