"""Purchasing: reorder rules (min/max per item and location), their run that proposes purchase
orders grouped by supplier, and purchase orders received by scanning (partial receipts).

A run looks at each rule: when the location's available stock (on hand − reserved) plus what open
purchase orders still bring there (draft, sent, partially received) is below ``min_quantity``, it
proposes the difference up to ``max_quantity``. The proposals become draft purchase orders, one per
supplier (the item's ``supplier``; none: one order without a supplier for a person to fill) and
location. What they bring counts as on order at once, so a second run proposes nothing twice. The
run is a use case (``POST reorder-rules/run``) and an hourly scheduler job over every tenant.

A receipt names lines by SKU or barcode (what a scan gives): each moves into the order's location
as a ``receipt`` movement with the order number as reference. More than ordered is 409
``over_receipt`` unless the tenant allows a tolerance (setting
``inventory.over_receipt_tolerance_pct``, a percentage of the line); nothing moves then. A
lot-tracked item's line names its ``lot`` (and ``expires_on``), a serial-tracked one its
``serials`` (one a unit); they are received as ``lots.receive`` and ``serials.receive`` would,
with the order number as reference.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.inventory import InventoryItem, InventoryStock
from local_db.models.inventory_purchasing import InventoryPurchaseOrder, InventoryReorderRule
from services.core.commands import SESSION, leased_counter, next_value, record_kind, use_case
from services.core.context import Ctx, Runtime
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, ValidationFailed, find_ref
from services.core.events import emit
from services.core.pagination import Listing, Page, one_of
from services.core.roles import STAFF
from services.core.scheduler import each_tenant, periodic
from services.inventory import stock as engine
from services.inventory.items import find_item
from services.inventory.lot_schemas import LotReceive
from services.inventory.lots import receive_lot
from services.inventory.purchasing_schemas import (
    POLine,
    PurchaseOrderIn,
    PurchaseOrderMove,
    PurchaseOrderOut,
    PurchaseOrderQuery,
    PurchaseOrderReceipt,
    ReceiptLine,
    ReorderRuleIn,
    ReorderRuleOut,
    ReorderRuleQuery,
    ReorderRunOut,
)
from services.inventory.schemas import SerialsReceive
from services.inventory.serials import receive_serials
from services.inventory.states import PURCHASE_ORDER, PURCHASE_ORDER_STATES

declare_defaults("inventory.purchase_orders", record="inventory.purchase_order")
record_kind("inventory.purchase_order", get="inventory.purchase_orders.get", label="number")
# Leased in blocks like fulfillment's batch numbers: a station offline prints numbers no other takes.
PO_NUMBERS = leased_counter("inventory.purchase_order", 100)
OPEN = ("draft", "sent", "partially_received")


# --- reorder rules ---------------------------------------------------------------------------


@use_case(
    "inventory.reorder_rules.save",
    "POST /reorder-rules",
    tx="write",
    roles=STAFF,
    says="Reorder rule saved",
    summary="set the min/max of an item at a location (one rule per item and location)",
)
def save_rule(ctx: Ctx, body: ReorderRuleIn, session: Session = SESSION) -> ReorderRuleOut:
    loc = engine.location(session, body.location_id)
    rule = (
        session.execute(
            select(InventoryReorderRule).where(
                InventoryReorderRule.sku == body.sku, InventoryReorderRule.location_id == loc.id
            )
        )
        .scalars()
        .first()
    )
    now = ctx.now()
    if rule is None:
        rule = InventoryReorderRule(id=new_id(), sku=body.sku, location_id=loc.id, created_at=now)
        session.add(rule)
    rule.min_quantity, rule.max_quantity, rule.updated_at = body.min_quantity, body.max_quantity, now
    session.flush()
    return ReorderRuleOut.model_validate(rule)


RULES = Listing(
    InventoryReorderRule,
    filters={"sku": InventoryReorderRule.sku},
    sort={"sku": InventoryReorderRule.sku, "created_at": InventoryReorderRule.created_at},
    default_sort="sku",
)


@use_case(
    "inventory.reorder_rules.list",
    "GET /reorder-rules",
    tx="read",
    summary="list reorder rules",
)
def list_rules(ctx: Ctx, query: ReorderRuleQuery, session: Session = SESSION) -> Page[ReorderRuleOut]:
    return RULES.page(session, query, ReorderRuleOut)


def _on_order(s: Session) -> dict[tuple[str, str], int]:
    """(sku, location id) -> units open purchase orders still bring there."""
    out: dict[tuple[str, str], int] = {}
    for po in s.execute(select(InventoryPurchaseOrder).where(InventoryPurchaseOrder.status.in_(OPEN))).scalars():
        for ln in po.lines:
            key = (str(ln["sku"]), po.location_id)
            out[key] = out.get(key, 0) + int(ln["quantity"]) - int(ln.get("received") or 0)
    return out


def _new_order(ctx: Ctx, s: Session, *, supplier: str | None, location_id: str, lines: list[dict[str, Any]],
               origin: str, note: str | None = None) -> InventoryPurchaseOrder:  # fmt: skip
    now = ctx.now()
    po = InventoryPurchaseOrder(
        id=new_id(),
        number=f"PO-{next_value(ctx, ctx.tenant_id, PO_NUMBERS):05d}",
        supplier=supplier,
        location_id=location_id,
        lines=lines,
        status="draft",
        origin=origin,
        note=note,
        created_at=now,
        updated_at=now,
    )
    s.add(po)
    s.flush()
    return po


def run_reorder(ctx: Ctx, s: Session) -> ReorderRunOut:
    levels = {
        (sku, loc): int(q) - int(r)
        for sku, loc, q, r in s.execute(
            select(
                InventoryStock.sku, InventoryStock.location_id, InventoryStock.quantity, InventoryStock.reserved
            ).join(
                InventoryReorderRule,
                (InventoryReorderRule.sku == InventoryStock.sku)
                & (InventoryReorderRule.location_id == InventoryStock.location_id),
            )  # fmt: skip
        )
    }
    coming = _on_order(s)
    suppliers = dict(s.execute(select(InventoryItem.sku, InventoryItem.supplier)).all())
    groups: dict[tuple[str | None, str], list[dict[str, Any]]] = {}
    for rule in s.execute(select(InventoryReorderRule).order_by(InventoryReorderRule.sku)).scalars():
        key = (rule.sku, rule.location_id)
        forecast = levels.get(key, 0) + coming.get(key, 0)
        if forecast < rule.min_quantity:
            groups.setdefault((suppliers.get(rule.sku), rule.location_id), []).append(
                {"sku": rule.sku, "quantity": rule.max_quantity - forecast, "received": 0}
            )
    made = [
        _new_order(ctx, s, supplier=supplier, location_id=loc, lines=lines, origin="reorder")
        for (supplier, loc), lines in sorted(groups.items(), key=lambda kv: (kv[0][0] or "", kv[0][1]))
    ]
    out = [_out(po) for po in made]
    if made:
        emit(ctx, "reorder.proposed", {"purchase_orders": [{"id": po.id, "number": po.number, "supplier": po.supplier,
                                                            "lines": po.lines} for po in made]})  # fmt: skip
    return ReorderRunOut(purchase_orders=out, lines=sum(len(po.lines) for po in made))


@use_case(
    "inventory.reorder_rules.run",
    "POST /reorder-rules/run",
    tx="write",
    roles=STAFF,
    says="Reorder run",
    record="inventory.purchase_order",
    summary="propose draft purchase orders (one per supplier and location) for items below their minimum",
)
def run_now(ctx: Ctx, session: Session = SESSION) -> ReorderRunOut:
    return run_reorder(ctx, session)


def _run_one(ctx: Ctx) -> Any:
    ctx.operation = ("inventory.reorder_rules.run", "inventory.purchase_order")  # open lists refresh
    with ctx.write() as s:
        return {"purchase_orders": len(run_reorder(ctx, s).purchase_orders)}


@periodic("inventory.reorder", every=timedelta(hours=1), lease=timedelta(minutes=10))
def reorder_all(rt: Runtime) -> dict[str, Any]:
    """Every tenant's reorder run, hourly (a second run proposes nothing the first did)."""
    done = each_tenant(rt, _run_one, module="inventory")
    return {"tenants": len(done), "purchase_orders": sum(r["purchase_orders"] for r in done.values())}


