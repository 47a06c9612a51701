"""Mes: shifts."""

from __future__ import annotations

from datetime import date

from sqlalchemy import or_, select

from local_db import new_id
from local_db.models.mes import MesMachine, MesShift, MesStatusPeriod
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import MANAGERS, STAFF
from services.mes import oee, sums
from services.mes.lookups import tenant_tz
from services.mes.reasons import planned_reasons
from services.mes.schemas import (
    OeeMachineOut,
    OeeOut,
    ReportQuery,
    ShiftIn,
    ShiftOut,
    ShiftReportOut,
    StopOut,
)

SHIFT = record_kind("mes.shift", get="mes.shifts.get", label="name")


STOPPED = ("idle", "setup", "down")


@use_case("mes.shifts.list", "GET /shifts", tx="read", roles=STAFF)
def list_shifts(ctx: Ctx, query: ListQuery) -> Page[ShiftOut]:
    with ctx.read() as s:
        page = paginate(
            s,
            select(MesShift),
            query,
            columns={"start": MesShift.start, "name": MesShift.name, "created_at": MesShift.created_at},
            default_sort="start",
        )
        return page.map(ShiftOut.model_validate)


@use_case("mes.shifts.get", "GET /shifts/{id}", tx="read", roles=STAFF)
def get_shift(ctx: Ctx, id: str) -> ShiftOut:
    with ctx.read() as s:
        sh = s.get(MesShift, id)
        if sh is None:
            raise NotFound("shift not found", {"id": id})
        return ShiftOut.model_validate(sh)


@use_case("mes.shifts.create", "POST /shifts", tx="write", roles=MANAGERS, status=201, says="New shift", record=SHIFT)
def create_shift(ctx: Ctx, body: ShiftIn) -> ShiftOut:
    if body.start == body.end:
        raise ValidationFailed("a shift's end must differ from its start", {"start": body.start, "end": body.end})
    with ctx.write() as s:
        sh = MesShift(id=new_id(), name=body.name, start=body.start, end=body.end, days=body.days, created_at=ctx.now())
        s.add(sh)
        s.flush()
        return ShiftOut.model_validate(sh)


@use_case(
    "mes.shifts.report",
    "GET /shifts/{id}/report",
    tx="read",
    roles=STAFF,
    summary="OEE, counts and stops by reason of one shift on one day",
)
def shift_report(ctx: Ctx, id: str, query: ReportQuery) -> ShiftReportOut:
    now = ctx.now()
    with ctx.read() as s:
        sh = s.get(MesShift, id)
        if sh is None:
            raise NotFound("shift not found", {"id": id})
        tz = tenant_tz(s, ctx)
        day: date = query.date or now.astimezone(tz).date()
        ws, we = oee.shift_occurrence(sh.start, sh.end, day, tz)
        worked = day.isoweekday() in set(sh.days)
        hi = min(we, now)
        machines = list(s.execute(select(MesMachine).order_by(MesMachine.code)).scalars())
        windows = [(ws, hi)] if worked and ws < hi else []
        rows: list[OeeMachineOut] = []
        total = oee.Totals()
        stops: dict[tuple[str, str], list[float]] = {}
        scrap = 0
        if windows:
            got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], [windows], now, planned_reasons(s, ctx))
            for m in machines:
                t = sums.totals(got.get((0, m.id)), windows, m.ideal_cycle_seconds)
                total.add(t)
                rows.append(OeeMachineOut(machine_id=m.id, code=m.code, name=m.name, **t.figures()))
                scrap += t.total - t.good
            P = MesStatusPeriod
            for status, reason, start, end in s.execute(
                select(P.status, P.reason, P.started_at, P.ended_at).where(
                    P.status.in_(STOPPED), P.started_at < hi, or_(P.ended_at.is_(None), P.ended_at > ws)
                )
            ):
                secs = (min(end or now, hi) - max(start, ws)).total_seconds()
                if secs > 0:
                    agg = stops.setdefault((reason or "unspecified", status), [0.0, 0])
                    agg[0] += secs
                    agg[1] += 1
        return ShiftReportOut(
            shift=ShiftOut.model_validate(sh),
            date=day,
            window_start=ws if worked else None,
            window_end=we if worked else None,
            oee=OeeOut(**total.figures()),
            machines=rows,
            good_count=total.good,
            scrap_count=scrap,
            stops=[
                StopOut(reason=r, status=st, seconds=round(v[0], 3), stops=int(v[1]))
                for (r, st), v in sorted(stops.items(), key=lambda kv: -kv[1][0])
            ],
        )
