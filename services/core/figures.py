"""Figures an operator watches that live in the database (``GET /metrics`` reads them when scraped):
webhook deliveries by status and the oldest one waiting, jobs by status, and when each station
last synced."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select

from local_db.base import table_of
from local_db.models.events import Delivery
from local_db.models.jobs import Job
from local_db.models.sync import SyncStation
from services.core.context import Runtime


@dataclass(frozen=True)
class Figures:
    deliveries: dict[str, int]
    oldest_pending_seconds: float
    jobs: dict[str, int]
    stations_last_seen: list[tuple[str, float]]  # (station id, seconds since; -1 never)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def operational_figures(rt: Runtime, max_stations: int = 200) -> Figures:
    d, j, st = table_of(Delivery), table_of(Job), table_of(SyncStation)
    now = rt.clock.now()
    with rt.db.reading(None) as s:
        by_status = {str(k): int(v) for k, v in s.execute(select(d.c.status, func.count()).group_by(d.c.status))}
        oldest = s.execute(select(func.min(d.c.created_at)).where(d.c.status == "pending")).scalar()
        jobs = {str(k): int(v) for k, v in s.execute(select(j.c.status, func.count()).group_by(j.c.status))}
        stations = s.execute(
            select(st.c.station_id, st.c.last_seen_at).where(st.c.revoked_at.is_(None)).limit(max_stations)
        ).all()
    return Figures(
        deliveries=by_status,
        oldest_pending_seconds=(now - _aware(oldest)).total_seconds() if oldest is not None else 0.0,
        jobs=jobs,
        stations_last_seen=[
            (str(sid), (now - _aware(seen)).total_seconds() if seen is not None else -1.0) for sid, seen in stations
        ],
    )
