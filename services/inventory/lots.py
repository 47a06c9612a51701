"""Lots: units of an item received under one code (and expiry), moved, counted, shipped, recalled.

Only an item whose ``tracking`` is ``lot`` takes lots (any other is 400, nothing stored). A lot's
units are part of the item's stock row at each location: every lot change moves that row through
the quantity engine (``stock.move``) with a movement that names the lot, so the engine's rule
(movements add up to the quantity) still holds and a recall reads the lot's shipments from the
movements. Taking more than the lot holds at a location is 409 naming what it holds.
Lot codes compare without case, spaces and dashes: ``l-24 07`` and ``L2407`` are one lot.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from sqlalchemy import nulls_last, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryItem, InventoryLocation, InventoryMovement
from local_db.models.inventory_lots import InventoryLot, InventoryLotStock
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Listing, Page
from services.inventory import stock as engine
from services.inventory.lot_schemas import (
    LotCount,
    LotMove,
    LotOut,
    LotPlace,
    LotQuery,
    LotReceive,
    LotShip,
    PickLine,
    PickQuery,
    PickSuggestion,
    RecallOut,
    RecallShipment,
)

declare_defaults("inventory.lots", record="inventory.lot")
record_kind("inventory.lot", get="inventory.lots.get", label="code")


_SEPARATORS = re.compile(r"[\s\-]+")


def normalise(code: str) -> str:
    # As serials compare: a label's spaces and dashes are typed and scanned either way.
    return _SEPARATORS.sub("", code).upper()


def _tracked_item(s: Session, sku: str) -> InventoryItem:
    item = s.execute(select(InventoryItem).where(InventoryItem.sku == sku)).scalars().first()
    if item is None:
        raise NotFound(f"no item {sku}", {"sku": sku})
    if item.tracking != "lot":
        raise ValidationFailed(
            f"item {sku} does not track lots (tracking: {item.tracking}); PATCH /items/{sku} sets tracking=lot",
            {"sku": sku, "tracking": item.tracking},
        )
    return item


def _find(s: Session, ref: str) -> InventoryLot:
    """By id, or by code (a scan); a code two items share is ambiguous (409 names the SKUs)."""
    found = s.get(InventoryLot, ref.strip())
    if found is not None:
        return found
    rows = list(s.execute(select(InventoryLot).where(InventoryLot.code == normalise(ref))).scalars())
    if not rows:
        raise NotFound(f"no lot {ref}", {"lot": ref})
    if len(rows) > 1:
        raise Conflict(f"lot {ref} is on {len(rows)} items: give the id", {"skus": sorted(r.sku for r in rows)})
    return rows[0]


def _out(s: Session, lot: InventoryLot) -> LotOut:
    places = [
        LotPlace(location_id=loc_id, location_code=code, quantity=int(q))
        for loc_id, code, q in s.execute(
            select(InventoryLotStock.location_id, InventoryLocation.code, InventoryLotStock.quantity)
            .join(InventoryLocation, InventoryLocation.id == InventoryLotStock.location_id)
            .where(InventoryLotStock.lot_id == lot.id, InventoryLotStock.quantity != 0)
            .order_by(InventoryLocation.code)
        )
    ]
    return LotOut(
        id=lot.id,
        sku=lot.sku,
        code=lot.code,
        expires_on=lot.expires_on,
        on_hand=sum(p.quantity for p in places),
        places=places,
        created_at=lot.created_at,
    )


def _held(s: Session, lot: InventoryLot, loc: InventoryLocation) -> InventoryLotStock | None:
    return (
        s.execute(
            select(InventoryLotStock).where(InventoryLotStock.lot_id == lot.id, InventoryLotStock.location_id == loc.id)
        )
        .scalars()
        .first()
    )


def _add(ctx: Ctx, s: Session, lot: InventoryLot, loc: InventoryLocation, delta: int) -> int:
    """Add ``delta`` to the lot at ``loc``; 409 when that would take it below zero. Answers the new quantity."""
    row = _held(s, lot, loc)
    have = row.quantity if row is not None else 0
    if have + delta < 0:
        raise Conflict(
            f"lot {lot.code} holds {have} at {loc.code}: {-delta} asked",
            {"reason": "lot_short", "lot": lot.code, "location": loc.code, "quantity": have},
        )
    if row is None:
        row = InventoryLotStock(id=new_id(), lot_id=lot.id, sku=lot.sku, location_id=loc.id, quantity=0)
        s.add(row)
    row.quantity, row.updated_at = have + delta, ctx.now()
    return row.quantity


def _move(ctx: Ctx, s: Session, lot: InventoryLot, *, quantity: int, kind: str, source: InventoryLocation | None,
          target: InventoryLocation | None, reference: str | None, reason: str | None = None,
          unit_cost: Decimal | None = None) -> str:  # fmt: skip
    """The lot's rows first (their 409 stores nothing), then the item's stock rows and the movement."""
    if source is not None:
        _add(ctx, s, lot, source, -quantity)
    if target is not None:
        _add(ctx, s, lot, target, quantity)
    try:
        mid, _levels = engine.move(ctx, s, sku=lot.sku, quantity=quantity, kind=kind, source=source, target=target,
                                   reference=reference, reason=reason, lot_id=lot.id, unit_cost=unit_cost)  # fmt: skip
    except engine.Short as exc:
        # The item's row holds less than its lots say (counted down without naming a lot).
        raise Conflict(
            f"{lot.sku} has {exc.quantity} on hand at {source.code if source else ''}: {quantity} asked",
            {"reason": "insufficient_stock", "quantity": exc.quantity},
        ) from exc
    s.flush()
    engine.check_alerts(ctx, s, lot.sku, [x.id for x in (source, target) if x is not None], f"lot {lot.code}")
    return mid


def change(ctx: Ctx, s: Session, lot: InventoryLot, loc: InventoryLocation, delta: int, *, kind: str,
           reason: str | None) -> str:  # fmt: skip
    """Add ``delta`` (either sign) to the lot at ``loc``: a stock adjustment or count naming the lot
    (``POST stock`` with ``lot``); 409 ``lot_short`` below zero."""
    return _move(ctx, s, lot, quantity=abs(delta), kind=kind, source=None if delta > 0 else loc,
                 target=loc if delta > 0 else None, reference=f"lot {lot.code}", reason=reason)  # fmt: skip


def move_out(
    ctx: Ctx, s: Session, lot: InventoryLot, *, quantity: int, source: InventoryLocation, reference: str
) -> str:
    """Units of the lot leave ``source`` as a shipment under ``reference`` (what a recall finds)."""
    return _move(ctx, s, lot, quantity=quantity, kind="shipment", source=source, target=None, reference=reference)


def announce(ctx: Ctx, type_: str, lot: InventoryLot, mid: str, quantity: int, **more: Any) -> None:
    emit(ctx, type_, {"lot_id": lot.id, "code": lot.code, "sku": lot.sku, "movement_id": mid, "quantity": quantity,
                      "expires_on": lot.expires_on.isoformat() if lot.expires_on else None, **more})  # fmt: skip


@use_case(
    "inventory.lots.receive",
    "POST /lots",
    tx="write",
    status=201,
    says="Lot received",
    summary="receive units of a lot (code, expiry) into a location; the item must track lots",
)
def receive_lot(ctx: Ctx, body: LotReceive, session: Session = SESSION) -> LotOut:
    s = session
    _tracked_item(s, body.sku)
    loc = engine.location(s, body.location_id)
    code = normalise(body.code)
    lot = (
        s.execute(select(InventoryLot).where(InventoryLot.sku == body.sku, InventoryLot.code == code)).scalars().first()
    )
    if lot is None:
        lot = InventoryLot(id=new_id(), sku=body.sku, code=code, expires_on=body.expires_on, created_at=ctx.now())
        s.add(lot)
        s.flush()
    elif body.expires_on is not None and lot.expires_on not in (None, body.expires_on):
        raise Conflict(
            f"lot {code} of {body.sku} expires on {lot.expires_on}, not {body.expires_on}",
            {"reason": "expiry_differs", "expires_on": lot.expires_on.isoformat()},
        )
    elif lot.expires_on is None:
        lot.expires_on = body.expires_on
    mid = _move(ctx, s, lot, quantity=body.quantity, kind="receipt", source=None, target=loc,
                reference=body.reference or f"lot {code}", unit_cost=body.unit_cost)  # fmt: skip
    announce(ctx, "lot.received", lot, mid, body.quantity, location_id=loc.id, reference=body.reference)
    return _out(s, lot)


# Before GET /lots/{id}: the router takes the first path that matches.
@use_case(
    "inventory.lots.pick",
    "GET /lots/pick",
    tx="read",
    summary="which lots to pick for a quantity of an item: first to expire first (FEFO)",
)
def pick(ctx: Ctx, query: PickQuery, session: Session = SESSION) -> PickSuggestion:
    s = session
    _tracked_item(s, query.sku)
    where = None
    if query.location_id is not None:
        engine.location(s, query.location_id)  # 404 for an unknown one, not an empty suggestion
        where = engine.within(query.location_id)
    lines: list[PickLine] = []
    left = query.quantity
    for _sku, lot, loc_id, code, have in fefo(s, [query.sku], where):
        if left <= 0:
            break
        take = min(left, have)
        lines.append(PickLine(lot_id=lot.id, code=lot.code, expires_on=lot.expires_on, location_id=loc_id,
                              location_code=code, quantity=take))  # fmt: skip
        left -= take
    return PickSuggestion(sku=query.sku, requested=query.quantity, lines=lines, short=left)


def fefo(s: Session, skus: list[str], where: Any = None) -> list[tuple[str, InventoryLot, str, str, int]]:
    """The lots of these items in stock at internal locations, first to expire first (lots without a
    date last), then by code and location: ``(sku, lot, location_id, location_code, quantity)``.
    ``where``: the locations (ids, or a statement of ids); every internal one when None. The order
    ``GET lots/pick`` suggests, and Fulfillment's pick walks propose (a manifest ``public`` file)."""
    stmt = (
        select(InventoryLot, InventoryLotStock.location_id, InventoryLocation.code, InventoryLotStock.quantity)
        .join(InventoryLotStock, InventoryLotStock.lot_id == InventoryLot.id)
        .join(InventoryLocation, InventoryLocation.id == InventoryLotStock.location_id)
        .where(InventoryLot.sku.in_(skus), InventoryLotStock.quantity > 0, InventoryLocation.kind == "internal")
        .order_by(nulls_last(InventoryLot.expires_on.asc()), InventoryLot.code, InventoryLocation.code)
    )
    if where is not None:
        stmt = stmt.where(InventoryLotStock.location_id.in_(where))
    return [(lot.sku, lot, loc_id, code, int(have)) for lot, loc_id, code, have in s.execute(stmt)]


