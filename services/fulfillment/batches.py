"""Batch picking: several orders picked in one walk sorted by location, then packed per order.

A batch is made from the orders named or from the next N ready ones (``pending`` with something left
to pick, in no other open batch). Its pick list is one walk: for each item the bins of the shipping
location's tree that hold it (Inventory's stock rows, read here as data), in bin-code order then SKU,
the quantities of all the batch's orders summed per bin and item; what no bin holds comes last with
no location. Each pick line knows which order each unit goes to (``allocations``, in slot order), so
a scan answers where to put the unit (``put_to``) and counts it on that order's line, as a pick of the
order itself would: an order whose last unit is scanned becomes ``picked`` (``order.picked``). Packing
is per order (the order's own ``pack``).

An order is in one open batch at a time: its claim row carries the order's id while the batch is open
(a unique column), so two batches racing for an order cannot both commit; the loser is 409 naming the
batch that holds it and that batch's state. Closing or cancelling a batch frees its orders; what was
picked stays picked on each order (the goods are in its tote), and a new batch takes only the rest.
Picking moves no stock: the units leave Inventory when the order ships, as for a single order.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder
from local_db.models.fulfillment_batches import FulfillmentBatch, FulfillmentBatchLine, FulfillmentBatchOrder
from local_db.models.inventory import InventoryItem, InventorySerial
from services.core.commands import SESSION, leased_counter, next_value, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed, find_ref
from services.core.events import emit
from services.core.pagination import Listing, Page, one_of
from services.core.roles import ANYONE, STAFF
from services.fulfillment import states
from services.fulfillment.orders import _find, _out, _pack, normalise_code, with_lot
from services.fulfillment.schemas import (
    BatchCancel,
    BatchClose,
    BatchDetail,
    BatchLineOut,
    BatchOperationRequest,
    BatchOperationResult,
    BatchOrderOut,
    BatchOut,
    BatchPack,
    BatchPick,
    BatchQuery,
    NewBatch,
    OrderOut,
    PackOperation,
    PutTo,
)
from services.fulfillment.walk import pick_walk
from services.inventory.lots import held_at
from services.sync.changelog import log_written

record_kind("fulfillment.batch", get="fulfillment.batches.get", label="batch_number")
# Batch numbers are printed (the batch's barcode) offline too: stations take them from platform leases.
BATCH_NUMBERS = leased_counter("fulfillment.batch", 100)
OPEN = ("open", "picking", "picked", "packed")  # a batch that holds its orders
DONE_ORDER = frozenset({"packed", "shipped", "delivered", "cancelled"})
_CLAIMS = table_of(FulfillmentBatchOrder)
_LINES = table_of(FulfillmentBatchLine)


# --- reading -------------------------------------------------------------------------


def _find_batch(s: Session, ref: str) -> FulfillmentBatch:
    return find_ref(s, FulfillmentBatch, ref, FulfillmentBatch.batch_number, what="batch", fold_case=True)


def _summary(b: FulfillmentBatch, order_count: int, units: int, picked: int) -> dict[str, Any]:
    return {
        "id": b.id,
        "batch_number": b.batch_number,
        "status": b.status,
        "order_count": order_count,
        "unit_count": units,
        "picked_units": picked,
        "created_at": b.created_at,
        "updated_at": b.updated_at,
        "started_at": b.started_at,
        "picked_at": b.picked_at,
        "packed_at": b.packed_at,
        "closed_at": b.closed_at,
        "cancelled_at": b.cancelled_at,
    }


def _batch_lines(s: Session, batch_id: str) -> list[FulfillmentBatchLine]:
    return list(
        s.execute(
            select(FulfillmentBatchLine)
            .where(FulfillmentBatchLine.batch_id == batch_id)
            .order_by(FulfillmentBatchLine.position)
        ).scalars()
    )


def _batch_orders(s: Session, batch_id: str) -> list[tuple[FulfillmentBatchOrder, FulfillmentOrder]]:
    rows = s.execute(
        select(FulfillmentBatchOrder, FulfillmentOrder)
        .join(FulfillmentOrder, FulfillmentOrder.id == FulfillmentBatchOrder.order_id)
        .where(FulfillmentBatchOrder.batch_id == batch_id)
        .order_by(FulfillmentBatchOrder.slot)
    ).all()
    return [(r[0], r[1]) for r in rows]


def _detail(s: Session, b: FulfillmentBatch) -> dict[str, Any]:
    lines = _batch_lines(s, b.id)
    orders = _batch_orders(s, b.id)
    d = _summary(b, len(orders), sum(ln.quantity for ln in lines), sum(ln.picked_quantity for ln in lines))
    d["orders"] = [
        BatchOrderOut(
            order_id=o.id, order_number=o.order_number, slot=bo.slot, status=o.status, customer_name=o.customer_name
        )
        for bo, o in orders
    ]
    d["lines"] = [_line_out({c: getattr(ln, c) for c in _LINE_FIELDS}) for ln in lines]
    return d


_LINE_FIELDS = ("id", "position", "location_id", "location_code", "sku", "barcode", "name", "quantity",
                "picked_quantity", "allocations", "lots")  # fmt: skip
_ALLOCATION_FIELDS = ("order_id", "order_number", "slot", "quantity", "picked", "serials", "lots")


def _line_out(ln: dict[str, Any]) -> BatchLineOut:
    # A batch made before lots were picked carries no "lots": none.
    allocations = [{k: a.get(k, []) for k in _ALLOCATION_FIELDS} for a in ln["allocations"]]
    return BatchLineOut(
        **{c: ln[c] for c in _LINE_FIELDS if c not in ("allocations", "lots")},
        allocations=allocations,
        lots=ln.get("lots") or [],
    )


BATCHES = Listing(
    FulfillmentBatch,
    filters={"status": one_of(FulfillmentBatch.status)},
    search=(FulfillmentBatch.batch_number,),
    sort={
        "created_at": FulfillmentBatch.created_at,
        "updated_at": FulfillmentBatch.updated_at,
        "batch_number": FulfillmentBatch.batch_number,
        "status": FulfillmentBatch.status,
    },
)


@use_case(
    "fulfillment.batches.list",
    "GET /batches",
    tx="read",
    roles=ANYONE,
    record="fulfillment.batch",
    summary="list pick batches",
)
def list_batches(ctx: Ctx, query: BatchQuery, session: Session = SESSION) -> Page[BatchOut]:
    page = BATCHES.page(session, query)
    ids = [b.id for b in page.items]
    counts: dict[str, tuple[int, int]] = {}
    orders: dict[str, int] = {}
    if ids:
        for bid, qty, picked in session.execute(
            select(
                FulfillmentBatchLine.batch_id,
                func.sum(FulfillmentBatchLine.quantity),
                func.sum(FulfillmentBatchLine.picked_quantity),
            )
            .where(FulfillmentBatchLine.batch_id.in_(ids))
            .group_by(FulfillmentBatchLine.batch_id)
        ).all():
            counts[bid] = (int(qty or 0), int(picked or 0))
        for bid, n in session.execute(
            select(FulfillmentBatchOrder.batch_id, func.count())
            .where(FulfillmentBatchOrder.batch_id.in_(ids))
            .group_by(FulfillmentBatchOrder.batch_id)
        ).all():
            orders[bid] = int(n)
    return page.map(lambda b: BatchOut(**_summary(b, orders.get(b.id, 0), *counts.get(b.id, (0, 0)))))


@use_case(
    "fulfillment.batches.get",
    "GET /batches/{id}",
    tx="read",
    roles=ANYONE,
    record="fulfillment.batch",
    summary="read a batch: its orders and its pick walk",
)
def get_batch(ctx: Ctx, id: str, session: Session = SESSION) -> BatchDetail:
    return BatchDetail(**_detail(session, _find_batch(session, id)))


# --- making a batch ----------------------------------------------------------------


def _holder(s: Session, order_ids: list[str]) -> dict[str, FulfillmentBatch]:
    """The open batch holding each of these orders, if any."""
    rows = s.execute(
        select(FulfillmentBatchOrder.open_order_id, FulfillmentBatch)
        .join(FulfillmentBatch, FulfillmentBatch.id == FulfillmentBatchOrder.batch_id)
        .where(FulfillmentBatchOrder.open_order_id.in_(order_ids))
    ).all()
    return {str(r[0]): r[1] for r in rows}


def _in_batch(o: FulfillmentOrder, b: FulfillmentBatch) -> Conflict:
    return Conflict(
        f"order {o.order_number} is already in batch {b.batch_number} (it is {b.status})",
        {
            "reason": "in_open_batch",
            "order_number": o.order_number,
            "batch_id": b.id,
            "batch_number": b.batch_number,
            "current_state": b.status,
        },
    )


_OPEN_CLAIM = exists().where(FulfillmentBatchOrder.open_order_id == FulfillmentOrder.id)
_LEFT_TO_PICK = exists().where(
    FulfillmentLine.order_id == FulfillmentOrder.id, FulfillmentLine.picked_quantity < FulfillmentLine.quantity
)


def _chosen(s: Session, body: NewBatch) -> list[FulfillmentOrder]:
    if body.next is not None:
        found = list(
            s.execute(
                select(FulfillmentOrder)
                .where(FulfillmentOrder.status == "pending", ~_OPEN_CLAIM, _LEFT_TO_PICK)
                # Oldest first, along the queue's index (tenant, status, created_at): a tie-breaker
                # column would sort every pending order (2 s at 100,000, bench_operations.py).
                .order_by(FulfillmentOrder.created_at)
                .limit(body.next)
            ).scalars()
        )
        if not found:
            raise Conflict(
                "no order is ready to pick: every pending order is in a batch", {"reason": "nothing_to_pick"}
            )
        return found
    refs = [r.strip() for r in body.orders or ()]
    keys = set(refs) | {r.upper() for r in refs}
    # One statement for the 50 scans, not one each: by id, order number or pick-list barcode.
    hits = s.execute(
        select(FulfillmentOrder).where(
            or_(
                FulfillmentOrder.id.in_(keys),
                FulfillmentOrder.order_number.in_(keys),
                FulfillmentOrder.pick_barcode.in_(keys),
            )
        )
    ).scalars()
    by_ref: dict[str, FulfillmentOrder] = {}
    for o in hits:
        for key in (o.id, o.order_number, o.pick_barcode):
            by_ref[key] = o
    orders: dict[str, FulfillmentOrder] = {}
    for ref in refs:
        o = by_ref.get(ref) or by_ref.get(ref.upper()) or _find(s, ref)  # _find: the 404 it answers
        orders.setdefault(o.id, o)
    chosen = list(orders.values())
    for o in chosen:
        if o.status != "pending":
            raise Conflict(
                f"order {o.order_number} is {o.status}: only pending orders are picked",
                {"reason": "not_pickable", "order_number": o.order_number, "current_state": o.status},
            )
    held = _holder(s, [o.id for o in chosen])
    for o in chosen:
        if o.id in held:
            raise _in_batch(o, held[o.id])
    return chosen


@use_case(
    "fulfillment.batches.create",
    "POST /batches",
    tx="write",
    roles=STAFF,
    status=201,
    says="New pick batch",
    record="fulfillment.batch",
    summary="make a pick batch from orders named or the next N ready orders: one walk sorted by location",
)
def create_batch(ctx: Ctx, body: NewBatch, session: Session = SESSION) -> BatchDetail:
    s = session
    chosen = _chosen(s, body)
    walk = pick_walk(s, ctx, chosen)
    if not walk:
        raise Conflict(
            "nothing is left to pick on these orders",
            {"reason": "nothing_to_pick", "orders": [o.order_number for o in chosen]},
        )
    now = ctx.now()
    b = FulfillmentBatch(
        id=new_id(),
        batch_number=body.batch_number or f"B-{next_value(ctx, ctx.tenant_id, BATCH_NUMBERS):05d}",
        status="open",
        created_by=getattr(ctx.principal, "user_id", None),
        created_at=now,
        updated_at=now,
    )
    s.add(b)
    try:
        s.flush()
    except IntegrityError:
        raise Conflict(f"batch number {b.batch_number} is taken", {"reason": "number_taken"}) from None
    if ctx.runtime.is_station:
        # The outbox records this body: the platform's replay makes the same batch (its number, these
        # orders in these slots) rather than choosing "the next N" again from what it holds.
        body.batch_number, body.orders, body.next = b.batch_number, [o.id for o in chosen], None
    claims: list[dict[str, Any]] = [
        {"id": new_id(), "tenant_id": ctx.tenant_id, "batch_id": b.id, "order_id": o.id, "open_order_id": o.id,
         "slot": i + 1}
        for i, o in enumerate(chosen)
    ]  # fmt: skip
    rows = [
        {"id": new_id(), "tenant_id": ctx.tenant_id, "batch_id": b.id, "position": i + 1, "picked_quantity": 0, **ln}
        for i, ln in enumerate(walk)
    ]
    try:
        # Core inserts: a batch of 50 orders is ~150 rows, and the ORM's unit of work cost more
        # than the walk itself (bench_operations.py); logged for the stations' pull by hand.
        s.execute(insert(_CLAIMS), claims)
    except IntegrityError:
        # Another batch took one of these orders between our read and our write (PostgreSQL; SQLite's
        # one writer reads its commit first): the same 409 as if we had seen it.
        raise Conflict(
            "one of these orders was just put in another batch: make the batch again",
            {"reason": "in_open_batch", "orders": [o.order_number for o in chosen]},
        ) from None
    s.execute(insert(_LINES), rows)
    log_written(s, ctx.tenant_id, "fulfillment_batch_orders", [c["id"] for c in claims])
    log_written(s, ctx.tenant_id, "fulfillment_batch_lines", [r["id"] for r in rows])
    emit(
        ctx,
        "batch.created",
        {
            "batch_id": b.id,
            "batch_number": b.batch_number,
            "order_ids": [o.id for o in chosen],
            "line_count": len(walk),
        },
    )
    d = _summary(b, len(chosen), sum(r["quantity"] for r in rows), 0)
    d["orders"] = [
        BatchOrderOut(order_id=o.id, order_number=o.order_number, slot=i + 1, status=o.status,
                      customer_name=o.customer_name)
        for i, o in enumerate(chosen)
    ]  # fmt: skip
    d["lines"] = [_line_out(r) for r in rows]
    return BatchDetail(**d)


# --- the batch operation -------------------------------------------------------------


@use_case(
    "fulfillment.batches.operate",
    "POST /batches/{id}/operations",
    tx="write",
    roles=ANYONE,
    says="{operation} batch",
    record="fulfillment.batch",
    summary="run a batch operation: pick a scanned unit, pack an order, close, cancel",
    moves=states.BATCH.moves("pick", "pack", "close", "cancel", field="operation"),
)
def operate_batch(ctx: Ctx, id: str, body: BatchOperationRequest, session: Session = SESSION) -> BatchOperationResult:
    op = body.root
    s = session
    b = _find_batch(s, id)
    put_to: list[PutTo] = []
    packed: OrderOut | None = None
    if isinstance(op, BatchPick):
        put_to = _pick(ctx, s, b, op)
    elif isinstance(op, BatchPack):
        packed = _pack_order(ctx, s, b, op)
    elif isinstance(op, BatchClose):
        step = states.BATCH.apply(ctx, b, "close", states.actor(ctx))
        _release(s, b)
        step.announce(ctx, _event(b))
    else:
        assert isinstance(op, BatchCancel)
        step = states.BATCH.apply(ctx, b, "cancel", states.actor(ctx))
        _release(s, b)
        step.announce(ctx, {**_event(b), "reason": op.reason})
    b.updated_at = ctx.now()
    s.flush()
    return BatchOperationResult(**_detail(s, b), operation=op.operation, put_to=put_to, order=packed)


def _event(b: FulfillmentBatch) -> dict[str, Any]:
    return {"batch_id": b.id, "batch_number": b.batch_number, "status": b.status}


def _release(s: Session, b: FulfillmentBatch) -> None:
    """The batch's orders are free for another batch."""
    ids = list(
        s.execute(
            update(FulfillmentBatchOrder)
            .where(FulfillmentBatchOrder.batch_id == b.id)
            .values(open_order_id=None)
            .returning(FulfillmentBatchOrder.id)
            .execution_options(synchronize_session=False)
        ).scalars()
    )
    # A Core update no flush sees: logged so the stations' pull takes the freed claims.
    log_written(s, b.tenant_id, "fulfillment_batch_orders", ids)


