"""MES bills of materials, routings and operator time: a completed run's parts leave Inventory and its
good units come in (Inventory's reaction to the run's event, one unit of work), and the bad paths."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models.mes import MesBom, MesOperatorTime, MesRun
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, NotFound, ValidationFailed
from tests.services.mes.test_mes_service import ctx_for, events_of

T = datetime(2027, 3, 1, 6, 0, tzinfo=UTC)
BOM = {
    "product": "GEARBOX-1",
    "name": "Gearbox",
    "components": [{"sku": "GEAR-A", "quantity": 2}, {"sku": "BOLT-M6", "quantity": 4}],
}


def _stock(rt: Runtime, sku: str, loc: str = "MAIN") -> int:
    rows = execute(ctx_for(rt), "inventory.stock.list", query={"sku": sku, "location_id": loc}).items
    return sum(r.quantity for r in rows)


def _count(rt: Runtime, model: Any) -> int:
    tenant = auth.load_tenant(rt.db, "demo")
    with rt.db.reading(tenant.id) as s:
        return int(s.execute(select(func.count()).select_from(model)).scalar_one())


def test_a_completed_run_consumes_its_bom_and_receives_its_goods(runtime: Runtime) -> None:
    rt = runtime
    clock = FixedClock(T)
    rt.clock = clock
    ctx = ctx_for(rt)
    for sku, qty in (("GEAR-A", 100), ("BOLT-M6", 15)):  # too few bolts: the run takes the row below zero
        execute(ctx, "inventory.stock.adjust", body={"sku": sku, "location_id": "MAIN", "delta": qty})
    bom = execute(ctx, "mes.boms.create", body=BOM)
    m = execute(ctx, "mes.machines.create", body={"code": "asm-1", "name": "Assembly", "status": "idle"})
    routing = execute(
        ctx,
        "mes.routings.create",
        body={
            "product": "GEARBOX-1",
            "name": "Gearbox route",
            "steps": [
                {"sequence": 20, "operation": "test", "minutes_per_unit": 0.5},
                {
                    "sequence": 10,
                    "operation": "assemble",
                    "machine_id": m.id,
                    "setup_minutes": 15,
                    "minutes_per_unit": 2,
                },
            ],
        },
    )
    assert [st["operation"] for st in routing.steps] == ["assemble", "test"]
    run = execute(
        ctx,
        "mes.runs.create",
        body={
            "machine_id": m.id,
            "product": "GEARBOX-1",
            "planned_quantity": 5,
            "bom_id": bom.id,
            "routing_id": routing.id,
            "location": "MAIN",
            "status": "running",
        },
    )
    assert run.location == demo_id("inventory-location", "demo", "MAIN")
    planned = execute(ctx, "mes.runs.materials", id=run.id)
    assert planned.consumed == [{"sku": "GEAR-A", "quantity": 10}, {"sku": "BOLT-M6", "quantity": 20}]
    assert planned.standard_minutes == 15 + 5 * 2.5
    op = demo_id("user", "operator@demo.test")
    clock.advance(hours=2)
    t1 = execute(
        ctx,
        "mes.runs.operators.add",
        id=run.id,
        body={"operator_id": op, "started_at": T.isoformat(), "ended_at": (T + timedelta(minutes=90)).isoformat()},
    )
    assert t1.minutes == 90 and t1.operator_name == "Omar Operator"
    with pytest.raises(Conflict):  # the same person on the run twice at once
        execute(
            ctx,
            "mes.runs.operators.add",
            id=run.id,
            body={
                "operator_id": op,
                "started_at": (T + timedelta(minutes=60)).isoformat(),
                "ended_at": (T + timedelta(minutes=100)).isoformat(),
            },
        )
    # 4 good and 1 scrap: the parts of 5 units are used, 4 units come in.
    execute(ctx, "mes.runs.update", id=run.id, body={"good": 4, "scrap": 1, "status": "completed"})
    assert _stock(rt, "GEAR-A") == 90 and _stock(rt, "BOLT-M6") == -5 and _stock(rt, "GEARBOX-1") == 4
    done = execute(ctx, "mes.runs.materials", id=run.id)
    assert done.units == 5 and done.produced == {"sku": "GEARBOX-1", "quantity": 4} and done.operator_minutes == 90
    completed = events_of(rt, "production.run_completed")[-1]
    assert completed["materials"] == done.consumed and completed["output"] == done.produced
    assert {e["sku"] for e in events_of(rt, "stock.consumed")} == {"GEAR-A", "BOLT-M6"}
    kinds = {mv.kind for mv in execute(ctx, "inventory.movements.list", query={"sku": "GEARBOX-1"}).items}
    assert kinds == {"production"}
    assert [t.id for t in execute(ctx, "mes.runs.operators.list", id=run.id).items] == [t1.id]
    # A run without a BOM moves no stock.
    plain = execute(ctx, "mes.runs.create", body={"machine_id": m.id, "product": "GEARBOX-1", "status": "running"})
    execute(ctx, "mes.runs.update", id=plain.id, body={"good": 3, "status": "completed"})
    assert _stock(rt, "GEARBOX-1") == 4


def test_bad_boms_routings_runs_and_operator_times_are_refused(runtime: Runtime) -> None:
    rt = runtime
    clock = FixedClock(T)
    rt.clock = clock
    ctx = ctx_for(rt)
    boms = _count(rt, MesBom)
    for bad in (
        {**BOM, "components": []},
        {**BOM, "components": [{"sku": "GEAR-A", "quantity": 0}]},
        {**BOM, "components": [{"sku": "GEAR-A", "quantity": 1}, {"sku": "GEAR-A", "quantity": 2}]},
        {**BOM, "components": [{"sku": "GEARBOX-1", "quantity": 1}]},
        {**BOM, "product": "bad sku!"},
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "mes.boms.create", body=bad)
    assert _count(rt, MesBom) == boms
    m = execute(ctx, "mes.machines.create", body={"code": "asm-2", "name": "Assembly 2", "status": "idle"})
    with pytest.raises(ValidationFailed):  # an unknown machine in a step
        execute(
            ctx,
            "mes.routings.create",
            body={
                "product": "X",
                "name": "r",
                "steps": [{"sequence": 1, "operation": "a", "machine_id": "nope", "minutes_per_unit": 1}],
            },
        )
    with pytest.raises(ValidationFailed):  # two steps with one sequence number
        execute(
            ctx,
            "mes.routings.create",
            body={
                "product": "X",
                "name": "r",
                "steps": [
                    {"sequence": 1, "operation": "a", "minutes_per_unit": 1},
                    {"sequence": 1, "operation": "b", "minutes_per_unit": 1},
                ],
            },
        )
    bom = execute(ctx, "mes.boms.create", body=BOM)
    runs = _count(rt, MesRun)
    for bad in (
        {"bom_id": bom.id, "product": "OTHER"},  # a BOM of another product
        {"bom_id": "nope", "product": "GEARBOX-1"},
        {"bom_id": bom.id, "product": "GEARBOX-1", "location": "NO-SUCH-PLACE"},
        {"product": "GEARBOX-1", "location": "MAIN"},  # a location without a BOM
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "mes.runs.create", body={"machine_id": m.id, **bad})
    assert _count(rt, MesRun) == runs
    run = execute(ctx, "mes.runs.create", body={"machine_id": m.id, "product": "GEARBOX-1", "bom_id": bom.id})
    op = demo_id("user", "operator@demo.test")
    clock.advance(hours=1)
    early = {"operator_id": op, "started_at": T.isoformat(), "ended_at": (T + timedelta(minutes=30)).isoformat()}
    with pytest.raises(Conflict):  # not started yet
        execute(ctx, "mes.runs.operators.add", id=run.id, body=early)
    execute(ctx, "mes.runs.update", id=run.id, body={"status": "running"})  # at T + 1 h
    start = T + timedelta(hours=1)
    clock.advance(hours=2)
    work = {"operator_id": op, "started_at": start.isoformat(), "ended_at": (start + timedelta(minutes=30)).isoformat()}
    times = _count(rt, MesOperatorTime)
    for bad in (
        {**work, "ended_at": start.isoformat()},  # ends as it starts
        early,  # before the run started
        {**work, "ended_at": (start + timedelta(hours=5)).isoformat()},  # in the future
        {**work, "operator_id": "stranger"},
        {**work, "started_at": "2027-03-01T07:00:00"},  # no offset
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "mes.runs.operators.add", id=run.id, body=bad)
    with pytest.raises(NotFound):
        execute(ctx, "mes.runs.operators.add", id="nope", body=work)
    assert _count(rt, MesOperatorTime) == times
