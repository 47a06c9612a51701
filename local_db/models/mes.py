"""MES tables: machines, their status history, production runs, part counts, alarms and shifts.

OEE is computed from the status history (``mes_status_periods``: run time is the time in
``running``, ``offline`` is taken out of planned time) and the part counts (``mes_counts``),
summed over the window, never from stored percentages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Float, Index, Integer, String, Text, UniqueConstraint, event
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class MesMachine(TenantScoped, Base):
    __tablename__ = "mes_machines"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "code", name="uq_mes_machines_tenant_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(200))
    line: Mapped[str | None] = mapped_column(String(100), default=None)
    ideal_cycle_seconds: Mapped[float] = mapped_column(Float, default=60.0)
    status: Mapped[str] = mapped_column(String(20), default="offline")
    status_since: Mapped[datetime] = mapped_column(default=utcnow)
    # The stop reason of the current status (operator's choice or the gateway's), None while running.
    reason: Mapped[str | None] = mapped_column(String(100), default=None)
    # Planned time starts here when set (a commissioning date); else with the machine's history.
    planned_from: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class MesStatusPeriod(TenantScoped, Base):
    """One stretch of a machine in one status; the open one (``ended_at`` None) is the live status."""

    __tablename__ = "mes_status_periods"
    __synced__ = True
    # Covering: OEE's sums read a month of minute periods per machine from the index alone (no
    # lookup of each row in the table), with the period's length already in milliseconds.
    __table_args__ = (
        Index(
            "ix_mes_status_periods_machine_start_cover",
            "tenant_id",
            "machine_id",
            "started_at",
            "status",
            "ended_at",
            "ms",
            "reason",
        ),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    machine_id: Mapped[str] = mapped_column(String(36))
    status: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(String(100), default=None)
    started_at: Mapped[datetime] = mapped_column()
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    # ended_at - started_at in whole milliseconds (None while open, and on rows written before the
    # column: the sums then work it out from the times). Kept by the ORM events below.
    ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


def period_ms(started_at: datetime, ended_at: datetime | None) -> int | None:
    if ended_at is None:
        return None
    return round((ended_at - started_at).total_seconds() * 1000)


@event.listens_for(MesStatusPeriod, "before_insert")
@event.listens_for(MesStatusPeriod, "before_update")
def _keep_ms(_mapper: Any, _conn: Any, p: MesStatusPeriod) -> None:
    p.ms = period_ms(p.started_at, p.ended_at)


class MesRun(TenantScoped, Base):
    __tablename__ = "mes_runs"
    __synced__ = True
    __table_args__ = (Index("ix_mes_runs_machine_status", "tenant_id", "machine_id", "status"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    machine_id: Mapped[str] = mapped_column(String(36))
    product: Mapped[str] = mapped_column(String(200))
    planned_quantity: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default="planned")
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    good_count: Mapped[int] = mapped_column(Integer, default=0)
    scrap_count: Mapped[int] = mapped_column(Integer, default=0)
    # What the run is made from and how: the bill of materials and the routing (MES's own records),
    # and the Inventory location (id or code) its parts come from and its goods go to.
    bom_id: Mapped[str | None] = mapped_column(String(36), default=None)
    routing_id: Mapped[str | None] = mapped_column(String(36), default=None)
    location: Mapped[str | None] = mapped_column(String(100), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class MesBom(TenantScoped, Base):
    """A bill of materials: the parts (Inventory SKUs) one unit of ``product`` takes."""

    __tablename__ = "mes_boms"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product: Mapped[str] = mapped_column(String(100), index=True)  # the finished good's SKU
    name: Mapped[str] = mapped_column(String(200))
    components: Mapped[list[Any]] = mapped_column(default=list)  # [{sku, quantity}] per unit made
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class MesRouting(TenantScoped, Base):
    """How ``product`` is made: operations in sequence, each with its machine and standard times."""

    __tablename__ = "mes_routings"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product: Mapped[str] = mapped_column(String(100), index=True)
    name: Mapped[str] = mapped_column(String(200))
    # [{sequence, operation, machine_id, setup_minutes, minutes_per_unit}]
    steps: Mapped[list[Any]] = mapped_column(default=list)
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class MesOperatorTime(TenantScoped, Base):
    """Who worked on a run, from when to when (labour per run)."""

    __tablename__ = "mes_operator_times"
    __synced__ = True
    __table_args__ = (Index("ix_mes_operator_times_operator", "tenant_id", "operator_id", "started_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    run_id: Mapped[str] = mapped_column(String(36), index=True)
    operator_id: Mapped[str] = mapped_column(String(36))
    operator_name: Mapped[str] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column()
    ended_at: Mapped[datetime] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class MesHourSum(TenantScoped, Base):
    """A machine's closed status periods and its counts summed by UTC hour: OEE reads these for the
    whole hours of a window instead of every period in them (services/mes/hours.py keeps them,
    from the periods and counts, whenever a write touches an hour). The id is made from the
    machine and the hour, so a station's own row and the platform's are the same row. The row at
    ``hours.BUILT`` (1970) says the machine's hours are complete; without it OEE reads the periods."""

    __tablename__ = "mes_hour_sums"
    __synced__ = True  # a station's OEE reads them too
    __table_args__ = (Index("ix_mes_hour_sums_machine_hour", "tenant_id", "machine_id", "hour"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    machine_id: Mapped[str] = mapped_column(String(36))
    hour: Mapped[datetime] = mapped_column()
    running_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    offline_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    # Milliseconds of the other statuses by stop reason (those with a reason): planned or not is
    # the tenant's reason list's say at the time OEE is asked, so it is not decided here.
    stops: Mapped[dict[str, Any]] = mapped_column(default=dict)
    good: Mapped[int] = mapped_column(BigInteger, default=0)
    total: Mapped[int] = mapped_column(BigInteger, default=0)


class MesCount(TenantScoped, Base):
    """Parts counted at a time (gateway count events, operator scans and buttons, run updates)."""

    __tablename__ = "mes_counts"
    __synced__ = True
    # Covering (the counts a window sums are read from the index alone).
    __table_args__ = (Index("ix_mes_counts_machine_at_cover", "tenant_id", "machine_id", "at", "good", "scrap"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    machine_id: Mapped[str] = mapped_column(String(36))
    run_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    at: Mapped[datetime] = mapped_column()
    good: Mapped[int] = mapped_column(Integer, default=0)
    scrap: Mapped[int] = mapped_column(Integer, default=0)
    source: Mapped[str] = mapped_column(String(20), default="operator")


class MesAlarm(TenantScoped, Base):
    __tablename__ = "mes_alarms"
    __synced__ = True
    __table_args__ = (Index("ix_mes_alarms_state", "tenant_id", "state"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    machine_id: Mapped[str] = mapped_column(String(36))
    code: Mapped[str] = mapped_column(String(60))
    message: Mapped[str] = mapped_column(Text, default="")
    severity: Mapped[str] = mapped_column(String(10), default="medium")
    state: Mapped[str] = mapped_column(String(30), default="active_unacknowledged")
    raised_at: Mapped[datetime] = mapped_column(default=utcnow)
    acknowledged_at: Mapped[datetime | None] = mapped_column(default=None)
    acknowledged_by: Mapped[str | None] = mapped_column(String(36), default=None)
    cleared_at: Mapped[datetime | None] = mapped_column(default=None)


class MesShift(TenantScoped, Base):
    __tablename__ = "mes_shifts"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100))
    start: Mapped[str] = mapped_column(String(5))
    end: Mapped[str] = mapped_column(String(5))
    days: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