def held_at(s: Session, sku: str, code: str, location_id: str) -> tuple[str, int] | None:
    """The lot ``code`` of ``sku`` (its stored code) and what it holds at one location; None for no such
    lot. Fulfillment checks a scanned lot against the bin it is picked from (a ``public`` file)."""
    lot = s.execute(
        select(InventoryLot).where(InventoryLot.sku == sku, InventoryLot.code == normalise(code))
    ).scalar_one_or_none()
    if lot is None:
        return None
    have = s.execute(
        select(InventoryLotStock.quantity).where(
            InventoryLotStock.lot_id == lot.id, InventoryLotStock.location_id == location_id
        )
    ).scalar_one_or_none()
    return lot.code, int(have or 0)


@use_case("inventory.lots.get", "GET /lots/{id}", tx="read", summary="a lot by id or by scan (its code)")
def get_lot(ctx: Ctx, id: str, session: Session = SESSION) -> LotOut:
    return _out(session, _find(session, id))


LOTS = Listing(
    InventoryLot,
    filters={
        "sku": InventoryLot.sku,
        "code": lambda _n, v: InventoryLot.code == normalise(v),
        "expires_before": lambda _n, v: InventoryLot.expires_on < v,
    },
    search=(InventoryLot.code, InventoryLot.sku),
    sort={"created_at": InventoryLot.created_at, "expires_on": InventoryLot.expires_on, "code": InventoryLot.code},
)