def _bad(message: str, reason: str, **details: Any) -> ValidationFailed:
    return ValidationFailed(message, {"reason": reason, **details})


def _pick(ctx: Ctx, s: Session, b: FulfillmentBatch, op: BatchPick) -> list[PutTo]:
    states.BATCH.check(b.status, "pick", states.actor(ctx))
    code = op.code.strip()
    lines = _batch_lines(s, b.id)
    of_item = [ln for ln in lines if ln.barcode == code or ln.sku.lower() == code.lower()]
    if not of_item:
        raise _bad(f"item {code} is not in batch {b.batch_number}", "not_in_batch", code=code)
    at = of_item
    if any(ln.location_id for ln in of_item):
        if op.location is None:
            raise _bad(f"scan the location of {of_item[0].name} first", "location_required", code=code)
        where = op.location.strip().upper()
        at = [
            ln
            for ln in of_item
            if ln.location_id and where in (ln.location_id.upper(), (ln.location_code or "").upper())
        ]
        if not at:
            expected = [ln.location_code for ln in of_item if ln.picked_quantity < ln.quantity]
            raise _bad(
                f"{of_item[0].name} is not picked from {op.location} in this batch",
                "wrong_location",
                code=code,
                location=op.location,
                expected=expected,
            )
    line = next((ln for ln in at if ln.picked_quantity < ln.quantity), None)
    if line is None or line.picked_quantity + op.quantity > line.quantity:
        last = line or at[-1]
        raise _bad(
            f"one too many: {last.name} needs {last.quantity} here, {last.picked_quantity} already picked",
            "over_pick",
            code=code,
            line_id=last.id,
            quantity=last.quantity,
            picked_quantity=last.picked_quantity,
            requested=op.quantity,
        )
    serial = _check_serial(s, b, lines, line, op)
    lot = _check_lot(s, lines, line, op)
    orders = {o.id: o for o in s.execute(
        select(FulfillmentOrder).where(FulfillmentOrder.id.in_({a["order_id"] for a in line.allocations}))
    ).scalars()}  # fmt: skip
    allocations = [dict(a, serials=list(a["serials"])) for a in line.allocations]
    left, put_to, touched = op.quantity, [], []
    for a in allocations:
        o = orders.get(a["order_id"])
        room = a["quantity"] - a["picked"]
        if not left or room <= 0 or o is None or o.status != "pending":
            continue
        order_line = s.get(FulfillmentLine, a["line_id"])
        if order_line is None:
            continue
        take = min(left, room, order_line.quantity - order_line.picked_quantity)
        if take <= 0:
            continue
        a["picked"] += take
        if serial:
            a["serials"].append(serial)
            # On the order's line too: its shipment takes this unit out of Inventory (order.shipped).
            order_line.serials = [*(order_line.serials or ()), serial]
        if lot:
            a["lots"] = with_lot(a.get("lots") or [], lot, take)
            order_line.lots = with_lot(order_line.lots or [], lot, take)  # shipped from this lot (order.shipped)
        order_line.picked_quantity += take
        left -= take
        touched.append(o)
        put_to.append(PutTo(order_id=o.id, order_number=o.order_number, slot=a["slot"], quantity=take,
                            line_id=line.id, serial=serial))  # fmt: skip
    if left:
        # The orders left for this line were cancelled or picked elsewhere: the unit has no order to go to.
        raise Conflict(
            f"no order of batch {b.batch_number} still needs {left} of {line.name}",
            {"reason": "no_order_needs_it", "line_id": line.id,
             "orders": {a["order_number"]: orders[a["order_id"]].status for a in allocations if a["order_id"] in orders}},
        )  # fmt: skip
    line.allocations = allocations
    line.picked_quantity += op.quantity
    states.BATCH.apply(ctx, b, "pick", states.actor(ctx))
    s.flush()
    for o in dict.fromkeys(touched):
        if o.status == "pending" and _order_complete(s, o.id):
            move = states.ORDER.apply(ctx, o, "pick")
            o.updated_at = ctx.now()
            move.announce(ctx, {"order_id": o.id, "order_number": o.order_number, "picked_at": ctx.now().isoformat()})
    if _all_picked(s, lines):
        states.BATCH.apply(ctx, b, "complete_pick", states.SYSTEM).announce(ctx, _event(b))
    return put_to


