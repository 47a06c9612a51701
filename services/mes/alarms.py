"""Mes: alarms."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.mes import MesAlarm
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.pagination import Page, paginate
from services.core.roles import STAFF
from services.mes import states
from services.mes.schemas import (
    AlarmOut,
    AlarmQuery,
)

ALARM = record_kind("mes.alarm", get="mes.alarms.get", label="code")


def _alarm(s: Session, aid: str) -> MesAlarm:
    a = s.get(MesAlarm, aid, with_for_update=True)
    if a is None:
        raise NotFound("alarm not found", {"id": aid})
    return a


ALARM_SORT = {"raised_at": MesAlarm.raised_at, "severity": MesAlarm.severity, "state": MesAlarm.state}


@use_case("mes.alarms.list", "GET /alarms", tx="read", roles=STAFF)
def list_alarms(ctx: Ctx, query: AlarmQuery) -> Page[AlarmOut]:
    stmt = select(MesAlarm)
    if query.state:
        stmt = stmt.where(MesAlarm.state == query.state)
    if query.machine_id:
        stmt = stmt.where(MesAlarm.machine_id == query.machine_id)
    if query.severity:
        stmt = stmt.where(MesAlarm.severity == query.severity)
    with ctx.read() as s:
        return paginate(s, stmt, query, columns=ALARM_SORT, default_sort="-raised_at").map(AlarmOut.model_validate)


@use_case(
    "mes.alarms.active",
    "GET /alarms/active",
    tx="read",
    roles=STAFF,
    summary="alarms not both cleared and acknowledged (ISA-18.2)",
)
def active_alarms(ctx: Ctx, query: AlarmQuery) -> Page[AlarmOut]:
    stmt = select(MesAlarm).where(MesAlarm.state.in_(states.ALARM_LISTED))
    if query.machine_id:
        stmt = stmt.where(MesAlarm.machine_id == query.machine_id)
    if query.severity:
        stmt = stmt.where(MesAlarm.severity == query.severity)
    with ctx.read() as s:
        return paginate(s, stmt, query, columns=ALARM_SORT, default_sort="-raised_at").map(AlarmOut.model_validate)


@use_case("mes.alarms.get", "GET /alarms/{id}", tx="read", roles=STAFF)
def get_alarm(ctx: Ctx, id: str) -> AlarmOut:
    with ctx.read() as s:
        a = s.get(MesAlarm, id)
        if a is None:
            raise NotFound("alarm not found", {"id": id})
        return AlarmOut.model_validate(a)


@use_case(
    "mes.alarms.acknowledge",
    "PUT /alarms/{id}/acknowledge",
    tx="write",
    roles=STAFF,
    says="Acknowledge alarm",
    record=ALARM,
)
def acknowledge_alarm(ctx: Ctx, id: str) -> AlarmOut:
    with ctx.write() as s:
        a = _alarm(s, id)
        a.state = states.ALARM.check(a.state, "acknowledge")
        a.acknowledged_at = ctx.now()
        a.acknowledged_by = ctx.principal.id
        emit(
            ctx,
            "machine.alarm_acknowledged",
            {"alarm_id": a.id, "machine_id": a.machine_id, "code": a.code, "state": a.state},
        )
        s.flush()
        return AlarmOut.model_validate(a)
