"""Fulfillment orders: list, stats, get, the unified operation (pick, unpick, pack, ship, cancel), and creating orders for webhooks and demo data."""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder, ShippingLabel
from services.core.checkdigits import with_check_digit
from services.core.commands import SESSION, next_value, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, ValidationFailed, find_ref
from services.core.events import emit
from services.core.pagination import Listing, Page, at_least, at_most, one_of
from services.core.roles import ANYONE, STAFF
from services.fulfillment import scan, states
from services.fulfillment.carriers import Package, Shipment, get_carrier
from services.fulfillment.schemas import (
    CancelOperation,
    LineOut,
    NewOrder,
    OperationRequest,
    OperationResult,
    OrderDetail,
    OrderOut,
    OrderQuery,
    OrderStats,
    PackOperation,
    PickOperation,
    ShipOperation,
    ShipUnit,
    SplitOperation,
    UnpickOperation,
)

DEVICE_ROLE = "warehouse-device"
_SEPARATORS = re.compile(r"[\s\-]+")
_LABEL_NS = uuid.UUID("0b7e3c52-8a4e-4f0e-9a55-6a1d2b9f4c21")

# --- reading -------------------------------------------------------------------


def _out(o: FulfillmentOrder, counts: tuple[int, int, int]) -> dict[str, Any]:
    return {
        "id": o.id,
        "order_number": o.order_number,
        "pick_barcode": o.pick_barcode,
        "status": o.status,
        "source": o.source,
        "external_id": o.external_id,
        "external_number": o.external_number,
        "customer_name": o.customer_name,
        "customer_email": o.customer_email,
        "shipping_address": o.shipping_address or {},
        "billing_address": o.billing_address,
        "box": o.box,
        "weight_grams": o.weight_grams,
        "carrier": o.carrier,
        "tracking_number": o.tracking_number,
        "label_id": o.label_id,
        "carrier_status": o.carrier_status,
        "cancel_reason": o.cancel_reason,
        "line_count": counts[0],
        "total_quantity": counts[1],
        "picked_quantity": counts[2],
        "created_at": o.created_at,
        "updated_at": o.updated_at,
        "picked_at": o.picked_at,
        "packed_at": o.packed_at,
        "shipped_at": o.shipped_at,
        "delivered_at": o.delivered_at,
        "cancelled_at": o.cancelled_at,
        "backorder_of": o.backorder_of,
    }


# Built once: making a statement per call cost more than looking its compiled form up.
_LINES = (
    select(FulfillmentLine).where(FulfillmentLine.order_id == bindparam("order_id")).order_by(FulfillmentLine.position)
)
# An order and its lines in one statement (every scan loads both): one ORM load instead of two.
# Outer join: an order without lines comes too; tenant scoping filters both entities.
_ORDER_WITH_LINES = (
    select(FulfillmentOrder, FulfillmentLine)
    .outerjoin(FulfillmentLine, FulfillmentLine.order_id == FulfillmentOrder.id)
    .where(FulfillmentOrder.id == bindparam("ref"))
    .order_by(FulfillmentLine.position)
)


def _lines(s: Session, order_id: str) -> list[FulfillmentLine]:
    return list(s.execute(_LINES, {"order_id": order_id}).scalars())


def _find_with_lines(s: Session, ref: str) -> tuple[FulfillmentOrder, list[FulfillmentLine]]:
    """``_find`` and ``_lines`` together: by id in one statement, else by number or barcode."""
    rows = s.execute(_ORDER_WITH_LINES, {"ref": ref.strip()}).all()
    if not rows:
        o = _find(s, ref)
        return o, _lines(s, o.id)
    return rows[0][0], [ln for _o, ln in rows if ln is not None]


def _detail(o: FulfillmentOrder, lines: list[FulfillmentLine]) -> dict[str, Any]:
    counts = (len(lines), sum(ln.quantity for ln in lines), sum(ln.picked_quantity for ln in lines))
    d = _out(o, counts)
    d["lines"] = [
        LineOut(
            id=ln.id,
            sku=ln.sku,
            barcode=ln.barcode,
            name=ln.name,
            quantity=ln.quantity,
            picked_quantity=ln.picked_quantity,
            serials=ln.serials or [],
            lots=ln.lots or [],
        )
        for ln in lines
    ]
    return d