def _order_complete(s: Session, order_id: str) -> bool:
    left = s.execute(
        select(func.count()).where(
            FulfillmentLine.order_id == order_id, FulfillmentLine.picked_quantity < FulfillmentLine.quantity
        )
    ).scalar_one()
    return int(left) == 0


def _all_picked(s: Session, lines: list[FulfillmentBatchLine]) -> bool:
    """Every unit picked, or left only for orders that are no longer pending (cancelled meanwhile)."""
    open_ids = {a["order_id"] for ln in lines for a in ln.allocations if a["picked"] < a["quantity"]}
    if not open_ids:
        return True
    still = s.execute(
        select(func.count()).where(FulfillmentOrder.id.in_(open_ids), FulfillmentOrder.status == "pending")
    ).scalar_one()
    return int(still) == 0


def _check_serial(
    s: Session, b: FulfillmentBatch, lines: list[FulfillmentBatchLine], line: FulfillmentBatchLine, op: BatchPick
) -> str | None:
    """The unit's serial where the item is tracked (Inventory holds serials of it): it must be in stock
    at this line's location and not already picked in this batch; one unit per scan."""
    tracked = s.execute(select(InventorySerial.id).where(InventorySerial.sku == line.sku).limit(1)).first()
    if tracked is None:
        if op.serial:
            raise _bad(f"{line.name} has no serial numbers", "not_tracked", code=op.code)
        return None
    if not op.serial:
        raise _bad(f"{line.name} is tracked by serial: scan the unit's serial number", "serial_required", code=op.code)
    if op.quantity != 1:
        raise _bad("a serial-numbered unit is picked one at a time", "one_per_serial", quantity=op.quantity)
    serial = normalise_code(op.serial)
    unit = s.execute(
        select(InventorySerial).where(InventorySerial.sku == line.sku, InventorySerial.serial == serial)
    ).scalar_one_or_none()
    if unit is None or unit.status != "in_stock" or unit.location_id != line.location_id:
        raise _bad(
            f"serial {serial} of {line.sku} is not in stock at {line.location_code or 'this location'}",
            "serial_not_here",
            serial=serial,
            status=unit.status if unit else None,
        )
    if any(serial in a["serials"] for ln in lines if ln.sku == line.sku for a in ln.allocations):
        raise _bad(
            f"serial {serial} is already picked in batch {b.batch_number}", "serial_already_picked", serial=serial
        )
    return serial


