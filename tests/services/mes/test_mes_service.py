"""MES use cases through ``execute``: OEE exactly as DOMAIN.md computes it, gateway events, runs,
ISA-18.2 alarms, shifts and their reports, strangers and wrong states."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from local_db.models import OutboxEntry
from local_db.models.events import Event
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.mes import oee

OWNER = "owner@demo.test"
T = datetime(2027, 3, 1, 6, 0, tzinfo=UTC)  # a Monday, the start of the demo's early shift


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def at(minutes: float) -> str:
    return (T + timedelta(minutes=minutes)).isoformat()


def events_of(rt: Runtime, type_: str) -> list[dict[str, Any]]:
    with rt.db.reading(None) as s:
        return [e.data for e in s.execute(select(Event).where(Event.type == type_)).scalars()]


def test_the_domain_vector_exactly() -> None:
    # DOMAIN.md §1: PPT 480 min, run 420, ideal cycle 1 min, total 400, good 380.
    f = oee.compute(480 * 60, 420 * 60, 60, 400, 380)
    assert (round(f["availability"] * 100, 1), round(f["performance"] * 100, 1)) == (87.5, 95.2)
    assert (round(f["quality"] * 100, 1), round(f["oee"] * 100, 1)) == (95.0, 79.1)
    assert (f["availability"], f["performance"], f["quality"], f["oee"]) == (0.875, 0.952, 0.95, 0.791)
    assert f["oee"] == pytest.approx(380 * 60 / (480 * 60), abs=1e-3)  # = good x ideal cycle / PPT


def two_shift_day(rt: Runtime) -> str:
    """A machine through the early shift (the DOMAIN vector) and the late shift (a weaker one)."""
    rt.clock = FixedClock(T - timedelta(minutes=1))
    m = execute(ctx_for(rt), "mes.machines.create", body={"code": "vec-1", "name": "Vector", "ideal_cycle_seconds": 60})
    rt.clock = FixedClock(T + timedelta(hours=17))
    events: list[dict[str, Any]] = [
        {"type": "status", "status": "running", "at": at(0)},
        {"type": "status", "status": "down", "reason": "breakdown", "at": at(420)},
        {"type": "status", "status": "running", "at": at(480)},
        {"type": "status", "status": "idle", "reason": "material shortage", "at": at(720)},
        {"type": "status", "status": "offline", "at": at(960)},
    ]
    events += [{"type": "count", "good": 19, "scrap": 1, "at": at(10 + 20 * i)} for i in range(20)]
    events += [{"type": "count", "good": 15, "scrap": 5, "at": at(490 + 20 * i)} for i in range(10)]
    out = execute(ctx_for(rt), "mes.machines.events", id=m.id, body={"events": events})
    assert (out.accepted, out.status_changes, out.counts) == (35, 5, {"good": 530, "scrap": 70})
    return m.id


def test_oee_by_machine_and_by_shift_sum_times_and_counts(runtime: Runtime) -> None:
    mid = two_shift_day(runtime)
    window = {"from": T.isoformat(), "to": (T + timedelta(hours=16)).isoformat(), "machine_id": mid}
    shifts = {r.name: r for r in execute(ctx_for(runtime), "mes.oee.by_shift", query=window).items}
    early, late = shifts["Early"], shifts["Late"]
    assert (early.availability, early.performance, early.quality, early.oee) == (0.875, 0.952, 0.95, 0.791)
    assert early.planned_seconds == 480 * 60
    assert (late.availability, late.quality, late.total_count) == (0.5, 0.75, 200)
    assert shifts["Night"].planned_seconds == 0 and shifts["Night"].oee == 0
    overall = execute(ctx_for(runtime), "mes.oee.overall", query=window)
    summed = oee.Totals()
    for r in (early, late):
        summed.add(oee.Totals(r.planned_seconds, r.run_seconds, r.ideal_seconds, r.total_count, r.good_count))
    assert overall.model_dump() == summed.figures()
    assert (overall.planned_seconds, overall.run_seconds, overall.total_count, overall.good_count) == (
        960 * 60,
        660 * 60,
        600,
        530,
    )
    # Summed, not averaged: the mean of the shifts' percentages is another (wrong) figure.
    assert overall.performance == pytest.approx(600 / 660, abs=1e-3) != pytest.approx((0.952 + 0.833) / 2, abs=1e-3)
    assert overall.quality == pytest.approx(530 / 600, abs=1e-3) != pytest.approx((0.95 + 0.75) / 2, abs=1e-3)
    by_machine = execute(ctx_for(runtime), "mes.oee.by_machine", query=window).items
    assert [r.machine_id for r in by_machine] == [mid] and by_machine[0].oee == overall.oee
    # The shift report: OEE, counts and the stops by reason.
    report = execute(
        ctx_for(runtime), "mes.shifts.report", id=demo_id("mes-shift", "late"), query={"date": "2027-03-01"}
    )
    machine = next(r for r in report.machines if r.machine_id == mid)
    assert (machine.good_count, machine.total_count) == (150, 200)
    stop = next(st for st in report.stops if st.reason == "material shortage")
    assert (stop.status, stop.seconds, stop.stops) == ("idle", 240 * 60, 1)
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "mes.oee.overall", query={"from": "2027-03-02", "to": "2027-03-01"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "mes.oee.overall", query={"from": "yesterday"})


def test_a_late_event_corrects_history_and_live_status_counts_today(runtime: Runtime) -> None:
    mid = two_shift_day(runtime)
    # A stop the gateway reports late (inside the early shift) corrects history, not the live status.
    execute(ctx_for(runtime), "mes.machines.events", id=mid, body={"type": "status", "status": "setup", "at": at(60)})
    live = execute(ctx_for(runtime), "mes.machines.status", id=mid)
    assert live.status == "offline" and live.today["good"] == 530 and "breakdown" in live.stop_reasons
    early = execute(ctx_for(runtime), "mes.oee.overall", query={"from": at(0), "to": at(480), "machine_id": mid})
    assert early.run_seconds == 60 * 60  # 06:00-07:00 running, then setup until the 13:00 breakdown
    with pytest.raises(ValidationFailed):  # a gateway clock far ahead
        execute(ctx_for(runtime), "mes.machines.events", id=mid, body={"type": "count", "good": 1, "at": at(5000)})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "mes.machines.events", id=mid, body={"type": "teleport"})


def test_runs_move_the_machine_and_freeze_counts(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    m = execute(ctx, "mes.machines.create", body={"code": "run-1", "name": "Runner", "status": "idle"})
    run = execute(ctx, "mes.runs.create", body={"machine_id": m.id, "product": "Gear", "planned_quantity": 10})
    assert run.status == "planned"
    run = execute(ctx_for(runtime), "mes.runs.update", id=run.id, body={"status": "running"})
    assert run.status == "running" and execute(ctx, "mes.machines.get", id=m.id).status == "running"
    other = execute(ctx, "mes.runs.create", body={"machine_id": m.id, "product": "Other"})
    with pytest.raises(Conflict):  # one run at a time on a machine
        execute(ctx_for(runtime), "mes.runs.update", id=other.id, body={"status": "running"})
    run = execute(ctx_for(runtime), "mes.runs.update", id=run.id, body={"good": 5, "scrap": 1})
    paused = execute(ctx_for(runtime), "mes.runs.update", id=run.id, body={"status": "paused", "reason": "break"})
    machine = execute(ctx, "mes.machines.get", id=m.id)
    assert paused.status == "paused" and (machine.status, machine.reason) == ("idle", "break")
    done = execute(ctx_for(runtime), "mes.runs.update", id=run.id, body={"status": "completed", "good": 2})
    assert (done.status, done.good_count, done.scrap_count) == ("completed", 7, 1) and done.ended_at is not None
    completed = [e for e in events_of(runtime, "production.run_completed") if e["run_id"] == run.id]
    assert completed and completed[0]["good_count"] == 7
    assert any(e["machine_id"] == m.id for e in events_of(runtime, "machine.status_changed"))
    with pytest.raises(Conflict) as frozen:
        execute(ctx_for(runtime), "mes.runs.update", id=run.id, body={"good": 1})
    assert frozen.value.details["current"] == "completed"
    parts = execute(ctx, "mes.runs.parts", id=run.id, query={})
    assert sum(p.good for p in parts.items) == 7 and parts.total == 2
    with pytest.raises(Conflict):  # a planned run cannot pause
        execute(ctx_for(runtime), "mes.runs.update", id=other.id, body={"status": "paused"})
    with pytest.raises(Conflict):  # the machine is idle already
        execute(ctx_for(runtime), "mes.machines.update", id=m.id, body={"status": "idle"})


def test_isa_18_2_alarm_states(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    m = execute(ctx, "mes.machines.create", body={"code": "alm-1", "name": "Alarmed"})
    raise_ = {"type": "alarm", "code": "E7", "message": "Guard open", "severity": "critical"}
    assert execute(ctx_for(runtime), "mes.machines.events", id=m.id, body=raise_).alarms_raised == 1
    assert execute(ctx_for(runtime), "mes.machines.events", id=m.id, body=raise_).alarms_raised == 0  # already active
    active = [a for a in execute(ctx, "mes.alarms.active", query={}).items if a.machine_id == m.id]
    assert [a.state for a in active] == ["active_unacknowledged"]
    assert any(e["alarm_id"] == active[0].id for e in events_of(runtime, "machine.alarm"))
    clear = {"type": "alarm_clear", "code": "E7"}
    assert execute(ctx_for(runtime), "mes.machines.events", id=m.id, body=clear).alarms_cleared == 1
    a = execute(ctx, "mes.alarms.get", id=active[0].id)
    assert a.state == "cleared_unacknowledged"  # returned to normal, still listed until acknowledged
    assert active[0].id in {x.id for x in execute(ctx, "mes.alarms.active", query={}).items}
    a = execute(ctx_for(runtime), "mes.alarms.acknowledge", id=a.id)
    assert a.state == "cleared" and a.acknowledged_at is not None
    assert a.id not in {x.id for x in execute(ctx, "mes.alarms.active", query={}).items}
    with pytest.raises(Conflict):
        execute(ctx_for(runtime), "mes.alarms.acknowledge", id=a.id)
    # Acknowledged while active, then cleared: cleared.
    execute(ctx_for(runtime), "mes.machines.events", id=m.id, body=raise_)
    again = next(x for x in execute(ctx, "mes.alarms.active", query={}).items if x.machine_id == m.id)
    assert again.id != a.id
    assert execute(ctx_for(runtime), "mes.alarms.acknowledge", id=again.id).state == "active_acknowledged"
    execute(ctx_for(runtime), "mes.machines.events", id=m.id, body=clear)
    assert execute(ctx, "mes.alarms.get", id=again.id).state == "cleared"
    # The demo's alarm waits for someone.
    demo = execute(ctx, "mes.alarms.get", id=demo_id("mes-alarm", "PRS-01", "E42"))
    assert demo.state == "active_unacknowledged"


def test_shifts_bad_input_and_strangers(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    shift = execute(
        ctx, "mes.shifts.create", body={"name": "Weekend", "start": "08:00", "end": "16:00", "days": [6, 7]}
    )
    assert shift.days == [6, 7]
    for bad in ({"name": "x", "start": "25:00", "end": "08:00"}, {"name": "x", "start": "08:00", "end": "08:00"}):
        with pytest.raises(ValidationFailed):
            execute(ctx_for(runtime), "mes.shifts.create", body=bad)
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(runtime), "mes.shifts.create", body={"name": "x", "start": "08:00", "end": "09:00", "days": [8]}
        )
    with pytest.raises(Forbidden):  # operators run machines; managers define shifts
        execute(ctx_for(runtime, "operator@demo.test"), "mes.shifts.list", query={})
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "device@demo.test"), "mes.machines.list", query={})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime, "owner@other.test", "other"), "mes.machines.get", id=demo_id("mes-machine", "CNC-01"))
    with pytest.raises(Conflict):
        execute(ctx_for(runtime), "mes.machines.create", body={"code": "cnc-01", "name": "Twin"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "mes.machines.create", body={"code": "X", "name": "x", "ideal_cycle_seconds": 0})
    machines = execute(ctx, "mes.machines.list", query={"limit": 100}).items
    assert {"CNC-01", "PRS-01"} <= {m.code for m in machines}


def test_a_station_change_waits_in_the_outbox(station: Runtime) -> None:
    mid = demo_id("mes-machine", "CNC-01")
    execute(ctx_for(station), "mes.runs.update", id=demo_id("mes-run", "brackets"), body={"good": 3})
    with station.db.reading(None) as s:
        entry = s.execute(select(OutboxEntry).where(OutboxEntry.command == "mes.runs.update")).scalar_one()
    assert entry.method == "PUT" and entry.body == {"good": 3}
    assert execute(ctx_for(station), "mes.machines.get", id=mid).code == "CNC-01"


def test_the_database_sums_equal_the_reference_sweep(runtime: Runtime) -> None:
    """OEE's sums come from SQL (GROUP BY over the shift windows); on an irregular history (times
    to the second, periods across shift borders and midnight, late corrections, an open period, a
    window cutting periods) they equal ``oee.machine_totals``' sweep over the rows in Python."""
    import random

    from local_db.models.mes import MesCount, MesShift, MesStatusPeriod
    from services.mes.lookups import tenant_tz

    rng = random.Random(7)
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    ctx = ctx_for(runtime)
    ids = [
        execute(
            ctx,
            "mes.machines.create",
            body={"code": f"ref-{n}", "name": f"Ref {n}", "line": "ref", "ideal_cycle_seconds": 7.5},
        ).id
        for n in range(2)
    ]
    end = T + timedelta(days=2, hours=3)
    runtime.clock = FixedClock(end)
    for mid in ids:
        t, events, last = T, [], "offline"
        while t < end - timedelta(hours=1):
            status = rng.choice([s for s in ("running", "idle", "down", "setup", "offline") if s != last])
            events.append({"type": "status", "status": status, "at": t.isoformat()})
            events += [
                {
                    "type": "count",
                    "good": rng.randint(0, 9),
                    "scrap": rng.randint(0, 2),
                    "at": (t + timedelta(seconds=k * 41)).isoformat(),
                }
                for k in range(rng.randint(0, 4))
            ]
            last, t = status, t + timedelta(seconds=rng.randint(30, 5 * 3600))
        execute(ctx, "mes.machines.events", id=mid, body={"events": events})
        late = [
            {"type": "status", "status": "down", "at": (T + timedelta(hours=h, seconds=13)).isoformat()}
            for h in (3, 17, 30)
        ]
        execute(ctx, "mes.machines.events", id=mid, body={"events": late})
    lo, hi = T + timedelta(minutes=37, seconds=5), end - timedelta(minutes=19)
    q = {"from": lo.isoformat(), "to": hi.isoformat(), "line": "ref"}
    got = {r.name: r for r in execute(ctx, "mes.oee.by_shift", query=q).items}
    overall = execute(ctx, "mes.oee.overall", query=q)
    with runtime.db.reading(ctx.tenant_id) as s:
        periods = {
            mid: [
                (p.started_at, p.ended_at or max(end, p.started_at), p.status)
                for p in s.execute(
                    select(MesStatusPeriod)
                    .where(MesStatusPeriod.machine_id == mid)
                    .order_by(MesStatusPeriod.started_at)
                ).scalars()
            ]
            for mid in ids
        }
        counts = {
            mid: [
                (c.at, c.good, c.scrap)
                for c in s.execute(select(MesCount).where(MesCount.machine_id == mid).order_by(MesCount.at)).scalars()
            ]
            for mid in ids
        }
        shifts = list(s.execute(select(MesShift)).scalars())
        tz = tenant_tz(s, ctx)
    assert len(shifts) == 3 and all(len(periods[m]) > 20 for m in ids)
    every = oee.Totals()
    for sh in shifts:
        windows = oee.shift_windows(sh.start, sh.end, sh.days, lo, hi, tz)
        ref = oee.Totals()
        for mid in ids:
            ref.add(oee.machine_totals(periods[mid], counts[mid], windows, 7.5))
        every.add(ref)
        assert got[sh.name].model_dump(exclude={"shift_id", "name"}) == ref.figures(), sh.name
    assert overall.model_dump() == every.figures()