def _find(s: Session, ref: str) -> FulfillmentOrder:
    """An order by id, order number or pick-list barcode (a scan gives either)."""
    # Typed by hand as often as scanned: so-1006 is SO-1006 (numbers are stored upper-case).
    return find_ref(
        s,
        FulfillmentOrder,
        ref,
        FulfillmentOrder.order_number,
        FulfillmentOrder.pick_barcode,
        what="order",
        fold_case=True,
    )


ORDERS = Listing(
    FulfillmentOrder,
    filters={
        "status": one_of(FulfillmentOrder.status),
        "from_": at_least(FulfillmentOrder.created_at),
        "to": at_most(FulfillmentOrder.created_at),
    },
    search=(
        FulfillmentOrder.order_number,
        FulfillmentOrder.customer_name,
        FulfillmentOrder.customer_email,
        FulfillmentOrder.external_number,
    ),
    sort={
        "created_at": FulfillmentOrder.created_at,
        "updated_at": FulfillmentOrder.updated_at,
        "order_number": FulfillmentOrder.order_number,
        "status": FulfillmentOrder.status,
        "shipped_at": FulfillmentOrder.shipped_at,
    },
    rows=True,  # list_orders reads columns only (_out): rows, no ORM objects
)


@use_case(
    "fulfillment.orders.list",
    "GET /orders",
    tx="read",
    roles=ANYONE,
    record="fulfillment.order",
    summary="list orders",
)
def list_orders(ctx: Ctx, query: OrderQuery, session: Session = SESSION) -> Page[OrderOut]:
    page = ORDERS.page(session, query)
    ids = [o.id for o in page.items]
    counts: dict[str, tuple[int, int, int]] = {}
    if ids:
        rows = session.execute(
            select(
                FulfillmentLine.order_id,
                func.count(),
                func.sum(FulfillmentLine.quantity),
                func.sum(FulfillmentLine.picked_quantity),
            )
            .where(FulfillmentLine.order_id.in_(ids))
            .group_by(FulfillmentLine.order_id)
        ).all()
        counts = {r[0]: (int(r[1]), int(r[2] or 0), int(r[3] or 0)) for r in rows}
    return page.map(lambda o: OrderOut(**_out(o, counts.get(o.id, (0, 0, 0)))))


@use_case("fulfillment.orders.stats", "GET /orders/stats", tx="read", roles=ANYONE, summary="count orders by state")
def order_stats(ctx: Ctx) -> OrderStats:
    with ctx.read() as s:
        rows = s.execute(select(FulfillmentOrder.status, func.count()).group_by(FulfillmentOrder.status)).all()
    counts = {st: 0 for st in states.STATES}
    counts.update({r[0]: int(r[1]) for r in rows})
    return OrderStats(counts=counts, total=sum(counts.values()))


# People know an order by its number (sync issues, history).
record_kind("fulfillment.order", get="fulfillment.orders.get", label="order_number")


@use_case(
    "fulfillment.orders.get",
    "GET /orders/{id}",
    tx="read",
    roles=ANYONE,
    record="fulfillment.order",
    summary="read an order",
)
def get_order(ctx: Ctx, id: str, session: Session = SESSION) -> OrderDetail:
    return OrderDetail(**_detail(*_find_with_lines(session, id)))


# --- the unified operation ---------------------------------------------------------


