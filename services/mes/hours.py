"""A machine's history summed by UTC hour (``mes_hour_sums``), kept as it is written.

OEE over a month of minute events read every period and count of every shift (millions of rows,
2 s for 50 machines). The whole hours of a window now come from one row per machine and hour:
the closed periods' milliseconds in ``running`` and ``offline`` and, by stop reason, in the other
statuses, and the parts counted. What a window has besides whole hours (its edges, the hour of a
machine's planned start, the open period) is still read from the periods (services/mes/sums.py).

The sums are made from the periods and counts, never adjusted by deltas: a write notes the span
of time it touched (``touch``), and before the transaction commits the hours of that span are
summed again from the rows (``refresh``): a live event touches the hour or two of the period it
closes, a back-dated one the hours of the period it splits; nothing else. A machine without its
``BUILT`` row (its history written before this table, or by a bulk load) is summed whole at its
next write; until then OEE reads its periods. Rows are written through the ORM with ids made from
machine and hour, so the stations' pull carries them and a station's own row is the same row.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from local_db.models.mes import MesCount, MesHourSum, MesStatusPeriod

HOUR = timedelta(hours=1)
US = timedelta(microseconds=1)
# The row that says a machine's hours are complete (no real hour is this old).
BUILT = datetime(1970, 1, 1, tzinfo=UTC)
_NS = uuid.UUID("7d0f4a8e-2b51-4c8e-9a43-5f1c2e6b9d10")
_TOUCHED = "mes_hours_touched"  # Session.info key: {machine id: (from, to) or None for all}


def floor_h(t: datetime) -> datetime:
    return t.replace(minute=0, second=0, microsecond=0)


def ceil_h(t: datetime) -> datetime:
    f = floor_h(t)
    return f if f == t else f + HOUR


def row_id(machine_id: str, hour: datetime) -> str:
    return str(uuid.uuid5(_NS, f"{machine_id}|{hour.astimezone(UTC).isoformat()}"))


def touch(s: Session, machine_id: str, lo: datetime, hi: datetime | None = None) -> None:
    """Note that the machine's history changed between ``lo`` and ``hi``; summed at commit."""
    spans: dict[str, tuple[datetime, datetime] | None] = s.info.setdefault(_TOUCHED, {})
    hi = lo if hi is None else hi
    if machine_id in spans:
        old = spans[machine_id]
        if old is None:
            return
        lo, hi = min(lo, old[0]), max(hi, old[1])
    spans[machine_id] = (lo, hi)


def touch_all(s: Session, machine_id: str) -> None:
    """A new machine (or one to sum whole): all of its hours at commit."""
    s.info.setdefault(_TOUCHED, {})[machine_id] = None


@dataclass
class _Hour:
    running: int = 0  # microseconds, made milliseconds when written
    offline: int = 0
    stops: dict[str, int] = field(default_factory=dict)
    good: int = 0
    total: int = 0

    def empty(self) -> bool:
        return not (self.running or self.offline or self.stops or self.good or self.total)


def _ms(us: int) -> int:
    return round(us / 1000)


def _sum_hours(
    periods: Iterable[tuple[datetime, datetime, str, str | None]],
    counts: Iterable[tuple[datetime, int, int]],
    lo: datetime,
    hi: datetime,
) -> dict[datetime, _Hour]:
    """The closed periods' time and the counts inside ``[lo, hi)`` (whole hours), by hour."""
    acc: dict[datetime, _Hour] = {}
    for ps, pe, status, reason in periods:
        a, b = max(ps, lo), min(pe, hi)
        h = floor_h(a)
        while a < b:
            e = min(b, h + HOUR)
            us = (e - a) // US
            row = acc.setdefault(h, _Hour())
            if status == "running":
                row.running += us
            elif status == "offline":
                row.offline += us
            elif reason is not None:
                row.stops[reason] = row.stops.get(reason, 0) + us
            a, h = e, h + HOUR
    for at, good, scrap in counts:
        if lo <= at < hi:
            row = acc.setdefault(floor_h(at), _Hour())
            row.good += good
            row.total += good + scrap
    return acc