def _check_lot(s: Session, lines: list[FulfillmentBatchLine], line: FulfillmentBatchLine, op: BatchPick) -> str | None:
    """The unit's lot where the item tracks lots: that lot must hold, in this line's bin, the units
    scanned (less what this batch already picked of it there: picking moves no stock). Answers the
    lot's code as Inventory stores it."""
    tracked = s.execute(select(InventoryItem.tracking).where(InventoryItem.sku == line.sku)).scalars().first() == "lot"
    if not tracked:
        if op.lot:
            raise _bad(f"{line.name} is not tracked by lot", "not_tracked", code=op.code)
        return None
    proposed = [x["code"] for x in line.lots or ()]
    if not op.lot:
        raise _bad(f"{line.name} is tracked by lot: scan the lot code on the unit", "lot_required", code=op.code,
                   proposed=proposed)  # fmt: skip
    found = held_at(s, line.sku, op.lot, line.location_id) if line.location_id else None
    code = found[0] if found else normalise_code(op.lot)
    already = sum(
        int(x["quantity"])
        for ln in lines
        if ln.sku == line.sku and ln.location_id == line.location_id
        for a in ln.allocations
        for x in a.get("lots") or ()
        if x["code"] == code
    )
    have = (found[1] if found else 0) - already
    if have < op.quantity:
        raise _bad(
            f"lot {code} of {line.sku} holds {max(have, 0)} at {line.location_code or 'no bin'}: {op.quantity} asked",
            "lot_not_here",
            lot=code,
            quantity=max(have, 0),
            proposed=proposed,
        )
    return code


def _pack_order(ctx: Ctx, s: Session, b: FulfillmentBatch, op: BatchPack) -> OrderOut:
    states.BATCH.check(b.status, "pack", states.actor(ctx))
    o = _find(s, op.order)
    members = _batch_orders(s, b.id)
    if o.id not in {m.id for _bo, m in members}:
        raise _bad(f"order {o.order_number} is not in batch {b.batch_number}", "not_in_batch", order=o.order_number)
    _pack(ctx, o, PackOperation(operation="pack", box=op.box, weight_grams=op.weight_grams))
    o.updated_at = ctx.now()
    states.BATCH.apply(ctx, b, "pack", states.actor(ctx))
    s.flush()
    if all(m.status in DONE_ORDER for _bo, m in members):
        states.BATCH.apply(ctx, b, "complete_pack", states.SYSTEM).announce(ctx, _event(b))
    lines = s.execute(select(FulfillmentLine).where(FulfillmentLine.order_id == o.id)).scalars().all()
    counts = (len(lines), sum(ln.quantity for ln in lines), sum(ln.picked_quantity for ln in lines))
    return OrderOut(**_out(o, counts))
