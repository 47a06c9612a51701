"""Mes: machines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.mes import MesAlarm, MesCount, MesMachine, MesStatusPeriod
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, paginate
from services.core.roles import MANAGERS, STAFF
from services.mes import hours, states
from services.mes.lookups import _current_run, _machine, _open_period, _totals, add_count, set_status
from services.mes.reasons import check_reason
from services.mes.schemas import (
    STOP_REASONS,
    AlarmEvent,
    AlarmOut,
    CountEvent,
    LiveStatusOut,
    MachineEventsIn,
    MachineEventsOut,
    MachineIn,
    MachineOut,
    MachineQuery,
    MachineUpdate,
    OeeOut,
    RunOut,
    StatusEvent,
)

MACHINE = record_kind("mes.machine", get="mes.machines.get", label="code")


FUTURE_SLACK = timedelta(minutes=5)  # a gateway's clock may run a little ahead of ours


def _at(ctx: Ctx, at: datetime | None) -> datetime:
    now = ctx.now()
    if at is None:
        return now
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    if at > now + FUTURE_SLACK:
        raise ValidationFailed("an event's time is in the future", {"at": at.isoformat(), "now": now.isoformat()})
    return at.astimezone(UTC)


def raise_alarm(ctx: Ctx, s: Session, m: MesMachine, code: str, message: str, severity: str, at: datetime) -> bool:
    """Raise (or raise again) the machine's alarm ``code``; False when it is active already."""
    open_ = s.execute(
        select(MesAlarm).where(MesAlarm.machine_id == m.id, MesAlarm.code == code, MesAlarm.state != "cleared")
    ).scalar_one_or_none()
    if open_ is not None and open_.state in ("active_unacknowledged", "active_acknowledged"):
        return False
    if open_ is not None:  # returned to normal but not acknowledged: active again (ISA-18.2)
        open_.state = states.ALARM.check(open_.state, "raise")
        open_.raised_at, open_.cleared_at, open_.message, open_.severity = at, None, message, severity
        alarm = open_
    else:
        alarm = MesAlarm(
            id=new_id(),
            machine_id=m.id,
            code=code,
            message=message,
            severity=severity,
            state="active_unacknowledged",
            raised_at=at,
        )
        s.add(alarm)
    emit(
        ctx,
        "machine.alarm",
        {
            "alarm_id": alarm.id,
            "machine_id": m.id,
            "code": code,
            "message": message,
            "severity": severity,
            "raised_at": at.isoformat(),
        },
    )
    return True


def clear_alarm(ctx: Ctx, s: Session, m: MesMachine, code: str, at: datetime) -> bool:
    alarm = s.execute(
        select(MesAlarm).where(
            MesAlarm.machine_id == m.id,
            MesAlarm.code == code,
            MesAlarm.state.in_(("active_unacknowledged", "active_acknowledged")),
        )
    ).scalar_one_or_none()
    if alarm is None:
        return False
    alarm.state = states.ALARM.check(alarm.state, "clear")
    alarm.cleared_at = at
    emit(ctx, "machine.alarm_cleared", {"alarm_id": alarm.id, "machine_id": m.id, "code": code, "state": alarm.state})
    return True


@use_case("mes.machines.list", "GET /machines", tx="read", roles=STAFF, summary="machines with their status")
def list_machines(ctx: Ctx, query: MachineQuery) -> Page[MachineOut]:
    stmt = select(MesMachine)
    if query.status:
        stmt = stmt.where(MesMachine.status == query.status)
    if query.line:
        stmt = stmt.where(MesMachine.line == query.line)
    if query.search:
        term = f"%{query.search}%"
        stmt = stmt.where(or_(MesMachine.code.ilike(term), MesMachine.name.ilike(term)))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "code": MesMachine.code,
                "name": MesMachine.name,
                "status": MesMachine.status,
                "created_at": MesMachine.created_at,
            },
            default_sort="code",
        )
        return page.map(MachineOut.model_validate)


@use_case("mes.machines.get", "GET /machines/{id}", tx="read", roles=STAFF)
def get_machine(ctx: Ctx, id: str) -> MachineOut:
    with ctx.read() as s:
        return MachineOut.model_validate(_machine(s, id))


@use_case(
    "mes.machines.create",
    "POST /machines",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New machine",
    record=MACHINE,
)
def create_machine(ctx: Ctx, body: MachineIn) -> MachineOut:
    now = ctx.now()
    with ctx.write() as s:
        code = body.code.strip().upper()
        if s.execute(select(MesMachine.id).where(MesMachine.code == code)).first() is not None:
            raise Conflict("a machine with this code exists", {"code": code})
        m = MesMachine(
            id=new_id(),
            code=code,
            name=body.name,
            line=body.line,
            ideal_cycle_seconds=body.ideal_cycle_seconds,
            status=body.status,
            status_since=now,
            planned_from=body.planned_from,
            created_at=now,
            updated_at=now,
        )
        s.add(m)
        s.add(MesStatusPeriod(id=new_id(), machine_id=m.id, status=body.status, started_at=now))
        hours.touch_all(s, m.id)  # no hours yet: marked complete, so OEE reads its hours from the start
        s.flush()
        return MachineOut.model_validate(m)


