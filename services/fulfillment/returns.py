"""Fulfillment returns (RMA): a return authorised for a shipped order, then received by scanning.

Only what shipped comes back: an order that never shipped has no return (409), and a line's
returns never add up to more than it shipped (400). Each scanned unit is received with its
condition; ``return.received`` tells Inventory, whose reaction puts resellable units back into
the shipping location and damaged ones into quarantine (services/inventory/returns.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.fulfillment import FulfillmentOrder, FulfillmentReturn
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed, find_ref
from services.core.events import emit
from services.core.roles import ANYONE, STAFF
from services.fulfillment.orders import _find, _lines
from services.fulfillment.schemas import ReturnIn, ReturnOut, ReturnReceive

SHIPPED = ("shipped", "delivered")

record_kind("fulfillment.return", get="fulfillment.returns.get", label="rma_number")


def _out(r: FulfillmentReturn, order_number: str) -> ReturnOut:
    return ReturnOut(
        id=r.id,
        order_id=r.order_id,
        order_number=order_number,
        rma_number=r.rma_number,
        lines=list(r.lines),
        reason=r.reason,
        status=r.status,
        created_at=r.created_at,
        updated_at=r.updated_at,
        label_id=r.label_id,
        carrier=r.carrier,
        tracking_number=r.tracking_number,
    )


def _returned(s: Session, order_id: str) -> dict[str, int]:
    """Units of each SKU already authorised for return on the order."""
    out: dict[str, int] = {}
    for (lines,) in s.execute(select(FulfillmentReturn.lines).where(FulfillmentReturn.order_id == order_id)):
        for ln in lines:
            out[ln["sku"]] = out.get(ln["sku"], 0) + int(ln["quantity"])
    return out


@use_case(
    "fulfillment.returns.create",
    "POST /orders/{id}/returns",
    tx="write",
    roles=STAFF,
    status=201,
    says="Return authorised",
    record="fulfillment.return",
    summary="authorise a return (RMA) of a shipped order's items",
)
def authorise_return(ctx: Ctx, id: str, body: ReturnIn, session: Session = SESSION) -> ReturnOut:
    o = _find(session, id)
    if o.status not in SHIPPED:
        raise Conflict(
            f"order {o.order_number} has not shipped: there is nothing to return",
            {"reason": "not_shipped", "current_state": o.status},
        )
    shipped: dict[str, int] = {}
    for ln in _lines(session, o.id):
        shipped[ln.sku] = shipped.get(ln.sku, 0) + ln.quantity
    asked: dict[str, int] = {}
    for want in body.lines:
        asked[want.sku] = asked.get(want.sku, 0) + want.quantity
    before = _returned(session, o.id)
    for sku, qty in asked.items():
        if sku not in shipped:
            raise ValidationFailed(f"{sku} did not ship on {o.order_number}", {"sku": sku, "reason": "not_shipped"})
        if qty + before.get(sku, 0) > shipped[sku]:
            raise ValidationFailed(
                f"{sku}: {shipped[sku]} shipped, {before.get(sku, 0)} already returned, {qty} asked",
                {"sku": sku, "reason": "more_than_shipped", "shipped": shipped[sku], "returned": before.get(sku, 0)},
            )
    now = ctx.now()
    earlier = session.execute(select(func.count()).where(FulfillmentReturn.order_id == o.id)).scalar_one()
    r = FulfillmentReturn(
        id=new_id(),
        order_id=o.id,
        # From the order and its returns, not a counter: a station offline and the platform
        # replaying its change name the return alike (RMA-1031-1, the first of SO-1031).
        rma_number=f"RMA-{o.order_number.removeprefix('SO-')}-{earlier + 1}",
        lines=[{"sku": sku, "quantity": qty, "received": {}} for sku, qty in asked.items()],
        reason=body.reason,
        status="authorised",
        created_at=now,
        updated_at=now,
    )
    session.add(r)
    session.flush()
    emit(ctx, "return.authorised", {"return_id": r.id, "rma_number": r.rma_number, "order_id": o.id,
                                    "order_number": o.order_number, "lines": asked})  # fmt: skip
    return _out(r, o.order_number)


def _find_return(s: Session, ref: str) -> FulfillmentReturn:
    return find_ref(s, FulfillmentReturn, ref, FulfillmentReturn.rma_number, what="return", fold_case=True)


@use_case(
    "fulfillment.returns.get",
    "GET /returns/{id}",
    tx="read",
    roles=ANYONE,
    record="fulfillment.return",
    summary="read a return (by id or RMA number)",
)
def get_return(ctx: Ctx, id: str, session: Session = SESSION) -> ReturnOut:
    r = _find_return(session, id)
    o = session.get(FulfillmentOrder, r.order_id)
    return _out(r, o.order_number if o else "")


@use_case(
    "fulfillment.returns.receive",
    "POST /returns/{id}/receive",
    tx="write",
    roles=ANYONE,
    says="Return received",
    record="fulfillment.return",
    summary="receive returned items by scan, each resellable (back to stock) or damaged (quarantine)",
)
def receive_return(ctx: Ctx, id: str, body: ReturnReceive, session: Session = SESSION) -> ReturnOut:
    r = _find_return(session, id)
    o = session.get(FulfillmentOrder, r.order_id)
    assert o is not None
    barcodes = {ln.barcode: ln.sku for ln in _lines(session, o.id) if ln.barcode}
    lines: list[dict[str, Any]] = [dict(ln, received=dict(ln.get("received") or {})) for ln in r.lines]
    by_sku = {ln["sku"]: ln for ln in lines}
    received: list[dict[str, Any]] = []
    # All or nothing: every scan is checked before anything is recorded.
    for item in body.items:
        code = item.code.strip()
        sku = barcodes.get(code) or next((k for k in by_sku if k.lower() == code.lower()), None)
        if sku is None or sku not in by_sku:
            raise ValidationFailed(f"{code} is not on return {r.rma_number}", {"code": code, "reason": "not_on_return"})
        ln = by_sku[sku]
        done = sum(ln["received"].values())
        if done + item.quantity > ln["quantity"]:
            raise ValidationFailed(
                f"{sku}: {ln['quantity']} authorised, {done} received, {item.quantity} scanned",
                {"code": code, "reason": "over_receipt", "authorised": ln["quantity"], "received": done},
            )
        ln["received"][item.condition] = ln["received"].get(item.condition, 0) + item.quantity
        received.append({"sku": sku, "quantity": item.quantity, "condition": item.condition})
    r.lines = lines
    complete = all(sum(ln["received"].values()) >= ln["quantity"] for ln in lines)
    r.status = "received" if complete else "partly_received"
    r.updated_at = ctx.now()
    session.flush()
    # Inventory takes the units in, in this transaction (its reaction).
    emit(ctx, "return.received", {"return_id": r.id, "rma_number": r.rma_number, "order_id": o.id,
                                  "order_number": o.order_number, "items": received})  # fmt: skip
    return _out(r, o.order_number)