@use_case(
    "fulfillment.orders.operate",
    "POST /orders/{id}/operations",
    tx="write",
    roles=ANYONE,
    says="{operation} order",
    record="fulfillment.order",
    summary="run an order operation (pick, pack, ship, cancel)",
    moves=states.ORDER.moves("pick", "unpick", "split", "pack", "ship", "cancel", field="operation"),
)
def operate(ctx: Ctx, id: str, body: OperationRequest, session: Session = SESSION) -> OperationResult:
    op = body.root
    if isinstance(op, CancelOperation) and ctx.principal.role == DEVICE_ROLE:
        raise Forbidden("a scanning device may pick, pack and ship, not cancel", {"operation": "cancel"})
    s = session
    if isinstance(op, PickOperation) and (plain := scan.load(ctx, s, id, op)) is not None:
        # Most scans: one more item on a pending order, in Core statements (services/fulfillment/scan.py).
        counted = _pick(ctx, s, *plain, op)
        scan.save(ctx, s, *plain)
        return OperationResult(**_detail(*plain), operation=op.operation, matched_line_ids=counted)
    o, lines = _find_with_lines(s, id)
    matched: list[str] = []
    backorder: OrderOut | None = None
    if isinstance(op, PickOperation):
        matched = _pick(ctx, s, o, lines, op)
    elif isinstance(op, UnpickOperation):
        matched = _unpick(o, lines, op)
    elif isinstance(op, SplitOperation):
        lines, backorder = _split(ctx, s, o, lines)
    elif isinstance(op, PackOperation):
        _pack(ctx, o, op)
    elif isinstance(op, ShipOperation):
        record_units(o, lines, op.units)
        _ship(ctx, s, o, op)
    else:
        step = states.ORDER.apply(ctx, o, "cancel")
        o.cancel_reason = op.reason
        # Inventory lets the order's held units go in this same transaction (its reaction).
        step.announce(ctx, cancelled(o))
    o.updated_at = ctx.now()
    s.flush()
    return OperationResult(**_detail(o, lines), operation=op.operation, matched_line_ids=matched, backorder=backorder)


def cancelled(o: FulfillmentOrder) -> dict[str, Any]:
    """The data of ``order.cancelled``."""
    at = o.cancelled_at or o.updated_at
    return {
        "order_id": o.id,
        "order_number": o.order_number,
        "reason": o.cancel_reason,
        "cancelled_at": at.isoformat(),
    }


def event_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An order's lines as ``order.created``/``order.updated`` carry them (what Inventory reserves)."""
    return [{"sku": ln["sku"], "quantity": ln["quantity"]} for ln in lines]


def _match(
    s: Session, o: FulfillmentOrder, lines: list[FulfillmentLine], code: str, extra: dict[str, int]
) -> FulfillmentLine:
    candidates = [ln for ln in lines if ln.barcode == code] or [ln for ln in lines if ln.sku.lower() == code.lower()]
    if not candidates:
        elsewhere = s.execute(
            select(FulfillmentLine.id).where(or_(FulfillmentLine.barcode == code, FulfillmentLine.sku == code)).limit(1)
        ).first()
        if elsewhere:
            raise ValidationFailed(
                f"item {code} is not on order {o.order_number}",
                {"code": code, "reason": "not_on_order", "order_number": o.order_number},
            )
        raise ValidationFailed(f"unknown item code {code}", {"code": code, "reason": "unknown_code"})
    # The same product on two lines: fill them in order.
    for ln in candidates:
        if ln.picked_quantity + extra[ln.id] < ln.quantity:
            return ln
    return candidates[-1]


def _pick(ctx: Ctx, s: Session, o: FulfillmentOrder, lines: list[FulfillmentLine], op: PickOperation) -> list[str]:
    states.check(o.status, "pick")
    extra: dict[str, int] = defaultdict(int)
    matched: list[str] = []
    # Check every item before changing anything: a batch is all or nothing.
    for item in op.items:
        code = item.code.strip()
        remaining = item.quantity
        while remaining:
            ln = _match(s, o, lines, code, extra)
            room = ln.quantity - ln.picked_quantity - extra[ln.id]
            if room <= 0:
                raise ValidationFailed(
                    f"one too many: {ln.name} needs {ln.quantity}, all already scanned",
                    {
                        "code": code,
                        "reason": "over_pick",
                        "line_id": ln.id,
                        "quantity": ln.quantity,
                        "picked_quantity": ln.picked_quantity + extra[ln.id],
                        "requested": item.quantity,
                    },
                )
            take = min(room, remaining)
            extra[ln.id] += take
            remaining -= take
            if ln.id not in matched:
                matched.append(ln.id)
    for ln in lines:
        if extra[ln.id]:
            ln.picked_quantity += extra[ln.id]
    if all(ln.picked_quantity >= ln.quantity for ln in lines):
        now = ctx.now()
        step = states.ORDER.apply(ctx, o, "pick")
        step.announce(ctx, {"order_id": o.id, "order_number": o.order_number, "picked_at": now.isoformat()})
    return matched


