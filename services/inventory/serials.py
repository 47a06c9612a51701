"""Serial-numbered units: received into a location, moved, shipped and looked up by scan.

A serial is in one place at a time: receiving one that is in stock anywhere is 409 naming where
it is (a shipped one may come back: a return). Every change moves the stock row by one unit with
its movement, so the quantity engine's rule (movements add up to the quantity) still holds.
Serials compare as the After-sale module compares them: case, spaces and dashes do not count.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryLocation, InventorySerial
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import Listing, Page, one_of
from services.inventory import stock as engine
from services.inventory.schemas import (
    SerialMove,
    SerialOut,
    SerialQuery,
    SerialShip,
    SerialsReceive,
    SerialsReceived,
)

declare_defaults("inventory.serials", record="inventory.serial")
record_kind("inventory.serial", get="inventory.serials.get", label="serial")

_SEPARATORS = re.compile(r"[\s\-]+")


def normalise(serial: str) -> str:
    return _SEPARATORS.sub("", serial).upper()


def has_shipped(s: Session, serial: str) -> bool:
    """Did a unit with this serial ship? Inventory's public answer (After-sale asks it; manifest ``public``)."""
    found = s.execute(
        select(InventorySerial.id).where(
            InventorySerial.serial == normalise(serial), InventorySerial.status == "shipped"
        )
    ).first()
    return found is not None


def _out(s: Session, r: InventorySerial) -> SerialOut:
    loc = s.get(InventoryLocation, r.location_id) if r.location_id else None
    return SerialOut(
        id=r.id,
        sku=r.sku,
        serial=r.serial,
        location_id=r.location_id,
        location_code=loc.code if loc else None,
        status=r.status,  # type: ignore[arg-type]
        reference=r.reference,
        created_at=r.created_at,
        updated_at=r.updated_at,
    )


def _find(s: Session, ref: str) -> InventorySerial:
    """By id, or by serial (a scan); a serial two items share is ambiguous (409 names the SKUs)."""
    found = s.get(InventorySerial, ref.strip())
    if found is not None:
        return found
    rows = list(s.execute(select(InventorySerial).where(InventorySerial.serial == normalise(ref))).scalars())
    if not rows:
        raise NotFound(f"no serial {ref}", {"serial": ref})
    if len(rows) > 1:
        raise Conflict(f"serial {ref} is on {len(rows)} items: give the id", {"skus": sorted(r.sku for r in rows)})
    return rows[0]


@use_case(
    "inventory.serials.receive",
    "POST /serials",
    tx="write",
    status=201,
    says="Serials received",
    summary="receive serial-numbered units into a location (each +1 on hand)",
)
def receive_serials(ctx: Ctx, body: SerialsReceive, session: Session = SESSION) -> SerialsReceived:
    s = session
    loc = engine.location(s, body.location_id)
    wanted = [normalise(x) for x in body.serials]
    twice = sorted({x for x in wanted if wanted.count(x) > 1})
    if twice:
        raise ValidationFailed("a serial is listed twice", {"serials": twice})
    known = {
        r.serial: r
        for r in s.execute(
            select(InventorySerial).where(InventorySerial.sku == body.sku, InventorySerial.serial.in_(wanted))
        ).scalars()
    }
    here = [x for x in wanted if x in known and known[x].status == "in_stock"]
    if here:
        places = {x: engine.location(s, known[x].location_id or "").code for x in here}
        raise Conflict(
            f"{len(here)} serial(s) already in stock: a serial is in one place at a time",
            {"reason": "serial_in_stock", "serials": places},
        )
    now = ctx.now()
    out: list[InventorySerial] = []
    for x in wanted:
        r = known.get(x)
        if r is None:
            r = InventorySerial(id=new_id(), sku=body.sku, serial=x, created_at=now)
            s.add(r)
        r.location_id, r.status, r.reference, r.updated_at = loc.id, "in_stock", body.reference, now
        out.append(r)
    mid, _levels = engine.move(ctx, s, sku=body.sku, quantity=len(wanted), kind="receipt", source=None, target=loc,
                reference=body.reference or "serials", reason="serials " + ", ".join(wanted)[:400])  # fmt: skip
    engine.check_alerts(ctx, s, body.sku, [loc.id], "serials received")
    s.flush()
    return SerialsReceived(serials=[_out(s, r) for r in out], movement_id=mid)


