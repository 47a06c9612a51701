"""Analytics tables: metric points, their daily roll-up, dashboards, reports and customer profiles.

A point is one insert into ``analytics_points`` plus an upsert of its ``analytics_daily`` row,
so a series without a dimension reads at most one row per day (a 90-day series over a million
points reads 90 rows). Bus events are counted into the daily roll-up only (``events.<type>``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Date, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class MetricPoint(TenantScoped, Base):
    __tablename__ = "analytics_points"
    __table_args__ = (Index("ix_analytics_points_name_at", "tenant_id", "name", "at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    value: Mapped[float] = mapped_column(Float, default=1.0)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    dimensions: Mapped[dict[str, Any]] = mapped_column(default=dict)


class MetricDaily(TenantScoped, Base):
    """Sum and count of a metric per UTC day (the upsert's conflict target is the primary key)."""

    __tablename__ = "analytics_daily"
    tenant_id: Mapped[str] = mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    value: Mapped[float] = mapped_column(Float, default=0.0)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Dashboard(TenantScoped, Base):
    __tablename__ = "analytics_dashboards"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    widgets: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AnalyticsReport(TenantScoped, Base):
    """A report and its job: the file is a blob once the job succeeded."""

    __tablename__ = "analytics_reports"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    metrics: Mapped[list[Any]] = mapped_column(default=list)
    date_from: Mapped[date] = mapped_column(Date)
    date_to: Mapped[date] = mapped_column(Date)
    format: Mapped[str] = mapped_column(String(10))
    job_id: Mapped[str | None] = mapped_column(String(36), default=None)
    file_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CustomerProfile(TenantScoped, Base):
    __tablename__ = "analytics_customers"
    __table_args__ = (
        UniqueConstraint("tenant_id", "email_key", name="uq_analytics_customers_email"),
        UniqueConstraint("tenant_id", "external_id", name="uq_analytics_customers_external"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str | None] = mapped_column(String(320), default=None)
    email_key: Mapped[str | None] = mapped_column(String(320), default=None)
    external_id: Mapped[str | None] = mapped_column(String(200), default=None)
    attributes: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AnalyticsAlert(TenantScoped, Base):
    """A metric crossing a threshold over a window of days, checked on the scheduler."""

    __tablename__ = "analytics_alerts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    metric: Mapped[str] = mapped_column(String(200))
    condition: Mapped[str] = mapped_column(String(10))  # above, below
    threshold: Mapped[float] = mapped_column(Float)
    window_days: Mapped[int] = mapped_column(Integer)
    recipients: Mapped[list[Any]] = mapped_column(default=list)
    # ok -> firing when the window's sum crosses the threshold (mailed, event), back to ok when not.
    state: Mapped[str] = mapped_column(String(10), default="ok")
    last_value: Mapped[float | None] = mapped_column(Float, default=None)
    last_checked_at: Mapped[datetime | None] = mapped_column(default=None)
    fired_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AnalyticsSchedule(TenantScoped, Base):
    """A report (metrics) or a dashboard mailed as PDF or CSV every day, week or month."""

    __tablename__ = "analytics_schedules"
    __table_args__ = (Index("ix_analytics_schedules_next_run_at", "next_run_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    metrics: Mapped[list[Any]] = mapped_column(default=list)
    dashboard_id: Mapped[str | None] = mapped_column(String(36), default=None)
    format: Mapped[str] = mapped_column(String(10))  # csv, pdf
    every: Mapped[str] = mapped_column(String(10))  # day, week, month
    range_days: Mapped[int] = mapped_column(Integer)
    recipients: Mapped[list[Any]] = mapped_column(default=list)
    next_run_at: Mapped[datetime] = mapped_column()
    last_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    last_error: Mapped[str | None] = mapped_column(String(300), default=None)
    sends: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
