"""Aftersale: repair orders. A claim's unit is received for repair, diagnosed, then repaired (with
the parts used) or replaced (a new unit from stock), and returned to the customer; cancelled
before any work.

Parts and replacement units leave stock through Inventory's own use case (``inventory.stock.adjust``,
run in this unit of work, so a refused part stores nothing of the repair either): Aftersale never
writes Inventory's tables. Before any is taken, every part is checked against what is available at
the location (on hand less what orders hold): more than that is 409 naming the item and the figures.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.aftersale import AftersaleClaim, AftersaleRepair, AftersaleWarranty
from services.aftersale import states
from services.aftersale.schemas import PartOut, RepairAction, RepairIn, RepairOut, RepairQuery
from services.core.commands import REGISTRY, SESSION, parse_body, parse_query, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, find_ref
from services.core.events import emit
from services.core.pagination import Listing, Page, contains
from services.core.roles import STAFF

record_kind("aftersale.repair", get="aftersale.repairs.get", label="number")


def _out(r: AftersaleRepair) -> RepairOut:
    return RepairOut(
        id=r.id,
        number=r.number,
        claim_id=r.claim_id,
        warranty_id=r.warranty_id,
        serial_number=r.serial_number,
        product_sku=r.product_sku,
        status=r.status,  # type: ignore[arg-type]
        diagnosis=r.diagnosis,
        note=r.note,
        replacement_serial=r.replacement_serial,
        parts=[PartOut(**p) for p in r.parts or []],
        created_at=r.created_at,
        updated_at=r.updated_at,
        diagnosed_at=r.diagnosed_at,
        finished_at=r.finished_at,
        returned_at=r.returned_at,
        cancelled_at=r.cancelled_at,
    )


def _payload(r: AftersaleRepair) -> dict[str, Any]:
    return {"repair_id": r.id, "number": r.number, "claim_id": r.claim_id, "serial_number": r.serial_number,
            "status": r.status}  # fmt: skip


@use_case(
    "aftersale.repairs.create",
    "POST /claims/{id}/repairs",
    tx="write",
    roles=STAFF,
    status=201,
    says="Repair order",
    record="aftersale.repair",
    summary="receive a claim's unit for repair: a repair order (the claim is started if it was open)",
)
def create_repair(ctx: Ctx, id: str, body: RepairIn, session: Session = SESSION) -> RepairOut:
    s = session
    c = s.get(AftersaleClaim, id)
    if c is None:
        raise NotFound("claim not found", {"id": id})
    if c.status not in states.OPEN:
        raise Conflict(f"this claim is {c.status}: it takes no repair order", {"current_state": c.status})
    active = s.execute(
        select(AftersaleRepair.number).where(
            AftersaleRepair.claim_id == c.id, AftersaleRepair.status.in_(states.REPAIR_OPEN)
        )
    ).first()
    if active is not None:
        raise Conflict(f"this claim has repair order {active[0]} open", {"number": active[0]})
    w = s.get(AftersaleWarranty, c.warranty_id)
    assert w is not None
    if c.status == "open":
        t = states.CLAIM.apply(ctx, c, "start", states.STAFF)
        c.handled_by, c.updated_at = ctx.principal.id, ctx.now()
        emit(ctx, t.emits or "", {"claim_id": c.id, "warranty_id": w.id, "status": c.status})
    earlier = s.execute(select(func.count()).where(AftersaleRepair.claim_id == c.id)).scalar_one()
    now = ctx.now()
    r = AftersaleRepair(
        id=new_id(),
        # From the claim and its repairs, not a counter: a station offline and the platform
        # replaying its change name the repair alike (as returns are named from their order).
        number=f"RO-{c.id[:8].upper()}-{earlier + 1}",
        claim_id=c.id,
        warranty_id=w.id,
        serial_number=w.serial_number,
        product_sku=w.product_sku,
        status="received",
        note=body.note,
        parts=[],
        handled_by=ctx.principal.id,
        created_at=now,
        updated_at=now,
    )
    s.add(r)
    s.flush()
    emit(ctx, "repair.received", _payload(r))
    return _out(r)


REPAIRS = Listing(
    AftersaleRepair,
    filters={"status": AftersaleRepair.status, "claim_id": AftersaleRepair.claim_id},
    search=(AftersaleRepair.number, lambda term: contains(AftersaleRepair.serial_number, term)),
    sort={"created_at": AftersaleRepair.created_at},
)


@use_case(
    "aftersale.repairs.list", "GET /repairs", tx="read", roles=STAFF, summary="repair orders (status=, claim_id=)"
)
def list_repairs(ctx: Ctx, query: RepairQuery, session: Session = SESSION) -> Page[RepairOut]:
    return REPAIRS.page(session, query, _out)


def _find(s: Session, ref: str) -> AftersaleRepair:
    return find_ref(s, AftersaleRepair, ref, AftersaleRepair.number, what="repair order", key="repair", fold_case=True)


@use_case(
    "aftersale.repairs.get",
    "GET /repairs/{id}",
    tx="read",
    roles=STAFF,
    record="aftersale.repair",
    summary="one repair order (by id or number)",
)
def get_repair(ctx: Ctx, id: str, session: Session = SESSION) -> RepairOut:
    return _out(_find(session, id))


def _available(ctx: Ctx, s: Session, sku: str, location: str) -> tuple[int, int, int]:
    """(on hand, held, available) of ``sku`` at ``location`` alone, read through Inventory's use case."""
    op = REGISTRY["inventory.stock.list"]
    q = parse_query(op, {"location_id": location, "sku": sku, "include_children": "false"})
    page = op.handler(ctx, query=q, session=s)
    rows = [r for r in page.items if r.sku == sku]
    on_hand, held = sum(r.quantity for r in rows), sum(r.reserved for r in rows)
    return on_hand, held, sum(r.available for r in rows)


