"""MES that tells the truth: time before a machine's history is unrecorded, never down; stop reasons
come from the tenant's list with their category (planned stops leave availability alone), a reason
not on it is refused; a back-dated history gives the same figures as the same history reported
live; a configured planned start clips what came before."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Forbidden, ValidationFailed
from tests.services.mes.test_mes_service import T, ctx_for

EARLY = {"from": T.isoformat(), "to": (T + timedelta(hours=8)).isoformat()}
FIGURES = ("availability", "performance", "quality", "oee", "planned_seconds", "run_seconds", "total_count")


def history(t0: Any) -> list[dict[str, Any]]:
    """An early shift: running, a break (planned), running, a breakdown (unplanned), running."""

    def at(minutes: int) -> str:
        return (t0 + timedelta(minutes=minutes)).isoformat()

    return [
        {"type": "status", "status": "running", "at": at(0)},
        {"type": "status", "status": "idle", "reason": "break", "at": at(120)},
        {"type": "status", "status": "running", "at": at(150)},
        {"type": "status", "status": "down", "reason": "Breakdown", "at": at(300)},
        {"type": "status", "status": "running", "at": at(360)},
        *({"type": "count", "good": 9, "scrap": 1, "at": at(5 + 10 * i)} for i in range(40)),
    ]


def test_a_new_machine_is_unrecorded_not_down(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    runtime.clock = FixedClock(T + timedelta(hours=6))  # six hours into the early shift
    m = execute(ctx, "mes.machines.create", body={"code": "new-1", "name": "New", "status": "running"})
    runtime.clock = FixedClock(T + timedelta(hours=6, seconds=30))
    f = execute(ctx, "mes.oee.overall", query={**EARLY, "machine_id": m.id})
    # Thirty seconds of history: thirty seconds planned, all running; the rest is unrecorded.
    assert (f.planned_seconds, f.run_seconds, f.availability) == (30, 30, 1.0)
    assert f.unrecorded_seconds == 8 * 3600 - 30 and f.unplanned_stop_seconds == 0


def test_stop_reasons_listed_enforced_and_planned_stops_leave_availability(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    got = execute(ctx, "mes.stop_reasons.list").reasons
    by = {r.reason: r for r in got}
    assert by["break"].category == "planned" and by["break"].loss is None
    assert by["breakdown"].category == "unplanned" and by["breakdown"].loss == "equipment_failure"
    assert {r.loss for r in got} >= {"equipment_failure", "setup_adjustments", "idling_minor_stops"}
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    m = execute(ctx, "mes.machines.create", body={"code": "rsn-1", "name": "Reasons"})
    runtime.clock = FixedClock(T + timedelta(hours=8))
    for bad in (
        {"type": "status", "status": "idle", "reason": "coffee", "at": T.isoformat()},
        {"events": [{"type": "status", "status": "down", "reason": "coffee", "at": T.isoformat()}]},
    ):
        with pytest.raises(ValidationFailed) as e:
            execute(ctx, "mes.machines.events", id=m.id, body=bad)
        assert "coffee" in str(e.value)
    with pytest.raises(ValidationFailed):
        execute(ctx, "mes.machines.update", id=m.id, body={"status": "down", "reason": "coffee"})
    assert execute(ctx, "mes.machines.get", id=m.id).status == "offline"  # nothing stored
    execute(ctx, "mes.machines.events", id=m.id, body={"events": history(T)})
    f = execute(ctx, "mes.oee.overall", query={**EARLY, "machine_id": m.id})
    # 480 min recorded less the 30-minute break: 450 planned; the 60-minute breakdown is the loss.
    assert (f.planned_seconds, f.run_seconds) == (450 * 60, 390 * 60)
    assert (f.planned_stop_seconds, f.unplanned_stop_seconds, f.unrecorded_seconds) == (30 * 60, 60 * 60, 0)
    assert f.availability == round(390 / 450, 3)
    # The reason is stored as the list spells it ("Breakdown" sent).
    assert execute(ctx, "mes.machines.update", id=m.id, body={"status": "down", "reason": "BREAKDOWN"}).reason == (
        "breakdown"
    )
    # A tenant's own list: "coffee" becomes a planned stop; a list that breaks the rules is 400.
    mine = [
        {"reason": "coffee", "category": "planned"},
        {"reason": "jam", "category": "unplanned", "loss": "idling_minor_stops"},
    ]
    assert [r.reason for r in execute(ctx, "mes.stop_reasons.save", body={"reasons": mine}).reasons] == [
        "coffee",
        "jam",
    ]
    for wrong in (
        [{"reason": "jam", "category": "unplanned"}],  # no loss named
        [{"reason": "tea", "category": "planned", "loss": "reduced_speed"}],
        [{"reason": "jam", "category": "unplanned", "loss": "sloth"}],
        [*mine, {"reason": "Coffee", "category": "planned"}],
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "mes.stop_reasons.save", body={"reasons": wrong})
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "operator@demo.test"), "mes.stop_reasons.save", body={"reasons": mine})
    assert execute(ctx, "mes.machines.update", id=m.id, body={"status": "idle", "reason": "coffee"}).reason == "coffee"


def test_a_back_dated_history_gives_the_same_figures_as_a_live_one(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    # Live: the machine exists before the shift, each event is sent as it happens.
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    live = execute(ctx, "mes.machines.create", body={"code": "live-1", "name": "Live", "ideal_cycle_seconds": 50})
    for e in sorted(history(T), key=lambda e: str(e["at"])):
        runtime.clock = FixedClock(datetime.fromisoformat(e["at"]))
        execute(ctx, "mes.machines.events", id=live.id, body=e)
    runtime.clock = FixedClock(T + timedelta(hours=8))
    # Back-dated: made 400 days later, sent the same shift (400 days old) in one batch.
    later = T + timedelta(days=400)
    runtime.clock = FixedClock(later)
    old = execute(ctx, "mes.machines.create", body={"code": "old-1", "name": "Old", "ideal_cycle_seconds": 50})
    execute(ctx, "mes.machines.events", id=old.id, body={"events": history(T)})
    a = execute(ctx, "mes.oee.overall", query={**EARLY, "machine_id": live.id})
    b = execute(ctx, "mes.oee.overall", query={**EARLY, "machine_id": old.id})
    assert b.run_seconds == 390 * 60 and b.total_count == 400
    assert {k: getattr(a, k) for k in FIGURES} == {k: getattr(b, k) for k in FIGURES}
    shifts_a = {r.name: r.oee for r in execute(ctx, "mes.oee.by_shift", query={**EARLY, "machine_id": live.id}).items}
    shifts_b = {r.name: r.oee for r in execute(ctx, "mes.oee.by_shift", query={**EARLY, "machine_id": old.id}).items}
    assert shifts_a == shifts_b and shifts_a["Early"] > 0


def test_a_configured_planned_start_clips_what_came_before(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    body = {"code": "cfg-1", "name": "Commissioned", "planned_from": (T + timedelta(hours=4)).isoformat()}
    m = execute(ctx, "mes.machines.create", body=body)
    runtime.clock = FixedClock(T + timedelta(hours=8))
    execute(ctx, "mes.machines.events", id=m.id, body={"events": history(T)})
    f = execute(ctx, "mes.oee.overall", query={**EARLY, "machine_id": m.id})
    # From 10:00: running 60 min, the breakdown 60, running 120; the first four hours unrecorded.
    assert (f.planned_seconds, f.run_seconds, f.unrecorded_seconds) == (240 * 60, 180 * 60, 240 * 60)
    assert f.total_count == 160  # the counts from 10:00 on only (10:05 to 12:35)