def _unpick(o: FulfillmentOrder, lines: list[FulfillmentLine], op: UnpickOperation) -> list[str]:
    """Take back scanned units, last line first; all or nothing, like a pick."""
    o.status = states.check(o.status, "unpick")
    back: dict[str, int] = defaultdict(int)
    matched: list[str] = []
    for item in op.items:
        code = item.code.strip()
        remaining = item.quantity
        for ln in reversed([ln for ln in lines if ln.barcode == code or ln.sku.lower() == code.lower()]):
            take = min(ln.picked_quantity - back[ln.id], remaining)
            if take > 0:
                back[ln.id] += take
                remaining -= take
                if ln.id not in matched:
                    matched.append(ln.id)
        if remaining:
            raise ValidationFailed(
                f"nothing to take back: {code} is not scanned on order {o.order_number}",
                {"code": code, "reason": "not_picked", "order_number": o.order_number},
            )
    for ln in lines:
        ln.picked_quantity -= back[ln.id]
        if back[ln.id]:
            _trim_codes(ln)
    o.picked_at = None
    return matched


def _trim_codes(ln: FulfillmentLine) -> None:
    """A line never names more units than it has picked: the units taken back drop their serials and
    lot quantities, the last ones first (else a later ship would name units no longer in the box)."""
    if ln.serials and len(ln.serials) > ln.picked_quantity:
        ln.serials = ln.serials[: ln.picked_quantity]  # a new list: JSON columns track assignment only
    over = sum(int(x["quantity"]) for x in ln.lots or []) - ln.picked_quantity
    if over > 0:
        kept: list[dict[str, Any]] = []
        for x in reversed(ln.lots or []):
            drop = min(over, int(x["quantity"]))
            over -= drop
            if int(x["quantity"]) > drop:
                kept.insert(0, {**x, "quantity": int(x["quantity"]) - drop})
        ln.lots = kept


def _split(
    ctx: Ctx, s: Session, o: FulfillmentOrder, lines: list[FulfillmentLine]
) -> tuple[list[FulfillmentLine], OrderOut]:
    """Ship what is picked: the order keeps its picked units, a new pending order the rest."""
    states.check(o.status, "split")
    rest = [(ln, ln.quantity - ln.picked_quantity) for ln in lines if ln.picked_quantity < ln.quantity]
    if not any(ln.picked_quantity for ln in lines):
        raise ValidationFailed(
            f"nothing of order {o.order_number} is picked: pick what ships now, then split",
            {"reason": "nothing_picked", "order_number": o.order_number},
        )
    if not rest:  # cannot happen through pick (a complete order is picked), kept for safety
        raise ValidationFailed("every line is picked: nothing to backorder", {"reason": "nothing_left"})
    back = add_order(
        ctx,
        s,
        lines=[{"sku": ln.sku, "barcode": ln.barcode, "name": ln.name, "quantity": qty} for ln, qty in rest],
        source=o.source,
        # Not the shop's id: the shop's updates keep finding the original order.
        external_number=o.external_number,
        customer_name=o.customer_name,
        customer_email=o.customer_email,
        shipping_address=dict(o.shipping_address or {}),
        billing_address=o.billing_address,
        backorder_of=o.id,
    )
    for ln in lines:
        ln.quantity = ln.picked_quantity
    for ln in [ln for ln in lines if ln.quantity == 0]:
        s.delete(ln)
    kept = [ln for ln in lines if ln.quantity > 0]
    s.flush()
    now = ctx.now()
    step = states.ORDER.apply(ctx, o, "split")
    step.announce(ctx, {"order_id": o.id, "order_number": o.order_number, "picked_at": now.isoformat()})
    # Inventory holds what each order now asks (its reactions to these two events).
    emit(
        ctx,
        "order.updated",
        {
            "order_id": o.id,
            "order_number": o.order_number,
            "lines": [{"sku": ln.sku, "quantity": ln.quantity} for ln in kept],
        },
    )
    back_lines = _lines(s, back.id)
    emit(
        ctx,
        "order.created",
        {
            "order_id": back.id,
            "order_number": back.order_number,
            "source": back.source,
            "external_id": None,
            "external_number": back.external_number,
            "line_count": len(back_lines),
            "backorder_of": o.id,
            "lines": [{"sku": ln.sku, "quantity": ln.quantity} for ln in back_lines],
        },
    )
    counts = (len(back_lines), sum(ln.quantity for ln in back_lines), 0)
    return kept, OrderOut(**_out(back, counts))