@use_case(
    "mes.machines.update",
    "PUT /machines/{id}",
    tx="write",
    roles=STAFF,
    says="Change machine",
    record=MACHINE,
    summary="edit a machine (managers) or set its status with a stop reason (operators)",
)
def update_machine(ctx: Ctx, id: str, body: MachineUpdate) -> MachineOut:
    fields = body.model_dump(exclude_unset=True)
    editing = set(fields) - {"status", "reason"}
    if editing and ctx.principal.role not in MANAGERS and ctx.principal.kind != "system":
        raise Forbidden("only owners and admins edit a machine; operators set its status", {"fields": sorted(editing)})
    with ctx.write() as s:
        m = _machine(s, id, lock=True)
        if "code" in fields and body.code is not None:
            code = body.code.strip().upper()
            other = s.execute(select(MesMachine.id).where(MesMachine.code == code, MesMachine.id != m.id)).first()
            if other is not None:
                raise Conflict("a machine with this code exists", {"code": code})
            m.code = code
        for f in ("name", "line", "ideal_cycle_seconds", "planned_from"):
            if f in fields and (fields[f] is not None or f in ("line", "planned_from")):
                setattr(m, f, fields[f])
        if body.status is not None:
            set_status(ctx, s, m, body.status, body.reason, ctx.now())
        elif "reason" in fields:
            m.reason = check_reason(s, ctx, body.reason)
            _open_period(s, m).reason = m.reason
        m.updated_at = ctx.now()
        s.flush()
        return MachineOut.model_validate(m)


@use_case(
    "mes.machines.events",
    "POST /machines/{id}/events",
    tx="write",
    roles=STAFF,
    says="Machine events",
    record=MACHINE,
    summary="a gateway reports status changes, part counts and alarms with their time",
)
def machine_events(ctx: Ctx, id: str, body: MachineEventsIn) -> MachineEventsOut:
    events = body.events or []
    changes = raised = cleared = 0
    counts = {"good": 0, "scrap": 0}
    with ctx.write() as s:
        m = _machine(s, id, lock=True)
        timed = sorted(((_at(ctx, e.at), n, e) for n, e in enumerate(events)), key=lambda t: (t[0], t[1]))
        run = _current_run(s, m.id)  # gateway events never move a run: looked up once per batch
        for at, _n, e in timed:
            if isinstance(e, StatusEvent):
                if e.status == m.status and at >= m.status_since and check_reason(s, ctx, e.reason) in (None, m.reason):
                    continue  # a gateway repeating the live status is not a change
                changes += set_status(ctx, s, m, e.status, e.reason, at)
            elif isinstance(e, CountEvent):
                add_count(ctx, s, m, run, e.good, e.scrap, at, "gateway")
                counts["good"] += e.good
                counts["scrap"] += e.scrap
            elif isinstance(e, AlarmEvent):
                raised += raise_alarm(ctx, s, m, e.code, e.message, e.severity, at)
            else:
                cleared += clear_alarm(ctx, s, m, e.code, at)
            if not isinstance(e, CountEvent):
                s.flush()  # the next status or alarm event reads what this one wrote
        return MachineEventsOut(
            machine=MachineOut.model_validate(m),
            accepted=len(events),
            status_changes=changes,
            counts=counts,
            alarms_raised=raised,
            alarms_cleared=cleared,
        )


@use_case("mes.machines.status", "GET /machines/{id}/status", tx="read", roles=STAFF, summary="live status")
def machine_status(ctx: Ctx, id: str) -> LiveStatusOut:
    now = ctx.now()
    day = datetime.combine(now.date(), datetime.min.time(), UTC)
    with ctx.read() as s:
        m = _machine(s, id)
        run = _current_run(s, m.id)
        good, scrap = s.execute(
            select(func.coalesce(func.sum(MesCount.good), 0), func.coalesce(func.sum(MesCount.scrap), 0)).where(
                MesCount.machine_id == m.id, MesCount.at >= day, MesCount.at < now
            )
        ).one()
        figures = _totals(s, ctx, [m], day, now)[m.id].figures()
        alarms = (
            s.execute(
                select(MesAlarm)
                .where(MesAlarm.machine_id == m.id, MesAlarm.state.in_(states.ALARM_LISTED))
                .order_by(MesAlarm.raised_at.desc())
            )
            .scalars()
            .all()
        )
        return LiveStatusOut(
            machine=MachineOut.model_validate(m),
            status=m.status,  # type: ignore[arg-type]
            status_since=m.status_since,
            reason=m.reason,
            current_run=RunOut.model_validate(run) if run else None,
            today={"good": int(good), "scrap": int(scrap), "total": int(good) + int(scrap)},
            oee=OeeOut(**figures),
            alarms=[AlarmOut.model_validate(a) for a in alarms],
            stop_reasons=list(STOP_REASONS),
        )