@use_case("inventory.lots.list", "GET /lots", tx="read", summary="list lots (by item, code, expiring before a date)")
def list_lots(ctx: Ctx, query: LotQuery, session: Session = SESSION) -> Page[LotOut]:
    return LOTS.page(session, query, lambda r: _out(session, r))


@use_case(
    "inventory.lots.move",
    "POST /lots/{id}/move",
    tx="write",
    says="Lot moved",
    record="inventory.lot",
    summary="move units of a lot between locations (409 beyond what the lot holds there)",
)
def move_lot(ctx: Ctx, id: str, body: LotMove, session: Session = SESSION) -> LotOut:
    s = session
    lot = _find(s, id)
    src, dst = engine.location(s, body.from_location_id), engine.location(s, body.to_location_id)
    if src.id == dst.id:
        raise ValidationFailed("from and to are the same location", {"to_location_id": body.to_location_id})
    mid = _move(ctx, s, lot, quantity=body.quantity, kind="transfer", source=src, target=dst,
                reference=f"lot {lot.code}")  # fmt: skip
    announce(ctx, "lot.moved", lot, mid, body.quantity, from_location_id=src.id, to_location_id=dst.id)
    return _out(s, lot)


@use_case(
    "inventory.lots.count",
    "POST /lots/{id}/count",
    tx="write",
    says="Lot counted",
    record="inventory.lot",
    summary="count a lot at a location: the difference moves the lot and the item's stock",
)
def count_lot(ctx: Ctx, id: str, body: LotCount, session: Session = SESSION) -> LotOut:
    s = session
    lot = _find(s, id)
    loc = engine.location(s, body.location_id)
    row = _held(s, lot, loc)
    diff = body.counted - (row.quantity if row is not None else 0)
    if diff:
        reason = body.reason or f"counted {body.counted}"
        mid = _move(ctx, s, lot, quantity=abs(diff), kind="count", source=None if diff > 0 else loc,
                    target=loc if diff > 0 else None, reference=f"lot {lot.code}", reason=reason)  # fmt: skip
        announce(ctx, "lot.counted", lot, mid, abs(diff), location_id=loc.id, counted=body.counted, difference=diff)
    return _out(s, lot)