def _pack(ctx: Ctx, o: FulfillmentOrder, op: PackOperation) -> None:
    step = states.ORDER.apply(ctx, o, "pack")
    now = ctx.now()
    o.box, o.weight_grams = op.box, op.weight_grams
    step.announce(
        ctx,
        {
            "order_id": o.id,
            "order_number": o.order_number,
            "box": op.box,
            "weight_grams": op.weight_grams,
            "packed_at": now.isoformat(),
        },
    )


def _ship(ctx: Ctx, s: Session, o: FulfillmentOrder, op: ShipOperation) -> None:
    step = states.ORDER.apply(ctx, o, "ship")
    carrier = get_carrier(op.carrier)
    if op.tracking_number:
        # Allocated earlier (a station that shipped offline): check it, don't allocate again.
        if not carrier.accepts_tracking_number(op.tracking_number):
            raise ValidationFailed(
                f"{op.tracking_number} is not a {carrier.name} tracking number",
                {"tracking_number": op.tracking_number, "carrier": carrier.code},
            )
        used = s.execute(
            select(ShippingLabel.order_id).where(ShippingLabel.tracking_number == op.tracking_number)
        ).first()
        if used:
            raise Conflict("tracking number already used", {"tracking_number": op.tracking_number})
        shipment = Shipment(carrier.code, op.tracking_number, "standard")
    else:
        package = Package(o.order_number, o.box, o.weight_grams, dict(o.shipping_address or {}), order_id=o.id)
        shipment = carrier.create_shipment(ctx, package)
        if ctx.runtime.is_station:
            # The outbox records this body: the platform's replay ships under the
            # number printed here. (Stations call without Idempotency-Key, so the
            # changed body never meets a stored request hash.)
            op.tracking_number, op.carrier = shipment.tracking_number, shipment.carrier
    now = ctx.now()
    label_id = str(uuid.uuid5(_LABEL_NS, f"{ctx.tenant_id}/{shipment.tracking_number}"))
    s.add(
        ShippingLabel(
            id=label_id,
            order_id=o.id,
            carrier=shipment.carrier,
            tracking_number=shipment.tracking_number,
            title=carrier.name.upper(),
            lines=_label_lines(ctx, o),
            created_at=now,
        )
    )
    o.carrier, o.tracking_number, o.label_id = shipment.carrier, shipment.tracking_number, label_id
    # Inventory reacts to order.shipped in this same transaction: the shipped items leave the
    # shipping location's stock, the tracked lines' serials and lots leave theirs (refused when they
    # are missing or not in stock: services/inventory/shipments.take_out_shipped_order).
    step.announce(
        ctx,
        {
            "order_id": o.id,
            "tracking_number": shipment.tracking_number,
            "carrier": shipment.carrier,
            "shipped_at": now.isoformat(),
            "order_number": o.order_number,
            "label_id": label_id,
        },
    )


def normalise_code(raw: str) -> str:
    # As Inventory stores serials and lot codes (services/inventory/serials.normalise): no case,
    # spaces or dashes, so the desk's scan and the label's printed form are one code.
    return _SEPARATORS.sub("", raw).upper()


def record_units(o: FulfillmentOrder, lines: list[FulfillmentLine], units: list[ShipUnit]) -> None:
    """Put the shipped serials and lots on the order's lines (a batch's pick may have put serials there
    already). Each unit names its item; one of another order or an item not on it is 400. Whether the
    item is tracked and the unit in stock is Inventory's check, in its reaction to ``order.shipped``."""
    seen = {x for ln in lines for x in ln.serials or ()}
    for u in units:
        code = u.code.strip()
        of_item = [ln for ln in lines if ln.barcode == code] or [ln for ln in lines if ln.sku.lower() == code.lower()]
        if not of_item:
            raise ValidationFailed(
                f"item {code} is not on order {o.order_number}",
                {"code": code, "reason": "not_on_order", "order_number": o.order_number},
            )
        if u.serial is not None:
            serial = normalise_code(u.serial)
            if serial in seen:
                raise ValidationFailed(
                    f"serial {serial} is given twice for order {o.order_number}",
                    {"reason": "serial_twice", "serial": serial, "line_id": of_item[0].id},
                )
            seen.add(serial)
            # The first line of the item that still has room for a serial (the same item on two lines).
            ln = next((x for x in of_item if len(x.serials or ()) < x.quantity), of_item[-1])
            ln.serials = [*(ln.serials or ()), serial]  # a new list: JSON columns track assignment only
        else:
            assert u.lot is not None
            ln = of_item[0]
            ln.lots = with_lot(ln.lots or [], normalise_code(u.lot), u.quantity)