# --- purchase orders -------------------------------------------------------------------------


def _out(po: InventoryPurchaseOrder) -> PurchaseOrderOut:
    return PurchaseOrderOut(
        id=po.id,
        number=po.number,
        supplier=po.supplier,
        location_id=po.location_id,
        lines=[POLine(**ln) for ln in po.lines],
        status=po.status,  # type: ignore[arg-type]
        origin=po.origin,
        note=po.note,
        created_at=po.created_at,
        updated_at=po.updated_at,
        sent_at=po.sent_at,
        received_at=po.received_at,
        cancelled_at=po.cancelled_at,
    )


def _find(s: Session, ref: str) -> InventoryPurchaseOrder:
    """By id or by number (a scan of the printed order)."""
    return find_ref(s, InventoryPurchaseOrder, ref, InventoryPurchaseOrder.number, what="purchase order", key="id",
                    fold_case=True)  # fmt: skip


@use_case(
    "inventory.purchase_orders.create",
    "POST /purchase-orders",
    tx="write",
    roles=STAFF,
    status=201,
    says="Purchase order created",
    summary="a draft purchase order by hand",
)
def create_po(ctx: Ctx, body: PurchaseOrderIn, session: Session = SESSION) -> PurchaseOrderOut:
    loc = engine.location(session, body.location_id)
    merged: dict[str, dict[str, Any]] = {}
    for ln in body.lines:
        line = merged.setdefault(ln.sku, {"sku": ln.sku, "quantity": 0, "received": 0, "unit_cost": None})
        line["quantity"] += ln.quantity
        if ln.unit_cost is not None:
            line["unit_cost"] = str(ln.unit_cost)
    lines = list(merged.values())
    po = _new_order(ctx, session, supplier=body.supplier, location_id=loc.id, lines=lines, origin="manual",
                    note=body.note)  # fmt: skip
    return _out(po)


