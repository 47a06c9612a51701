"""Mes: runs."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.mes import MesCount, MesMachine, MesRun
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import STAFF
from services.inventory.production import check_location
from services.mes import states
from services.mes.boms import check_run_recipe, completion_data
from services.mes.lookups import _current_run, _machine, add_count, set_status
from services.mes.schemas import (
    PartOut,
    RunIn,
    RunOut,
    RunQuery,
    RunUpdate,
)

RUN = record_kind("mes.run", get="mes.runs.get", label="product")


def _run(s: Session, rid: str, *, lock: bool = False) -> MesRun:
    r = s.get(MesRun, rid, with_for_update=lock or None)
    if r is None:
        raise NotFound("production run not found", {"id": rid})
    return r


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
        data.update(completion_data(s, run))  # Inventory's reaction takes the parts out, the goods in
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
        check_run_recipe(s, body.product, body.bom_id, body.routing_id)
        if body.location is not None and body.bom_id is None:
            raise ValidationFailed(
                "a location is where a bill of materials' parts come from: give bom_id", {"location": body.location}
            )
        location = check_location(ctx, s, body.location) if body.location is not None else None
        run = MesRun(
            id=new_id(),
            machine_id=m.id,
            product=body.product,
            planned_quantity=body.planned_quantity,
            bom_id=body.bom_id,
            routing_id=body.routing_id,
            location=location,
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
