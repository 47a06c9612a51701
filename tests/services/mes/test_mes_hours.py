"""OEE's hour sums (services/mes/hours.py): on an irregular history (times to the second, stops
with planned and unplanned reasons, late corrections, a planned start inside an hour, an open
period, a window cutting hours) OEE read from the hours equals OEE read from the periods, before
and after more live and back-dated events; a machine whose hours are not complete is summed
whole at its next event."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select

from local_db.models.mes import MesHourSum
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.mes import hours
from tests.services.mes.test_mes_service import T, ctx_for


def _history(rng: random.Random, start: Any, end: Any) -> list[dict[str, Any]]:
    t, events, last = start, [], "offline"
    while t < end:
        status = rng.choice([s for s in ("running", "idle", "down", "setup", "offline") if s != last])
        event: dict[str, Any] = {"type": "status", "status": status, "at": t.isoformat()}
        if status in ("idle", "down") and rng.random() < 0.6:
            event["reason"] = rng.choice(["break", "breakdown"])
        events.append(event)
        events += [
            {
                "type": "count",
                "good": rng.randint(0, 9),
                "scrap": rng.randint(0, 2),
                "at": (t + timedelta(seconds=41 * k)).isoformat(),
            }
            for k in range(rng.randint(0, 4))
        ]
        last, t = status, t + timedelta(seconds=rng.randint(30, 4 * 3600))
    return events


def _figures(ctx: Ctx, q: dict[str, Any]) -> list[Any]:
    return [
        [r.model_dump() for r in execute(ctx, "mes.oee.by_shift", query=q).items],
        execute(ctx, "mes.oee.overall", query=q).model_dump(),
        [r.model_dump() for r in execute(ctx, "mes.oee.by_machine", query=q).items],
    ]


def _from_periods(rt: Runtime, ctx: Ctx, q: dict[str, Any]) -> list[Any]:
    """The same figures with the hours set aside (no machine complete: every one read from its periods)."""
    with rt.db.engine.begin() as conn:
        kept = [
            dict(r._mapping) for r in conn.execute(select(MesHourSum.__table__).where(MesHourSum.hour == hours.BUILT))
        ]
        conn.execute(delete(MesHourSum).where(MesHourSum.hour == hours.BUILT))
    try:
        return _figures(ctx, q)
    finally:
        with rt.db.engine.begin() as conn:
            conn.execute(MesHourSum.__table__.insert(), kept)


def test_oee_from_hours_equals_oee_from_periods(runtime: Runtime) -> None:
    rng = random.Random(11)
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    ctx = ctx_for(runtime)
    bodies = [
        {"code": "hr-0", "name": "Hours 0", "line": "hours", "ideal_cycle_seconds": 7.5},
        {
            "code": "hr-1",
            "name": "Hours 1",
            "line": "hours",
            "ideal_cycle_seconds": 11,
            "planned_from": (T + timedelta(hours=2, minutes=17, seconds=3)).isoformat(),
        },
    ]
    ids = [execute(ctx, "mes.machines.create", body=b).id for b in bodies]
    end = T + timedelta(days=2, hours=3)
    runtime.clock = FixedClock(end)
    for mid in ids:
        execute(ctx, "mes.machines.events", id=mid, body={"events": _history(rng, T, end - timedelta(hours=1))})
        late = [
            {"type": "status", "status": "down", "at": (T + timedelta(hours=h, seconds=13)).isoformat()}
            for h in (3, 17, 30)
        ]
        execute(ctx, "mes.machines.events", id=mid, body={"events": late})
    with runtime.db.reading(ctx.tenant_id) as s:
        assert hours.built(s, ids) == set(ids)
        assert s.execute(select(func.count()).select_from(MesHourSum)).scalar_one() > 40  # the hours are there
    q = {
        "from": (T + timedelta(minutes=37, seconds=5)).isoformat(),
        "to": (end - timedelta(minutes=19)).isoformat(),
        "line": "hours",
    }
    got = _figures(ctx, q)
    assert got[1]["run_seconds"] > 0 and got[1]["planned_stop_seconds"] > 0
    assert got == _from_periods(runtime, ctx, q)

    # More: a live event, a back-dated one splitting an old period, counts in the past.
    runtime.clock = FixedClock(end + timedelta(minutes=30))
    execute(
        ctx,
        "mes.machines.events",
        id=ids[0],
        body={"events": [{"type": "status", "status": "running", "at": (end + timedelta(minutes=5)).isoformat()}]},
    )
    back = [
        {
            "type": "status",
            "status": "idle",
            "reason": "break",
            "at": (T + timedelta(hours=9, minutes=2, seconds=9)).isoformat(),
        },
        {"type": "count", "good": 5, "scrap": 2, "at": (T + timedelta(hours=20, seconds=1)).isoformat()},
    ]
    for mid in ids:
        execute(ctx, "mes.machines.events", id=mid, body={"events": back})
    q["to"] = (end + timedelta(minutes=30)).isoformat()
    assert _figures(ctx, q) == _from_periods(runtime, ctx, q)


def test_a_machine_without_hours_is_summed_whole_at_its_next_event(runtime: Runtime) -> None:
    runtime.clock = FixedClock(T - timedelta(minutes=1))
    ctx = ctx_for(runtime)
    mid = execute(ctx, "mes.machines.create", body={"code": "hr-old", "name": "Old", "ideal_cycle_seconds": 5}).id
    runtime.clock = FixedClock(T + timedelta(hours=10))
    execute(ctx, "mes.machines.events", id=mid, body={"events": _history(random.Random(3), T, T + timedelta(hours=9))})
    with runtime.db.engine.begin() as conn:  # as a machine written before the hours were kept
        conn.execute(delete(MesHourSum).where(MesHourSum.machine_id == mid))
    q = {"from": T.isoformat(), "to": (T + timedelta(hours=10)).isoformat(), "machine_id": mid}
    before = _figures(ctx, q)  # read from its periods
    execute(
        ctx,
        "mes.machines.events",
        id=mid,
        body={
            "events": [{"type": "count", "good": 1, "scrap": 0, "at": (T + timedelta(hours=9, minutes=30)).isoformat()}]
        },
    )
    with runtime.db.reading(ctx.tenant_id) as s:
        assert hours.built(s, [mid]) == {mid}
    after = _figures(ctx, q)
    assert after[1]["total_count"] == before[1]["total_count"] + 1
    assert after == _from_periods(runtime, ctx, q)
