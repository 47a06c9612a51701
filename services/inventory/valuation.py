"""Stock valuation: the unit cost and value of every movement, FIFO or average per tenant.

The tenant setting ``inventory.valuation`` is ``fifo`` or ``average`` (the default). Units that
come into the books (a receipt, a count or adjustment up, a return, production) add a cost layer at
their unit cost: the one given (a purchase order line's, a lot receipt's), else the item's
``unit_cost``, else what the item's units cost now. FIFO keeps a layer per arrival and takes
leaving units (a shipment, a count down, consumption) from the oldest; average keeps one layer per
item at the running weighted average. A transfer between locations carries the current cost and
changes no layer. Units leaving beyond every layer (stock that came in before valuation, or below
zero) are valued at the item's ``unit_cost`` or 0.

The value of a location at a date is what its movements brought in less what they took out, up to
that date (``GET valuation``): the movements are the ledger, so a report for a past date needs no
snapshot.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, literal, select, union_all
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.inventory import InventoryItem, InventoryLocation, InventoryMovement
from local_db.models.inventory_purchasing import InventoryCostLayer
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.inventory.purchasing_schemas import ValuationOut, ValuationQuery, ValuationRow

declare_defaults("inventory.valuation", record="inventory.valuation")

CENT = Decimal("0.0001")
ZERO = Decimal(0)


def method(s: Session, tenant_id: str) -> str:
    t = s.get(Tenant, tenant_id)
    chosen = (((t.settings if t else None) or {}).get("inventory") or {}).get("valuation")
    return "fifo" if chosen == "fifo" else "average"


def _layers(s: Session, sku: str) -> list[InventoryCostLayer]:
    return list(
        s.execute(
            select(InventoryCostLayer)
            .where(InventoryCostLayer.sku == sku, InventoryCostLayer.remaining > 0)
            .order_by(InventoryCostLayer.at, InventoryCostLayer.id)
        ).scalars()
    )


def _fallback(s: Session, sku: str) -> Decimal:
    cost = s.execute(select(InventoryItem.unit_cost).where(InventoryItem.sku == sku)).scalar_one_or_none()
    return Decimal(cost) if cost is not None else ZERO


def current_cost(s: Session, sku: str) -> Decimal:
    """What a unit of ``sku`` costs now: the weighted average of its layers, else the item's cost."""
    layers = _layers(s, sku)
    units = sum(x.remaining for x in layers)
    if not units:
        return _fallback(s, sku)
    return (sum(Decimal(x.unit_cost) * x.remaining for x in layers) / units).quantize(CENT)


def _came_in(ctx: Ctx, s: Session, sku: str, quantity: int, unit_cost: Decimal | None) -> Decimal:
    cost = unit_cost if unit_cost is not None else _item_or_current(s, sku)
    if method(s, ctx.tenant_id) == "fifo":
        s.add(InventoryCostLayer(id=new_id(), sku=sku, remaining=quantity, unit_cost=cost, at=ctx.now()))
        return cost
    layers = _layers(s, sku)
    if not layers:
        s.add(InventoryCostLayer(id=new_id(), sku=sku, remaining=quantity, unit_cost=cost, at=ctx.now()))
        return cost
    # Average: one layer; a method switched from FIFO folds its layers into the first.
    keep, rest = layers[0], layers[1:]
    units = sum(x.remaining for x in layers)
    total = sum(Decimal(x.unit_cost) * x.remaining for x in layers) + cost * quantity
    for x in rest:
        x.remaining = 0
    keep.remaining = units + quantity
    keep.unit_cost = (total / keep.remaining).quantize(CENT)
    return cost


def _item_or_current(s: Session, sku: str) -> Decimal:
    cost = s.execute(select(InventoryItem.unit_cost).where(InventoryItem.sku == sku)).scalar_one_or_none()
    return Decimal(cost) if cost is not None else current_cost(s, sku)


def _went_out(s: Session, sku: str, quantity: int) -> Decimal:
    """The value of ``quantity`` units leaving the books, taken from the oldest layers first
    (average: the one layer)."""
    left, value = quantity, ZERO
    for layer in _layers(s, sku):
        if left <= 0:
            break
        take = min(left, layer.remaining)
        layer.remaining -= take
        value += Decimal(layer.unit_cost) * take
        left -= take
    if left > 0:
        value += _fallback(s, sku) * left
    return value.quantize(CENT)


def value_movement(
    ctx: Ctx, s: Session, *, sku: str, quantity: int, inbound: bool, outbound: bool, unit_cost: Decimal | None
) -> tuple[Decimal, Decimal]:
    """(unit cost, value) of a movement, updating the cost layers; called by ``stock.move``."""
    if inbound:
        cost = _came_in(ctx, s, sku, quantity, unit_cost)
        s.flush()
        return cost, (cost * quantity).quantize(CENT)
    if outbound:
        value = _went_out(s, sku, quantity)
        s.flush()
        return (value / quantity).quantize(CENT), value
    cost = current_cost(s, sku)
    return cost, (cost * quantity).quantize(CENT)


@use_case(
    "inventory.valuation.report",
    "GET /valuation",
    tx="read",
    summary="the value of stock per item and location at a date (FIFO or average, the tenant's setting)",
)
def report(ctx: Ctx, query: ValuationQuery, session: Session = SESSION) -> ValuationOut:
    from services.inventory import stock as engine

    s = session
    at: datetime = query.at or ctx.now()
    m = InventoryMovement
    cond: list[Any] = [m.at <= at]
    if query.sku:
        cond.append(m.sku == query.sku)
    into = select(m.sku.label("sku"), m.to_location_id.label("loc"), m.quantity.label("q"),
                  func.coalesce(m.value, 0).label("v")).where(m.to_location_id.is_not(None), *cond)  # fmt: skip
    out = select(m.sku.label("sku"), m.from_location_id.label("loc"), (literal(0) - m.quantity).label("q"),
                 (literal(0) - func.coalesce(m.value, 0)).label("v")).where(m.from_location_id.is_not(None), *cond)  # fmt: skip
    both = union_all(into, out).subquery()
    stmt = (
        select(both.c.sku, both.c.loc, InventoryLocation.code, func.sum(both.c.q), func.sum(both.c.v))
        .join(InventoryLocation, InventoryLocation.id == both.c.loc)
        .where(InventoryLocation.kind.in_(("internal", "transit", "quarantine")))
        .group_by(both.c.sku, both.c.loc, InventoryLocation.code)
        .order_by(both.c.sku, InventoryLocation.code)
    )
    if query.location_id:
        engine.location(s, query.location_id)  # 404 for an unknown one
        stmt = stmt.where(both.c.loc.in_(engine.within(query.location_id)))
    rows = [
        ValuationRow(
            sku=sku,
            location_id=loc,
            location_code=code,
            quantity=int(q),
            value=Decimal(v or 0).quantize(Decimal("0.01")),
        )  # fmt: skip
        for sku, loc, code, q, v in s.execute(stmt)
        if int(q) or Decimal(v or 0)
    ]
    return ValuationOut(
        at=at, method=method(s, ctx.tenant_id), rows=rows, total=sum((r.value for r in rows), Decimal("0.00"))
    )