def with_lot(lots: list[dict[str, Any]], code: str, quantity: int) -> list[dict[str, Any]]:
    """``lots`` with ``quantity`` more of ``code``: a new list (JSON columns track assignment only)."""
    out = [dict(x) for x in lots]
    found = next((x for x in out if x["code"] == code), None)
    if found is None:
        out.append({"code": code, "quantity": quantity})
    else:
        found["quantity"] += quantity
    return out


def _label_lines(ctx: Ctx, o: FulfillmentOrder) -> list[str]:
    a = o.shipping_address or {}
    out = ["SHIP TO:", str(a.get("name") or o.customer_name or "")]
    for key in ("company", "address1", "address2"):
        if a.get(key):
            out.append(str(a[key]))
    out.append(" ".join(str(a[k]) for k in ("zip", "city", "province") if a.get(k)))
    if a.get("country"):
        out.append(str(a["country"]))
    extra = f"Order {o.order_number}"
    if o.box:
        extra += f"  Box {o.box}"
    if o.weight_grams:
        extra += f"  {o.weight_grams / 1000:.2f} kg"
    out += ["", extra, f"From: {ctx.tenant.name if ctx.tenant else ''}"]
    return [ln[:40] for ln in out]


# --- creating orders (staff, webhooks, demo) ---------------------------------------------


@use_case(
    "fulfillment.orders.create",
    "POST /orders",
    tx="write",
    roles=STAFF,
    status=201,
    says="New order",
    record="fulfillment.order",
    summary="take an order by hand (phone, counter, a replacement): pending, to pick like any other",
)
def create_order(ctx: Ctx, body: NewOrder, session: Session = SESSION) -> OrderDetail:
    lines = [{"sku": li.sku, "name": li.name or li.sku, "quantity": li.quantity} for li in body.lines]
    o = add_order(
        ctx,
        session,
        lines=lines,
        source="manual",
        customer_name=body.customer_name,
        customer_email=body.customer_email,
        shipping_address=body.shipping_address.model_dump(exclude_none=True) if body.shipping_address else {},
    )
    emit(
        ctx,
        "order.created",
        {
            "order_id": o.id,
            "order_number": o.order_number,
            "source": "manual",
            "external_id": None,
            "external_number": None,
            "line_count": len(lines),
            # Inventory holds these at the shipping location (its reaction, this transaction).
            "lines": event_lines(lines),
        },
    )
    return OrderDetail(**_detail(*_find_with_lines(session, o.id)))


# --- creating orders (webhooks, demo) ----------------------------------------------------


def new_order_number(ctx: Ctx) -> tuple[str, str]:
    """The next order number and its pick-list barcode (``SO-1001``, ``PL0000010014``)."""
    n = 1000 + next_value(ctx, ctx.tenant_id, "fulfillment.order")
    return f"SO-{n}", "PL" + with_check_digit(f"{n:09d}")


def add_order(
    ctx: Ctx,
    s: Session,
    *,
    lines: list[dict[str, Any]],
    created_at: datetime | None = None,
    id: str | None = None,
    **fields: Any,
) -> FulfillmentOrder:
    number, pick = new_order_number(ctx)
    now = created_at or ctx.now()
    o = FulfillmentOrder(
        id=id or new_id(),
        order_number=number,
        pick_barcode=pick,
        status="pending",
        created_at=now,
        updated_at=now,
        **fields,
    )
    s.add(o)
    s.flush()
    replace_lines(s, o, lines)
    return o


def replace_lines(s: Session, o: FulfillmentOrder, lines: list[dict[str, Any]]) -> None:
    for old in _lines(s, o.id):
        s.delete(old)
    s.flush()
    for i, new in enumerate(lines):
        s.add(
            FulfillmentLine(
                id=new.get("id") or new_id(),
                order_id=o.id,
                position=i,
                sku=new["sku"],
                barcode=new.get("barcode"),
                name=new["name"],
                quantity=new["quantity"],
                picked_quantity=new.get("picked_quantity", 0),
            )
        )
    s.flush()