def _write(s: Session, machine_id: str, acc: dict[datetime, _Hour], old: dict[datetime, MesHourSum]) -> None:
    for hour in sorted(set(acc) | set(old)):
        new, row = acc.get(hour), old.get(hour)
        if new is None or new.empty():
            if row is not None:
                s.delete(row)  # through the ORM: the stations' pull learns of it
            continue
        if row is None:
            row = MesHourSum(id=row_id(machine_id, hour), machine_id=machine_id, hour=hour)
            s.add(row)
        row.running_ms, row.offline_ms = _ms(new.running), _ms(new.offline)
        row.stops = {k: _ms(v) for k, v in sorted(new.stops.items())}
        row.good, row.total = new.good, new.total


def _resum(s: Session, machine_id: str, lo: datetime, hi: datetime) -> None:
    """Sum the machine's hours from the one holding ``lo`` to the one holding ``hi`` again."""
    P = MesStatusPeriod
    ha, hb = floor_h(lo), floor_h(hi) + HOUR
    # Periods follow each other: those touching [ha, hb) start inside it, or are the last one
    # starting before it (one index seek, not a scan from the machine's first period).
    before = s.execute(
        select(func.max(P.started_at)).where(P.machine_id == machine_id, P.started_at <= ha)
    ).scalar_one_or_none()
    periods = s.execute(
        select(P.started_at, P.ended_at, P.status, P.reason).where(
            P.machine_id == machine_id,
            P.started_at >= (before or ha),
            P.started_at < hb,
            P.ended_at.is_not(None),
        )
    ).all()
    counts = s.execute(
        select(MesCount.at, MesCount.good, MesCount.scrap).where(
            MesCount.machine_id == machine_id, MesCount.at >= ha, MesCount.at < hb
        )
    ).all()
    old = {
        r.hour: r
        for r in s.execute(
            select(MesHourSum).where(MesHourSum.machine_id == machine_id, MesHourSum.hour >= ha, MesHourSum.hour < hb)
        ).scalars()
    }
    acc = _sum_hours(((a, b, st, r) for a, b, st, r in periods if b is not None), counts, ha, hb)
    _write(s, machine_id, acc, old)


def rebuild(s: Session, machine_ids: Iterable[str]) -> None:
    """Sum each machine's whole history by hour and mark it complete (``BUILT``)."""
    P = MesStatusPeriod
    for mid in machine_ids:
        periods = s.execute(
            select(P.started_at, P.ended_at, P.status, P.reason).where(P.machine_id == mid, P.ended_at.is_not(None))
        ).all()
        counts = s.execute(select(MesCount.at, MesCount.good, MesCount.scrap).where(MesCount.machine_id == mid)).all()
        old = {r.hour: r for r in s.execute(select(MesHourSum).where(MesHourSum.machine_id == mid)).scalars()}
        marker = old.pop(BUILT, None)
        times = [p[0] for p in periods] + [c[0] for c in counts]
        acc: dict[datetime, _Hour] = {}
        if times:
            lo = floor_h(min(times))
            hi = floor_h(max([p[1] for p in periods if p[1] is not None] + [c[0] for c in counts])) + HOUR
            acc = _sum_hours(((a, b, st, r) for a, b, st, r in periods if b is not None), counts, lo, hi)
        _write(s, mid, acc, old)
        if marker is None:
            s.add(MesHourSum(id=row_id(mid, BUILT), machine_id=mid, hour=BUILT, stops={}))


def built(s: Session, machine_ids: list[str]) -> set[str]:
    """The machines whose hours are complete."""
    out: set[str] = set()
    for part in range(0, len(machine_ids), 900):
        out.update(
            s.execute(
                select(MesHourSum.machine_id).where(
                    MesHourSum.machine_id.in_(machine_ids[part : part + 900]), MesHourSum.hour == BUILT
                )
            ).scalars()
        )
    return out


def refresh(s: Session) -> None:
    """Sum the hours the transaction's writes touched (a machine not complete yet: all of them)."""
    spans: dict[str, tuple[datetime, datetime] | None] = s.info.pop(_TOUCHED, None) or {}
    if not spans:
        return
    s.flush()
    done = built(s, list(spans))
    whole = [mid for mid, span in spans.items() if span is None or mid not in done]
    rebuild(s, whole)
    for mid, span in spans.items():
        if span is not None and mid in done:
            _resum(s, mid, *span)
    s.flush()


@event.listens_for(Session, "before_commit")
def _before_commit(s: Session, *_: Any) -> None:
    if s.info.get(_TOUCHED):
        refresh(s)