@use_case("inventory.purchase_orders.get", "GET /purchase-orders/{id}", tx="read",
          summary="a purchase order by id or by number (a scan)")  # fmt: skip
def get_po(ctx: Ctx, id: str, session: Session = SESSION) -> PurchaseOrderOut:
    return _out(_find(session, id))


ORDERS = Listing(
    InventoryPurchaseOrder,
    filters={
        "status": one_of(InventoryPurchaseOrder.status, PURCHASE_ORDER_STATES),
        "supplier": InventoryPurchaseOrder.supplier,
    },
    search=(InventoryPurchaseOrder.number, InventoryPurchaseOrder.supplier),
    sort={"created_at": InventoryPurchaseOrder.created_at, "number": InventoryPurchaseOrder.number},
)


@use_case("inventory.purchase_orders.list", "GET /purchase-orders", tx="read",
          summary="list purchase orders (by status, supplier; search by number)")  # fmt: skip
def list_pos(ctx: Ctx, query: PurchaseOrderQuery, session: Session = SESSION) -> Page[PurchaseOrderOut]:
    return ORDERS.page(session, query, _out)


def _announce(ctx: Ctx, type_: str, po: InventoryPurchaseOrder, **more: Any) -> None:
    emit(ctx, type_, {"purchase_order_id": po.id, "number": po.number, "supplier": po.supplier,
                      "location_id": po.location_id, "lines": po.lines, **more})  # fmt: skip


@use_case(
    "inventory.purchase_orders.update",
    "PATCH /purchase-orders/{id}",
    tx="write",
    roles=STAFF,
    says="Purchase order updated",
    summary="send a draft purchase order, or cancel one not yet received",
)
def move_po(ctx: Ctx, id: str, body: PurchaseOrderMove, session: Session = SESSION) -> PurchaseOrderOut:
    po = _find(session, id)
    action = "send" if body.status == "sent" else "cancel"
    step = PURCHASE_ORDER.apply(ctx, po, action, verb=f"move to {body.status}")
    po.updated_at = ctx.now()
    session.flush()
    if step.emits:
        _announce(ctx, step.emits, po)
    return _out(po)


def _check_tracking(item: InventoryItem | None, sku: str, ln: ReceiptLine) -> None:
    """A tracked item's units come with their lot or serials (a recall or a warranty reads them);
    a lot only on an item that tracks lots. Serials are taken for any item, as ``serials.receive``
    takes them. 400 names what is missing; nothing is stored."""
    tracking = item.tracking if item is not None else "none"
    if tracking == "lot" and ln.lot is None:
        raise ValidationFailed(f"{sku} tracks lots: give the lot of these {ln.quantity} units",
                               {"reason": "lot_required", "code": ln.code, "sku": sku})  # fmt: skip
    if tracking == "serial" and ln.serials is None:
        raise ValidationFailed(f"{sku} tracks serial numbers: give one serial per unit",
                               {"reason": "serial_required", "code": ln.code, "sku": sku})  # fmt: skip
    if tracking != "lot" and ln.lot is not None:
        raise ValidationFailed(f"{sku} does not track lots: receive it without a lot",
                               {"reason": "not_lot_tracked", "code": ln.code, "sku": sku})  # fmt: skip


