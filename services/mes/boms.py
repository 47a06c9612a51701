"""MES: bills of materials, routings, operator time per run, and what a run takes and makes.

A run made by a BOM tells Inventory what it took and made through its ``production.run_completed``
event (``materials``, ``output``, ``location``); Inventory's reaction moves the stock in the same
unit of work (services/inventory/production.py). MES never writes Inventory's tables.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Membership, User
from local_db.models.mes import MesBom, MesMachine, MesOperatorTime, MesRouting, MesRun
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, get_or_404
from services.core.pagination import Listing, ListQuery, Page
from services.core.roles import MANAGERS, STAFF
from services.mes import states
from services.mes.schemas import (
    BomIn,
    BomOut,
    BomQuery,
    OperatorTimeIn,
    OperatorTimeOut,
    RoutingIn,
    RoutingOut,
    RunMaterials,
)

BOMS = Listing(
    MesBom,
    filters={"product": MesBom.product},
    search=(MesBom.product, MesBom.name),
    sort={"created_at": MesBom.created_at, "product": MesBom.product},
)
ROUTINGS = Listing(
    MesRouting,
    filters={"product": MesRouting.product},
    search=(MesRouting.product, MesRouting.name),
    sort={"created_at": MesRouting.created_at, "product": MesRouting.product},
)


def consumption(bom: MesBom | None, units: int) -> list[dict[str, Any]]:
    """The parts ``units`` made (good and scrap alike: a scrapped part used its material)."""
    if bom is None or units <= 0:
        return []
    return [{"sku": c["sku"], "quantity": int(c["quantity"]) * units} for c in bom.components]


def standard_minutes(routing: MesRouting | None, units: int) -> float | None:
    if routing is None:
        return None
    return round(sum(float(st["setup_minutes"]) + float(st["minutes_per_unit"]) * units for st in routing.steps), 2)


@use_case("mes.boms.list", "GET /production/boms", tx="read", roles=STAFF, summary="bills of materials (product=)")
def list_boms(ctx: Ctx, query: BomQuery) -> Page[BomOut]:
    with ctx.read() as s:
        return BOMS.page(s, query, BomOut)


@use_case("mes.boms.get", "GET /production/boms/{id}", tx="read", roles=STAFF, summary="one bill of materials")
def get_bom(ctx: Ctx, id: str) -> BomOut:
    with ctx.read() as s:
        return BomOut.model_validate(get_or_404(s, MesBom, id, what="bill of materials", key="id"))


@use_case(
    "mes.boms.create",
    "POST /production/boms",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New bill of materials",
    summary="the parts (Inventory SKUs) one unit of a product takes",
)
def create_bom(ctx: Ctx, body: BomIn) -> BomOut:
    skus = [c.sku for c in body.components]
    if len(set(skus)) != len(skus):
        raise ValidationFailed("a part is listed twice; give its total quantity once", {"components": "duplicate sku"})
    if body.product in skus:
        raise ValidationFailed("a product cannot be a part of itself", {"components": body.product})
    now = ctx.now()
    with ctx.write() as s:
        b = MesBom(
            id=new_id(),
            product=body.product,
            name=body.name,
            components=[c.model_dump() for c in body.components],
            created_at=now,
            updated_at=now,
        )
        s.add(b)
        s.flush()
        return BomOut.model_validate(b)


@use_case("mes.routings.list", "GET /production/routings", tx="read", roles=STAFF, summary="routings (product=)")
def list_routings(ctx: Ctx, query: BomQuery) -> Page[RoutingOut]:
    with ctx.read() as s:
        return ROUTINGS.page(s, query, RoutingOut)


@use_case("mes.routings.get", "GET /production/routings/{id}", tx="read", roles=STAFF, summary="one routing")
def get_routing(ctx: Ctx, id: str) -> RoutingOut:
    with ctx.read() as s:
        return RoutingOut.model_validate(get_or_404(s, MesRouting, id, what="routing", key="id"))


@use_case(
    "mes.routings.create",
    "POST /production/routings",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New routing",
    summary="the operations a product goes through, in sequence, with machines and standard times",
)
def create_routing(ctx: Ctx, body: RoutingIn) -> RoutingOut:
    seqs = [st.sequence for st in body.steps]
    if len(set(seqs)) != len(seqs):
        raise ValidationFailed("two steps have the same sequence number", {"steps": "duplicate sequence"})
    now = ctx.now()
    with ctx.write() as s:
        for st in body.steps:
            if st.machine_id is not None and s.get(MesMachine, st.machine_id) is None:
                raise ValidationFailed("a step names an unknown machine", {"machine_id": st.machine_id})
        r = MesRouting(
            id=new_id(),
            product=body.product,
            name=body.name,
            steps=[st.model_dump() for st in sorted(body.steps, key=lambda x: x.sequence)],
            created_at=now,
            updated_at=now,
        )
        s.add(r)
        s.flush()
        return RoutingOut.model_validate(r)


def check_run_recipe(s: Session, product: str, bom_id: str | None, routing_id: str | None) -> None:
    """A run's BOM and routing exist and are for the run's product (400 otherwise)."""
    rows: list[tuple[str, MesBom | MesRouting | None, str | None]] = [
        ("bom_id", s.get(MesBom, bom_id) if bom_id else None, bom_id),
        ("routing_id", s.get(MesRouting, routing_id) if routing_id else None, routing_id),
    ]
    for what, row, rid in rows:
        if rid is None:
            continue
        if row is None:
            raise ValidationFailed(f"{what} names no record", {what: rid})
        if row.product != product:
            raise ValidationFailed(
                f"the {what[:-3]} is for {row.product}, not for the run's product {product}", {what: rid}
            )


# --- operator time --------------------------------------------------------------------------------


def _minutes(t: MesOperatorTime) -> float:
    return round((t.ended_at - t.started_at).total_seconds() / 60, 2)


def _time_out(t: MesOperatorTime) -> OperatorTimeOut:
    out = OperatorTimeOut.model_validate(t)
    out.minutes = _minutes(t)
    return out


@use_case(
    "mes.runs.operators.add",
    "POST /production/runs/{id}/operators",
    tx="write",
    roles=STAFF,
    status=201,
    says="Operator time",
    summary="record who worked on the run, from when to when",
)
def add_operator_time(ctx: Ctx, id: str, body: OperatorTimeIn) -> OperatorTimeOut:
    if body.started_at.tzinfo is None or body.ended_at.tzinfo is None:
        raise ValidationFailed("times need their UTC offset", {"started_at": "offset required"})
    if body.ended_at <= body.started_at:
        raise ValidationFailed("the time ends before it starts", {"ended_at": body.ended_at.isoformat()})
    if body.ended_at - body.started_at > timedelta(hours=24):
        raise ValidationFailed("one stretch of work is at most 24 hours", {"ended_at": body.ended_at.isoformat()})
    if body.ended_at > ctx.now() + timedelta(minutes=5):
        raise ValidationFailed("the time is in the future", {"ended_at": body.ended_at.isoformat()})
    with ctx.write() as s:
        run = get_or_404(s, MesRun, id, what="production run", key="id")
        if run.status == "planned":
            raise Conflict("the run has not started", {"current_state": run.status, "id": run.id})
        if run.started_at and body.started_at < run.started_at:
            raise ValidationFailed("the time starts before the run did", {"started_at": body.started_at.isoformat()})
        member = s.execute(
            select(User).join(Membership, Membership.user_id == User.id).where(User.id == body.operator_id)
        ).scalar_one_or_none()
        if member is None:
            raise ValidationFailed("operator_id is not a user of this tenant", {"operator_id": body.operator_id})
        # One person is on one run at a time: an overlap with their other time is refused.
        clash = s.execute(
            select(MesOperatorTime.run_id).where(
                MesOperatorTime.operator_id == member.id,
                MesOperatorTime.started_at < body.ended_at,
                MesOperatorTime.ended_at > body.started_at,
            )
        ).first()
        if clash is not None:
            raise Conflict("the operator has time on a run then already", {"run_id": clash[0]})
        t = MesOperatorTime(
            id=new_id(),
            run_id=run.id,
            operator_id=member.id,
            operator_name=member.name,
            started_at=body.started_at,
            ended_at=body.ended_at,
            created_at=ctx.now(),
        )
        s.add(t)
        s.flush()
        return _time_out(t)


@use_case(
    "mes.runs.operators.list",
    "GET /production/runs/{id}/operators",
    tx="read",
    roles=STAFF,
    summary="who worked on the run, from when to when",
)
def list_operator_time(ctx: Ctx, id: str, query: ListQuery) -> Page[OperatorTimeOut]:
    with ctx.read() as s:
        get_or_404(s, MesRun, id, what="production run", key="id")
        return Listing(
            MesOperatorTime, sort={"started_at": MesOperatorTime.started_at}, default_sort="started_at"
        ).page(s, query, _time_out, stmt=select(MesOperatorTime).where(MesOperatorTime.run_id == id))


@use_case(
    "mes.runs.materials",
    "GET /production/runs/{id}/materials",
    tx="read",
    roles=STAFF,
    summary="what the run takes (BOM x units) and makes, its standard and its operators' minutes",
)
def run_materials(ctx: Ctx, id: str) -> RunMaterials:
    with ctx.read() as s:
        run = get_or_404(s, MesRun, id, what="production run", key="id")
        return materials_of(s, run)


def materials_of(s: Session, run: MesRun) -> RunMaterials:
    units = run.good_count + run.scrap_count
    if run.status not in states.RUN_ENDED:
        units = max(units, run.planned_quantity)  # before the end: what the plan takes
    bom = s.get(MesBom, run.bom_id) if run.bom_id else None
    routing = s.get(MesRouting, run.routing_id) if run.routing_id else None
    worked = s.execute(select(MesOperatorTime).where(MesOperatorTime.run_id == run.id)).scalars()
    return RunMaterials(
        run_id=run.id,
        bom_id=run.bom_id,
        location=run.location,
        units=units,
        consumed=consumption(bom, units),
        produced={"sku": bom.product, "quantity": run.good_count} if bom else None,
        standard_minutes=standard_minutes(routing, units),
        operator_minutes=round(sum(_minutes(t) for t in worked), 2),
    )


def completion_data(s: Session, run: MesRun) -> dict[str, Any]:
    """What ``production.run_completed`` carries for Inventory: the parts used and the goods made."""
    if not run.bom_id:
        return {}
    bom = s.get(MesBom, run.bom_id)
    if bom is None:
        raise NotFound("the run's bill of materials is gone", {"bom_id": run.bom_id})
    return {
        "location": run.location,
        "materials": consumption(bom, run.good_count + run.scrap_count),
        "output": {"sku": bom.product, "quantity": run.good_count},
    }
