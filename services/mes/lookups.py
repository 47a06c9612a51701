"""Mes: lookups."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.core import Tenant
from local_db.models.mes import MesCount, MesMachine, MesRun, MesShift, MesStatusPeriod
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.mes import hours, oee, states, sums
from services.mes.reasons import check_reason, planned_reasons


def tenant_tz(s: Session, ctx: Ctx) -> tzinfo:
    """The tenant's time zone (setting ``mes.timezone``, an IANA name), UTC by default."""
    t = s.get(Tenant, ctx.tenant_id)
    name = (((t.settings if t else None) or {}).get("mes") or {}).get("timezone")
    if name:
        try:
            return ZoneInfo(str(name))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return UTC


def _machine(s: Session, mid: str, *, lock: bool = False) -> MesMachine:
    m = s.get(MesMachine, mid, with_for_update=lock or None)  # another tenant's row reads as None
    if m is None:
        raise NotFound("machine not found", {"id": mid})
    return m


def set_status(ctx: Ctx, s: Session, m: MesMachine, status: str, reason: str | None, at: datetime) -> bool:
    """Move the machine to ``status`` at ``at``; True when its live status changed.

    ``at`` before the live status began corrects the history (the period holding ``at`` is split)
    without touching the live status. The same status again with a reason records the reason.
    """
    reason = check_reason(s, ctx, reason)  # a reason not on the tenant's list is 400
    if at < m.status_since:
        p = s.execute(
            select(MesStatusPeriod)
            .where(MesStatusPeriod.machine_id == m.id, MesStatusPeriod.started_at <= at)
            .order_by(MesStatusPeriod.started_at.desc())
            .limit(1)
        ).scalar_one_or_none()
        if p is None:
            # Older than every recorded period (a gateway's back-filled history): it is history too,
            # up to the first period (DECISIONS "Machine history"), so a back-dated history counts
            # as the same history reported live would.
            first = s.execute(
                select(MesStatusPeriod)
                .where(MesStatusPeriod.machine_id == m.id)
                .order_by(MesStatusPeriod.started_at)
                .limit(1)
            ).scalar_one_or_none()
            if first is None:
                return False
            hours.touch(s, m.id, at, first.started_at)
            if first.status == status and first.reason == reason:
                first.started_at = at
            else:
                s.add(
                    MesStatusPeriod(
                        id=new_id(),
                        machine_id=m.id,
                        status=status,
                        reason=reason,
                        started_at=at,
                        ended_at=first.started_at,
                    )
                )
            return False
        if p.status == status:
            return False
        hours.touch(s, m.id, p.started_at, p.ended_at or at)
        if p.started_at == at:
            p.status, p.reason = status, reason
        else:
            s.add(
                MesStatusPeriod(
                    id=new_id(), machine_id=m.id, status=status, reason=reason, started_at=at, ended_at=p.ended_at
                )
            )
            p.ended_at = at
        return False
    if status == m.status:
        if reason is None or reason == m.reason:
            states.MACHINE_STATUS.check(m.status, status)  # 409: already in that status
        m.reason = reason
        _open_period(s, m).reason = reason
        m.updated_at = ctx.now()
        return False
    previous = m.status
    m.status = states.MACHINE_STATUS.check(m.status, status)
    closing = _open_period(s, m)
    closing.ended_at = at
    hours.touch(s, m.id, closing.started_at, at)
    s.add(MesStatusPeriod(id=new_id(), machine_id=m.id, status=status, reason=reason, started_at=at))
    m.status_since, m.reason, m.updated_at = at, reason, ctx.now()
    emit(
        ctx,
        "machine.status_changed",
        {
            "machine_id": m.id,
            "code": m.code,
            "status": status,
            "previous_status": previous,
            "reason": reason,
            "at": at.isoformat(),
        },
    )
    return True


def _open_period(s: Session, m: MesMachine) -> MesStatusPeriod:
    p = s.execute(
        select(MesStatusPeriod).where(MesStatusPeriod.machine_id == m.id, MesStatusPeriod.ended_at.is_(None))
    ).scalar_one_or_none()
    if p is None:  # a machine made before its history was kept: its live status starts one now
        p = MesStatusPeriod(id=new_id(), machine_id=m.id, status=m.status, reason=m.reason, started_at=m.status_since)
        s.add(p)
    return p


def _current_run(s: Session, machine_id: str) -> MesRun | None:
    return (
        s.execute(
            select(MesRun)
            .where(MesRun.machine_id == machine_id, MesRun.status.in_(("running", "paused")))
            .order_by(MesRun.started_at.desc())
            .limit(1)
        )
        .scalars()
        .first()
    )


def add_count(
    ctx: Ctx, s: Session, m: MesMachine, run: MesRun | None, good: int, scrap: int, at: datetime, source: str
) -> None:
    if good == 0 and scrap == 0:
        return
    if run is not None:
        run.good_count += good
        run.scrap_count += scrap
        run.updated_at = ctx.now()
    s.add(
        MesCount(
            id=new_id(), machine_id=m.id, run_id=run.id if run else None, at=at, good=good, scrap=scrap, source=source
        )
    )
    hours.touch(s, m.id, at)


def _shifts(s: Session) -> list[MesShift]:
    return list(s.execute(select(MesShift).order_by(MesShift.start, MesShift.name)).scalars())


def _planned(
    s: Session, ctx: Ctx, lo: datetime, hi: datetime, shifts: Sequence[MesShift] | None = None
) -> list[oee.Window]:
    shifts = _shifts(s) if shifts is None else shifts
    if not shifts:
        return [(lo, hi)]
    tz = tenant_tz(s, ctx)
    return oee.merge(w for sh in shifts for w in oee.shift_windows(sh.start, sh.end, sh.days, lo, hi, tz))


def _totals(
    s: Session,
    ctx: Ctx,
    machines: Sequence[MesMachine],
    lo: datetime,
    hi: datetime,
    windows: list[oee.Window] | None = None,
) -> dict[str, oee.Totals]:
    windows = _planned(s, ctx, lo, hi) if windows is None else windows
    got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], [windows], ctx.now(), planned_reasons(s, ctx))
    return {m.id: sums.totals(got.get((0, m.id)), windows, m.ideal_cycle_seconds) for m in machines}