def _take_parts(ctx: Ctx, s: Session, r: AftersaleRepair, body: RepairAction) -> list[dict[str, Any]]:
    """Check every part against stock, then take each out: all or nothing."""
    wanted: dict[str, int] = {}
    for p in body.parts:
        wanted[p.sku] = wanted.get(p.sku, 0) + p.quantity
    replacement = body.action == "replace"
    if replacement:
        wanted[r.product_sku] = wanted.get(r.product_sku, 0) + 1
    if not wanted:
        return []
    if body.location is None:
        raise ValidationFailed("parts and replacement units need the location they come from", {"location": "required"})
    for sku, qty in wanted.items():
        on_hand, held, available = _available(ctx, s, sku, body.location)
        if qty > available:
            raise Conflict(
                f"{qty} × {sku} asked, {available} available at {body.location} ({on_hand} on hand, {held} held)",
                {"reason": "insufficient_stock", "sku": sku, "asked": qty, "available": available,
                 "on_hand": on_hand, "held": held},
            )  # fmt: skip
    adjust = REGISTRY["inventory.stock.adjust"]
    taken: list[dict[str, Any]] = []
    for sku, qty in wanted.items():
        why = f"repair {r.number}" + (" (replacement unit)" if replacement and sku == r.product_sku else "")
        raw = {"sku": sku, "location_id": body.location, "delta": -qty, "reason": why}
        res = adjust.handler(ctx, body=parse_body(adjust, raw), session=s)
        taken.append({"sku": sku, "quantity": qty, "location_id": res.location_id, "movement_id": res.movement_id,
                      "replacement": replacement and sku == r.product_sku})  # fmt: skip
    return taken


@use_case(
    "aftersale.repairs.act",
    "POST /repairs/{id}",
    tx="write",
    roles=STAFF,
    says="{action} repair order",
    record="aftersale.repair",
    summary="diagnose, repair (parts from stock), replace (a unit from stock), return or cancel a repair order",
    moves=states.REPAIR.moves("diagnose", "repair", "replace", "return", "cancel", field="action"),
)
def act_on_repair(ctx: Ctx, id: str, body: RepairAction, session: Session = SESSION) -> RepairOut:
    s = session
    r = _find(s, id)
    if body.action == "diagnose" and not body.diagnosis:
        raise ValidationFailed("diagnosing needs the diagnosis", {"diagnosis": "required"})
    if body.parts and body.action not in ("repair", "replace"):
        raise ValidationFailed(f"parts are used on repair or replace, not on {body.action}", {"parts": "not here"})
    if body.replacement_serial and body.action != "replace":
        raise ValidationFailed("a replacement serial goes with replace", {"replacement_serial": "not here"})
    # The state first (409 with the current state), so a refused move takes nothing from stock.
    t = states.REPAIR.apply(ctx, r, body.action, states.STAFF)
    taken = _take_parts(ctx, s, r, body)
    if taken:
        r.parts = list(r.parts or []) + taken
    if body.diagnosis is not None:
        r.diagnosis = body.diagnosis
    if body.note is not None:
        r.note = body.note
    if body.replacement_serial is not None:
        r.replacement_serial = body.replacement_serial
    r.handled_by, r.updated_at = ctx.principal.id, ctx.now()
    s.flush()
    emit(ctx, t.emits or "", {**_payload(r), "parts": [{"sku": p["sku"], "quantity": p["quantity"]} for p in taken]})
    return _out(r)
