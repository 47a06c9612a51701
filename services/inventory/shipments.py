"""A shipped order leaves Inventory: the module's reaction to Fulfillment's ``order.shipped``.

Lines of untracked items leave the shipping location's row through ``stock.ship_lines`` (never
refused: a shortfall opens a low-stock alert). A line of an item that tracks serials or lots must carry
them (the ship operation's ``units``, or a batch's pick, recorded on the order's line):

- each serial must be in stock in the shipping location's tree (the location and its bins) and leaves
  it as ``shipped`` under the order number: what After-sale's shipped-serial check reads;
- each lot must hold enough there; its units leave with movements naming the lot and the order
  number: what ``GET lots/{id}/recall`` reads.

A tracked line without its codes is 400 naming the line; a serial not here or shipped already, a lot
holding too little, is 409 naming the line. Either refuses the whole shipment: the reaction runs in
the shipping unit of work, so the order stays packed and nothing moves.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from local_db.models.fulfillment import FulfillmentLine
from local_db.models.inventory import InventoryItem, InventoryLocation, InventorySerial
from local_db.models.inventory_lots import InventoryLot, InventoryLotStock
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import EmittedEvent
from services.inventory import lots as lot_book
from services.inventory import serials as serial_book
from services.inventory import stock as engine

_SHIPPED_LINES = (
    select(
        FulfillmentLine.id,
        FulfillmentLine.position,
        FulfillmentLine.sku,
        FulfillmentLine.quantity,
        FulfillmentLine.serials,
        FulfillmentLine.lots,
    )
    .where(FulfillmentLine.order_id == bindparam("order_id"))
    .order_by(FulfillmentLine.position)
)


def take_out_shipped_order(ctx: Ctx, ev: EmittedEvent) -> None:
    """``order.shipped``: the tracked lines' serials and lots leave their places, the rest leaves the
    shipping location's row (``stock.ship_lines``).

    Runs in the shipping unit of work. Only fulfillment's own shipment moves stock: the same event
    type published through the events API (``events.publish``) describes, it does not ship.
    """
    if ctx.operation is None or not ctx.operation[0].startswith("fulfillment."):
        return
    if ctx.tenant is None or "inventory" not in ctx.tenant.modules:
        return
    s = ctx.uow.session
    reference = str(ev.data["order_number"])
    rows = s.execute(_SHIPPED_LINES, {"order_id": ev.data["order_id"]}).all()
    tracked = tracking(s, {r.sku for r in rows})
    plain: list[tuple[str, int]] = []
    todo: list[tuple[Any, str, int]] = []
    conn = s.connection()
    for r in rows:
        how = tracked.get(r.sku)
        if how is None:
            if r.serials or r.lots:
                raise ValidationFailed(
                    f"line {r.position + 1}: {r.sku} tracks no serials or lots",
                    {"reason": "not_tracked", "line_id": r.id, "sku": r.sku},
                )
            plain.append((r.sku, r.quantity))
        else:
            # Order lines count sales units (packs); serials and lots count units.
            units = r.quantity * engine.units_per_sale(conn, ctx.tenant_id, r.sku)
            _check_given(r, how, units)
            todo.append((r, how, units))
    if todo:
        loc = engine.ship_from(s, ctx.tenant_id)
        tree = set(s.execute(engine.within(loc.id)).scalars()) if loc is not None else set()
        for r, how, _units in todo:
            if how == "serial":
                _ship_serials(ctx, s, r, tree, reference)
            else:
                _ship_lots(ctx, s, r, loc, tree, reference)
    engine.ship_lines(ctx, s, reference=reference, lines=plain)


def tracking(s: Session, skus: set[str]) -> dict[str, str]:
    """``serial`` or ``lot`` for each of these items that tracks them. An item with serials in
    Inventory counts as serial-tracked whatever its setting, as the desk and batch picking read it."""
    if not skus:
        return {}
    out = {
        sku: how
        for sku, how in s.execute(
            select(InventoryItem.sku, InventoryItem.tracking).where(InventoryItem.sku.in_(skus))
        ).all()
        if how in ("serial", "lot")
    }
    rest = skus - set(out)
    if rest:
        for (sku,) in s.execute(select(InventorySerial.sku).where(InventorySerial.sku.in_(rest)).distinct()).all():
            out[sku] = "serial"
    return out


def _check_given(r: Any, how: str, units: int) -> None:
    """The codes on the line are of the right kind and count: 400 naming the line otherwise."""
    where = {"line_id": r.id, "sku": r.sku, "needed": units}
    if how == "serial":
        given = len(r.serials or ())
        if r.lots:
            raise ValidationFailed(
                f"line {r.position + 1}: {r.sku} is tracked by serial, not by lot",
                {**where, "reason": "serial_required", "given": given},
            )
        if given != units:
            raise ValidationFailed(
                f"line {r.position + 1}: {r.sku} is tracked by serial: {units} serial(s) needed, {given} given",
                {**where, "reason": "serial_required" if given < units else "too_many_serials", "given": given},
            )
        return
    given = sum(int(x["quantity"]) for x in r.lots or ())
    if r.serials:
        raise ValidationFailed(
            f"line {r.position + 1}: {r.sku} is tracked by lot, not by serial",
            {**where, "reason": "lot_required", "given": given},
        )
    if given != units:
        raise ValidationFailed(
            f"line {r.position + 1}: {r.sku} is tracked by lot: the lots of {units} unit(s) needed, {given} given",
            {**where, "reason": "lot_required" if given < units else "too_many_in_lots", "given": given},
        )


def _ship_serials(ctx: Ctx, s: Session, r: Any, tree: set[str], reference: str) -> None:
    found = {
        u.serial: u
        for u in s.execute(
            select(InventorySerial).where(InventorySerial.sku == r.sku, InventorySerial.serial.in_(r.serials))
        ).scalars()
    }
    for serial in r.serials:
        unit = found.get(serial)
        if unit is None or unit.status != "in_stock" or unit.location_id not in tree:
            status = unit.status if unit is not None else None
            why = "shipped already" if status == "shipped" else "not in stock at the shipping location"
            raise Conflict(
                f"line {r.position + 1}: serial {serial} of {r.sku} is {why}",
                {"reason": "serial_shipped" if status == "shipped" else "serial_not_here", "line_id": r.id,
                 "sku": r.sku, "serial": serial, "status": status},
            )  # fmt: skip
        serial_book.ship_unit(ctx, s, unit, reference)


def _ship_lots(ctx: Ctx, s: Session, r: Any, loc: InventoryLocation | None, tree: set[str], reference: str) -> None:
    for taken in r.lots:
        code, wanted = str(taken["code"]), int(taken["quantity"])
        lot = s.execute(
            select(InventoryLot).where(InventoryLot.sku == r.sku, InventoryLot.code == code)
        ).scalar_one_or_none()
        places: list[tuple[InventoryLocation, int]] = []
        if lot is not None and tree:
            # The shipping location itself first, then its bins by code.
            for place, have in s.execute(
                select(InventoryLocation, InventoryLotStock.quantity)
                .join(InventoryLotStock, InventoryLotStock.location_id == InventoryLocation.id)
                .where(
                    InventoryLotStock.lot_id == lot.id,
                    InventoryLotStock.quantity > 0,
                    InventoryLotStock.location_id.in_(tree),
                )
                .order_by(InventoryLocation.id != (loc.id if loc else ""), InventoryLocation.code)
            ).all():
                places.append((place, int(have)))
        held = sum(q for _p, q in places)
        if lot is None or held < wanted:
            raise Conflict(
                f"line {r.position + 1}: lot {code} of {r.sku} holds {held} at the shipping location: {wanted} asked",
                {"reason": "lot_short" if lot is not None else "unknown_lot", "line_id": r.id, "sku": r.sku,
                 "lot": code, "quantity": held, "requested": wanted},
            )  # fmt: skip
        left = wanted
        for place, have in places:
            take = min(left, have)
            if take <= 0:
                break
            mid = lot_book.move_out(ctx, s, lot, quantity=take, source=place, reference=reference)
            lot_book.announce(ctx, "lot.shipped", lot, mid, take, location_id=place.id, reference=reference)
            left -= take