def _receive_tracked(ctx: Ctx, s: Session, po: InventoryPurchaseOrder, location_id: str, sku: str,
                     ln: ReceiptLine, cost: str | None) -> dict[str, Any]:  # fmt: skip
    """One line of a lot or of serials, through the use case that receives them anywhere else, so
    the lot's expiry check, the serial's one-place rule and their events are the same."""
    unit_cost = Decimal(cost) if cost is not None else None
    if ln.lot is not None:
        lot = receive_lot(ctx, LotReceive(sku=sku, code=ln.lot, expires_on=ln.expires_on, location_id=location_id,
                                          quantity=ln.quantity, reference=po.number, unit_cost=unit_cost),
                          session=s)  # fmt: skip
        return {"sku": sku, "quantity": ln.quantity, "lot": lot.code}
    got = receive_serials(ctx, SerialsReceive(sku=sku, location_id=location_id, serials=ln.serials or [],
                                              reference=po.number), session=s)  # fmt: skip
    return {"sku": sku, "quantity": ln.quantity, "serials": [x.serial for x in got.serials],
            "movement_id": got.movement_id}  # fmt: skip


def _tolerance(s: Session, tenant_id: str) -> float:
    t = s.get(Tenant, tenant_id)
    raw = (((t.settings if t else None) or {}).get("inventory") or {}).get("over_receipt_tolerance_pct", 0)
    try:
        return max(float(raw), 0.0)
    except (TypeError, ValueError):
        return 0.0  # a setting that is not a number allows nothing over


@use_case(
    "inventory.purchase_orders.receive",
    "POST /purchase-orders/{id}/receive",
    tx="write",
    says="Purchase order received",
    record="inventory.purchase_order",
    summary="receive scanned lines of a sent purchase order into its location (partial receipts)",
)
def receive_po(ctx: Ctx, id: str, body: PurchaseOrderReceipt, session: Session = SESSION) -> PurchaseOrderOut:
    s = session
    po = _find(s, id)
    if po.status not in ("sent", "partially_received"):
        raise Conflict(f"purchase order {po.number} is {po.status}: only a sent one is received",
                       {"current_state": po.status})  # fmt: skip
    by_sku = {str(ln["sku"]): dict(ln) for ln in po.lines}
    wanted: dict[str, int] = {}
    plain: dict[str, int] = {}  # untracked units per SKU: one movement each, as before lots
    tracked: list[tuple[str, ReceiptLine]] = []  # a lot's or serials' line: received by its own use case
    for ln in body.lines:
        item = find_item(s, ln.code)
        sku = item.sku if item is not None else ln.code.strip()
        if sku not in by_sku:
            raise ValidationFailed(f"{ln.code} is not on {po.number}", {"reason": "not_on_order", "code": ln.code})
        _check_tracking(item, sku, ln)
        wanted[sku] = wanted.get(sku, 0) + ln.quantity
        if ln.lot is None and ln.serials is None:
            plain[sku] = plain.get(sku, 0) + ln.quantity
        else:
            tracked.append((sku, ln))
    tol = _tolerance(s, ctx.tenant_id)
    over = {}
    for sku, q in wanted.items():
        line = by_sku[sku]
        allowed = int(line["quantity"] * (1 + tol / 100)) - int(line.get("received") or 0)
        if q > allowed:
            over[sku] = {"ordered": line["quantity"], "received": line.get("received") or 0, "asked": q}
    if over:
        raise Conflict(f"more than ordered on {po.number}" + (f" (tolerance {tol:g} %)" if tol else ""),
                       {"reason": "over_receipt", "lines": over})  # fmt: skip
    loc = engine.location(s, po.location_id)
    moved = []
    for sku, q in plain.items():
        cost = by_sku[sku].get("unit_cost")
        mid, _levels = engine.move(ctx, s, sku=sku, quantity=q, kind="receipt", source=None, target=loc,
                                   reference=po.number, reason=f"purchase order {po.number}",
                                   unit_cost=Decimal(cost) if cost is not None else None)  # fmt: skip
        moved.append({"sku": sku, "quantity": q, "movement_id": mid})
    for sku, ln in tracked:
        moved.append(_receive_tracked(ctx, s, po, loc.id, sku, ln, by_sku[sku].get("unit_cost")))
    for sku, q in wanted.items():
        by_sku[sku]["received"] = int(by_sku[sku].get("received") or 0) + q
    for sku in wanted:
        engine.check_alerts(ctx, s, sku, [loc.id], f"purchase order {po.number}")
    po.lines = list(by_sku.values())  # a new list: the JSON column sees the change
    done = all(int(ln["received"]) >= int(ln["quantity"]) for ln in po.lines)
    step = PURCHASE_ORDER.apply(ctx, po, "receive_all" if done else "receive_part") if (
        done or po.status == "sent") else None  # fmt: skip
    po.updated_at = ctx.now()
    s.flush()
    _announce(ctx, "purchase_order.receipt", po, received=moved, status=po.status)
    if step is not None and step.emits:
        _announce(ctx, step.emits, po)
    return _out(po)
