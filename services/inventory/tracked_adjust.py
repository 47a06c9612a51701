"""A stock adjustment or count of an item that tracks lots or serials: it names the lot or the serial.

``POST stock`` of such an item without its ``lot`` (``serial``) is 400 naming the field, so the item's
row never drifts from its lots and serials. With it:

- a lot: ``delta`` adds to or takes from that lot at the location (409 ``lot_short`` below zero),
  ``counted`` sets what the lot holds there; the movement names the lot (``lots`` engine);
- a serial: one unit. ``delta`` +1 (or ``counted`` 1) puts the serial in stock at the location (409
  when it is in stock elsewhere: one place at a time), −1 (or ``counted`` 0) takes it out: it is
  ``written_off``, never ``shipped`` (After-sale's check reads shipped serials only).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryLocation, InventorySerial
from local_db.models.inventory_lots import InventoryLot, InventoryLotStock
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.inventory import lots as lot_book
from services.inventory import serials as serial_book
from services.inventory import stock as engine
from services.inventory.schemas import StockAdjust


def _field(field: str, message: str, **details: object) -> ValidationFailed:
    return ValidationFailed(message, {"fields": [{"field": field, "message": message}], **details})


def check_codes(body: StockAdjust, how: str | None) -> None:
    """The body names the lot or serial its item tracks, and no other: 400 naming the field."""
    if how is None:
        for field in ("lot", "serial"):
            if getattr(body, field) is not None:
                raise _field(field, f"{body.sku} tracks no {field}s", reason="not_tracked", sku=body.sku)
        return
    other = "serial" if how == "lot" else "lot"
    if getattr(body, other) is not None:
        raise _field(other, f"{body.sku} is tracked by {how}, not by {other}", reason="not_tracked", sku=body.sku)
    if getattr(body, how) is None:
        raise _field(how, f"{body.sku} is tracked by {how}: name the {how} this change is of",
                     reason=f"{how}_required", sku=body.sku)  # fmt: skip


def adjust(
    ctx: Ctx, s: Session, body: StockAdjust, loc: InventoryLocation, how: str, kind: str
) -> tuple[int, str | None]:
    """Apply the change to the lot or serial (and through it the item's row). Answers the delta and the
    movement's id (None when a count found nothing to change)."""
    if how == "lot":
        return _lot(ctx, s, body, loc, kind)
    return _serial(ctx, s, body, loc, kind)


def _lot(ctx: Ctx, s: Session, body: StockAdjust, loc: InventoryLocation, kind: str) -> tuple[int, str | None]:
    assert body.lot is not None
    code = lot_book.normalise(body.lot)
    lot = s.execute(
        select(InventoryLot).where(InventoryLot.sku == body.sku, InventoryLot.code == code)
    ).scalar_one_or_none()
    if lot is None:
        # A new lot comes in with its code and expiry through POST lots (a receipt), not an adjustment.
        raise NotFound(f"no lot {code} of {body.sku} (POST lots receives a new one)", {"lot": code, "sku": body.sku})
    have = s.execute(
        select(InventoryLotStock.quantity).where(
            InventoryLotStock.lot_id == lot.id, InventoryLotStock.location_id == loc.id
        )
    ).scalar_one_or_none()
    delta = body.counted - int(have or 0) if body.counted is not None else int(body.delta or 0)
    if not delta:
        return 0, None
    reason = body.reason or (f"counted {body.counted}" if body.counted is not None else None)
    mid = lot_book.change(ctx, s, lot, loc, delta, kind=kind, reason=reason)
    return delta, mid


def _serial(ctx: Ctx, s: Session, body: StockAdjust, loc: InventoryLocation, kind: str) -> tuple[int, str | None]:
    assert body.serial is not None
    if body.delta not in (None, 1, -1):
        raise _field("delta", "a serial is one unit: delta 1 or -1", reason="one_per_serial")
    if body.counted not in (None, 0, 1):
        raise _field("counted", "a serial is one unit: counted 0 or 1", reason="one_per_serial")
    serial = serial_book.normalise(body.serial)
    unit = s.execute(
        select(InventorySerial).where(InventorySerial.sku == body.sku, InventorySerial.serial == serial)
    ).scalar_one_or_none()
    here = unit is not None and unit.status == "in_stock" and unit.location_id == loc.id
    wanted = (body.counted == 1) if body.counted is not None else (body.delta == 1)
    if wanted == here:
        if body.counted is not None:
            return 0, None  # the count agrees with the book
        raise Conflict(
            f"serial {serial} is {'already' if here else 'not'} in stock at {loc.code}",
            {"reason": "serial_in_stock" if here else "serial_not_here", "serial": serial},
        )
    now = ctx.now()
    if wanted:
        if unit is not None and unit.status == "in_stock":
            where = engine.location(s, unit.location_id or "").code
            raise Conflict(
                f"serial {serial} is in stock at {where}: a serial is in one place at a time (move it)",
                {"reason": "serial_in_stock", "serials": {serial: where}},
            )
        if unit is None:
            unit = InventorySerial(id=new_id(), sku=body.sku, serial=serial, created_at=now)
            s.add(unit)
        mid, _levels = engine.move(ctx, s, sku=body.sku, quantity=1, kind=kind, source=None, target=loc,
                                   reason=body.reason or f"serial {serial}")  # fmt: skip
        unit.location_id, unit.status, unit.reference, unit.updated_at = loc.id, "in_stock", kind, now
        delta = 1
    else:
        assert unit is not None
        mid, _levels = engine.move(ctx, s, sku=body.sku, quantity=1, kind=kind, source=loc, target=None,
                                   reason=body.reason or f"serial {serial}", force=True)  # fmt: skip
        unit.location_id, unit.status, unit.reference, unit.updated_at = None, "written_off", kind, now
        delta = -1
    s.flush()
    return delta, mid