@use_case(
    "inventory.lots.ship",
    "POST /lots/{id}/ship",
    tx="write",
    says="Lot shipped",
    record="inventory.lot",
    summary="ship units of a lot for an order (its reference is what a recall finds)",
)
def ship_lot(ctx: Ctx, id: str, body: LotShip, session: Session = SESSION) -> LotOut:
    s = session
    lot = _find(s, id)
    loc = engine.location(s, body.location_id)
    mid = move_out(ctx, s, lot, quantity=body.quantity, source=loc, reference=body.reference)
    announce(ctx, "lot.shipped", lot, mid, body.quantity, location_id=loc.id, reference=body.reference)
    return _out(s, lot)


@use_case(
    "inventory.lots.recall",
    "GET /lots/{id}/recall",
    tx="read",
    summary="where did a lot go: its shipments (order or shipment numbers) and what is still in stock",
)
def recall(ctx: Ctx, id: str, session: Session = SESSION) -> RecallOut:
    s = session
    lot = _find(s, id)
    shipped = [
        RecallShipment(movement_id=m.id, reference=m.reference, quantity=m.quantity, at=m.at)
        for m in s.execute(
            select(InventoryMovement)
            .where(InventoryMovement.lot_id == lot.id, InventoryMovement.kind == "shipment")
            .order_by(InventoryMovement.at, InventoryMovement.id)
        ).scalars()
    ]
    return RecallOut(lot=_out(s, lot), shipped=shipped, shipped_quantity=sum(x.quantity for x in shipped))