@use_case("inventory.serials.get", "GET /serials/{id}", tx="read", summary="a serial by id or by scan")
def get_serial(ctx: Ctx, id: str, session: Session = SESSION) -> SerialOut:
    return _out(session, _find(session, id))


SERIALS = Listing(
    InventorySerial,
    filters={
        "sku": InventorySerial.sku,
        "location_id": lambda _n, v: InventorySerial.location_id.in_(engine.within(v)),
        "status": one_of(InventorySerial.status, ("in_stock", "shipped", "written_off")),
    },
    search=(InventorySerial.serial, InventorySerial.sku),
    sort={"created_at": InventorySerial.created_at, "serial": InventorySerial.serial},
)


@use_case("inventory.serials.list", "GET /serials", tx="read", summary="list serials (by item, location, status)")
def list_serials(ctx: Ctx, query: SerialQuery, session: Session = SESSION) -> Page[SerialOut]:
    return SERIALS.page(session, query, lambda r: _out(session, r))


@use_case(
    "inventory.serials.move",
    "POST /serials/{id}/move",
    tx="write",
    says="Serial moved",
    record="inventory.serial",
    summary="move one serial-numbered unit to another location",
)
def move_serial(ctx: Ctx, id: str, body: SerialMove, session: Session = SESSION) -> SerialOut:
    s = session
    r = _find(s, id)
    if r.status != "in_stock" or r.location_id is None:
        raise Conflict(f"serial {r.serial} is {r.status}: it is not in any location", {"current_state": r.status})
    src, dst = engine.location(s, r.location_id), engine.location(s, body.location_id)
    if src.id == dst.id:
        raise ValidationFailed(f"serial {r.serial} is at {dst.code} already", {"location_id": body.location_id})
    engine.move(ctx, s, sku=r.sku, quantity=1, kind="transfer", source=src, target=dst,
                reference=f"serial {r.serial}", force=True)  # fmt: skip
    r.location_id, r.updated_at, r.reference = dst.id, ctx.now(), f"moved from {src.code}"
    engine.check_alerts(ctx, s, r.sku, [src.id, dst.id], f"serial {r.serial}")
    s.flush()
    return _out(s, r)


@use_case(
    "inventory.serials.ship",
    "POST /serials/{id}/ship",
    tx="write",
    says="Serial shipped",
    record="inventory.serial",
    summary="ship one serial-numbered unit (it leaves its location's stock)",
)
def ship_serial(ctx: Ctx, id: str, body: SerialShip, session: Session = SESSION) -> SerialOut:
    s = session
    r = _find(s, id)
    if r.status != "in_stock" or r.location_id is None:
        raise Conflict(f"serial {r.serial} shipped already", {"current_state": r.status})
    ship_unit(ctx, s, r, body.reference)
    return _out(s, r)


def ship_unit(ctx: Ctx, s: Session, r: InventorySerial, reference: str) -> str:
    """The unit leaves its location's stock and is ``shipped`` under ``reference`` (an order number:
    what After-sale's check and a look-up read). Answers the movement's id."""
    assert r.location_id is not None
    src = engine.location(s, r.location_id)
    mid, _levels = engine.move(ctx, s, sku=r.sku, quantity=1, kind="shipment", source=src, target=None,
                               reference=reference, reason=f"serial {r.serial}", force=True)  # fmt: skip
    r.location_id, r.status, r.reference, r.updated_at = None, "shipped", reference, ctx.now()
    engine.check_alerts(ctx, s, r.sku, [src.id], reference)
    s.flush()
    return mid
