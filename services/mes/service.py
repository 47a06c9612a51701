"""MES use cases: machines and their gateway events, live status, production runs, OEE, alarms, shifts.

Every status change of a machine, run or alarm goes through its state machine (``states``) and
emits its event in the same unit of work. OEE comes from ``oee`` (DOMAIN.md §1), summing times
and counts, never averaging percentages.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.core import Tenant
from local_db.models.mes import MesAlarm, MesCount, MesMachine, MesRun, MesShift, MesStatusPeriod
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import ListQuery, Page, page_spec, paginate
from services.core.roles import MANAGERS, STAFF
from services.mes import oee, states, sums
from services.mes.schemas import (
    STOP_REASONS,
    AlarmEvent,
    AlarmOut,
    AlarmQuery,
    CountEvent,
    LiveStatusOut,
    MachineEventsIn,
    MachineEventsOut,
    MachineIn,
    MachineOut,
    MachineQuery,
    MachineUpdate,
    OeeMachineOut,
    OeeOut,
    OeeShiftOut,
    PartOut,
    ReportQuery,
    RunIn,
    RunOut,
    RunQuery,
    RunUpdate,
    ShiftIn,
    ShiftOut,
    ShiftReportOut,
    StatusEvent,
    StopOut,
    Window,
    WindowQuery,
)

MACHINE = record_kind("mes.machine", get="mes.machines.get", label="code")
RUN = record_kind("mes.run", get="mes.runs.get", label="product")
ALARM = record_kind("mes.alarm", get="mes.alarms.get", label="code")
SHIFT = record_kind("mes.shift", get="mes.shifts.get", label="name")
FUTURE_SLACK = timedelta(minutes=5)  # a gateway's clock may run a little ahead of ours
MAX_WINDOW = timedelta(days=400)
STOPPED = ("idle", "setup", "down")


# --- helpers ------------------------------------------------------------------------------


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


def _run(s: Session, rid: str, *, lock: bool = False) -> MesRun:
    r = s.get(MesRun, rid, with_for_update=lock or None)
    if r is None:
        raise NotFound("production run not found", {"id": rid})
    return r


def _alarm(s: Session, aid: str) -> MesAlarm:
    a = s.get(MesAlarm, aid, with_for_update=True)
    if a is None:
        raise NotFound("alarm not found", {"id": aid})
    return a


def _at(ctx: Ctx, at: datetime | None) -> datetime:
    now = ctx.now()
    if at is None:
        return now
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    if at > now + FUTURE_SLACK:
        raise ValidationFailed("an event's time is in the future", {"at": at.isoformat(), "now": now.isoformat()})
    return at.astimezone(UTC)


def set_status(ctx: Ctx, s: Session, m: MesMachine, status: str, reason: str | None, at: datetime) -> bool:
    """Move the machine to ``status`` at ``at``; True when its live status changed.

    ``at`` before the live status began corrects the history (the period holding ``at`` is split)
    without touching the live status. The same status again with a reason records the reason.
    """
    if at < m.status_since:
        p = s.execute(
            select(MesStatusPeriod)
            .where(MesStatusPeriod.machine_id == m.id, MesStatusPeriod.started_at <= at)
            .order_by(MesStatusPeriod.started_at.desc())
            .limit(1)
        ).scalar_one_or_none()
        if p is None or p.status == status:
            return False
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
    _open_period(s, m).ended_at = at
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


# --- machines -----------------------------------------------------------------------------


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
            created_at=now,
            updated_at=now,
        )
        s.add(m)
        s.add(MesStatusPeriod(id=new_id(), machine_id=m.id, status=body.status, started_at=now))
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
        for f in ("name", "line", "ideal_cycle_seconds"):
            if f in fields and (fields[f] is not None or f == "line"):
                setattr(m, f, fields[f])
        if body.status is not None:
            set_status(ctx, s, m, body.status, body.reason, ctx.now())
        elif "reason" in fields:
            m.reason = body.reason
            _open_period(s, m).reason = body.reason
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
                if e.status == m.status and at >= m.status_since and e.reason in (None, m.reason):
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


# --- production runs ----------------------------------------------------------------------


RUN_SORT = {
    "created_at": MesRun.created_at,
    "started_at": MesRun.started_at,
    "status": MesRun.status,
    "product": MesRun.product,
}


@use_case("mes.runs.list", "GET /production/runs", tx="read", roles=STAFF)
def list_runs(ctx: Ctx, query: RunQuery) -> Page[RunOut]:
    stmt = select(MesRun)
    if query.status:
        stmt = stmt.where(MesRun.status == query.status)
    if query.machine_id:
        stmt = stmt.where(MesRun.machine_id == query.machine_id)
    if query.search:
        stmt = stmt.where(MesRun.product.ilike(f"%{query.search}%"))
    with ctx.read() as s:
        return paginate(s, stmt, query, columns=RUN_SORT).map(RunOut.model_validate)


@use_case("mes.runs.get", "GET /production/runs/{id}", tx="read", roles=STAFF)
def get_run(ctx: Ctx, id: str) -> RunOut:
    with ctx.read() as s:
        return RunOut.model_validate(_run(s, id))


def _move_run(ctx: Ctx, s: Session, run: MesRun, m: MesMachine, target: str, reason: str | None) -> None:
    action = states.run_action(run.status, target)
    if target == "running" and action == "start" and run.status == "planned":
        busy = _current_run(s, m.id)
        if busy is not None and busy.id != run.id:
            raise Conflict(
                f"machine {m.code} already runs {busy.product}: pause or complete it first",
                {"machine_id": m.id, "run_id": busy.id, "status": busy.status},
            )
    run.status = states.RUN.check(run.status, action)
    now = ctx.now()
    data: dict[str, Any] = {"run_id": run.id, "machine_id": m.id, "product": run.product, "status": run.status}
    if action == "start":
        run.started_at = now
    if run.status in states.RUN_ENDED:
        run.ended_at = now
        data.update(good_count=run.good_count, scrap_count=run.scrap_count, ended_at=now.isoformat())
    # The machine follows its run: running while it runs, idle (with the reason) when held or ended.
    wanted = "running" if run.status == "running" else "idle"
    if m.status != wanted or (wanted == "idle" and reason and reason != m.reason):
        set_status(ctx, s, m, wanted, None if wanted == "running" else reason, now)
    event = {
        "running": "production.run_started",
        "paused": "production.run_paused",
        "completed": "production.run_completed",
        "aborted": "production.run_aborted",
    }[run.status]
    if event == "production.run_completed":
        data["planned_quantity"] = run.planned_quantity
    emit(ctx, event, data)


@use_case(
    "mes.runs.create",
    "POST /production/runs",
    tx="write",
    roles=STAFF,
    status=201,
    says="New production run",
    record=RUN,
)
def create_run(ctx: Ctx, body: RunIn) -> RunOut:
    now = ctx.now()
    with ctx.write() as s:
        m = _machine(s, body.machine_id, lock=True)
        run = MesRun(
            id=new_id(),
            machine_id=m.id,
            product=body.product,
            planned_quantity=body.planned_quantity,
            status="planned",
            created_at=now,
            updated_at=now,
        )
        s.add(run)
        s.flush()
        if body.status == "running":
            _move_run(ctx, s, run, m, "running", None)
        s.flush()
        return RunOut.model_validate(run)


@use_case(
    "mes.runs.update",
    "PUT /production/runs/{id}",
    tx="write",
    roles=STAFF,
    says="Update production run",
    record=RUN,
    summary="move the run (status) and/or add good and scrap counts",
)
def update_run(ctx: Ctx, id: str, body: RunUpdate) -> RunOut:
    with ctx.write() as s:
        run = _run(s, id, lock=True)
        m = _machine(s, run.machine_id, lock=True)
        if run.status in states.RUN_ENDED and (body.good or body.scrap or body.status or body.product):
            raise Conflict(
                f"the run is {run.status}: its counts are frozen",
                {"current": run.status, "current_state": run.status, "status": run.status, "id": run.id},
            )
        if body.product is not None:
            run.product = body.product
        if body.planned_quantity is not None:
            run.planned_quantity = body.planned_quantity
        # Counts first: the parts made before a completion belong to the run.
        add_count(ctx, s, m, run, body.good, body.scrap, ctx.now(), "operator")
        if body.status is not None and body.status != run.status:
            _move_run(ctx, s, run, m, body.status, body.reason)
        elif body.status is not None and body.status == run.status and not (body.good or body.scrap):
            states.RUN.check(run.status, states.run_action(run.status, body.status))  # 409 with the state
        run.updated_at = ctx.now()
        s.flush()
        return RunOut.model_validate(run)


@use_case("mes.runs.parts", "GET /production/runs/{id}/parts", tx="read", roles=STAFF, summary="recorded counts")
def run_parts(ctx: Ctx, id: str, query: ListQuery) -> Page[PartOut]:
    with ctx.read() as s:
        _run(s, id)
        stmt = select(MesCount).where(MesCount.run_id == id)
        page = paginate(s, stmt, query, columns={"at": MesCount.at}, default_sort="-at")
        return page.map(PartOut.model_validate)


# --- OEE ----------------------------------------------------------------------------------


def window(ctx: Ctx, q: Window) -> tuple[datetime, datetime]:
    now = ctx.now()
    lo = oee.parse_bound(q.from_, end=False) or datetime.combine(now.date(), datetime.min.time(), UTC)
    hi = oee.parse_bound(q.to, end=True) or (lo + timedelta(days=1) if q.from_ is not None else now)
    if hi <= lo:
        raise ValidationFailed("'to' must be after 'from'", {"from": lo.isoformat(), "to": hi.isoformat()})
    if hi - lo > MAX_WINDOW:
        raise ValidationFailed("the window is at most 400 days", {"days": (hi - lo).days})
    return lo, hi


def _machines(s: Session, q: Window) -> list[MesMachine]:
    stmt = select(MesMachine).order_by(MesMachine.code)
    if q.machine_id:
        stmt = stmt.where(MesMachine.id == q.machine_id)
    if q.line:
        stmt = stmt.where(MesMachine.line == q.line)
    return list(s.execute(stmt).scalars())


def _page(rows: list[Any], query: ListQuery) -> Page[Any]:
    """A computed list, paged like every list (in the order it was computed)."""
    spec = page_spec(query, sortable=[], default_sort=None)
    return Page(rows[spec.offset : spec.offset + spec.limit], len(rows), spec)


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
    got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], [windows], ctx.now())
    return {m.id: sums.totals(got.get((0, m.id)), windows, m.ideal_cycle_seconds) for m in machines}


@use_case("mes.oee.overall", "GET /oee", tx="read", roles=STAFF, summary="OEE of all (or some) machines")
def oee_overall(ctx: Ctx, query: Window) -> OeeOut:
    lo, hi = window(ctx, query)
    with ctx.read() as s:
        total = oee.Totals()
        for t in _totals(s, ctx, _machines(s, query), lo, hi).values():
            total.add(t)
        return OeeOut(**total.figures())


@use_case("mes.oee.by_machine", "GET /oee/by-machine", tx="read", roles=STAFF)
def oee_by_machine(ctx: Ctx, query: WindowQuery) -> Page[OeeMachineOut]:
    lo, hi = window(ctx, query)
    with ctx.read() as s:
        machines = _machines(s, query)
        totals = _totals(s, ctx, machines, lo, hi)
        rows = [OeeMachineOut(machine_id=m.id, code=m.code, name=m.name, **totals[m.id].figures()) for m in machines]
        return _page(rows, query)


@use_case("mes.oee.by_shift", "GET /oee/by-shift", tx="read", roles=STAFF, summary="OEE per shift over the window")
def oee_by_shift(ctx: Ctx, query: WindowQuery) -> Page[OeeShiftOut]:
    lo, hi = window(ctx, query)
    out: list[OeeShiftOut] = []
    with ctx.read() as s:
        machines = _machines(s, query)
        tz = tenant_tz(s, ctx)
        shifts = _shifts(s)
        groups = [oee.shift_windows(sh.start, sh.end, sh.days, lo, hi, tz) for sh in shifts]
        got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], groups, ctx.now())
        for g, (sh, windows) in enumerate(zip(shifts, groups, strict=True)):
            total = oee.Totals()
            for m in machines:
                total.add(sums.totals(got.get((g, m.id)), windows, m.ideal_cycle_seconds))
            out.append(OeeShiftOut(shift_id=sh.id, name=sh.name, **total.figures()))
    return _page(out, query)


# --- alarms -------------------------------------------------------------------------------


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


# --- shifts -------------------------------------------------------------------------------


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
            got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], [windows], now)
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
