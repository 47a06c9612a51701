"""The quantity engine: every change of a stock row is a movement, written in the same transaction.

A quantity changes with one atomic ``UPDATE ... SET quantity = quantity + :d
... RETURNING``, guarded by ``quantity + :d >= 0`` unless the location allows
negative stock; no read-modify-write, so parallel adjustments (PostgreSQL row
locks, SQLite's one writer) never lose an update. The movement row commits
with it, so the movements of an item and location always add up to its
quantity. Alert rules are looked at after each change (``check_alerts``).
Fulfillment's shipments take their lines out through ``ship_lines``, called by the module's
reaction to ``order.shipped`` (``shipments.take_out_shipped_order``) inside the shipping unit of work.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, Select, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import Tenant
from local_db.models.inventory import (
    InventoryAlert,
    InventoryAlertRule,
    InventoryItem,
    InventoryLocation,
    InventoryMovement,
    InventoryStock,
)
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, lookup_ref
from services.core.events import emit
from services.inventory import valuation
from services.inventory.states import UNRESOLVED
from services.sync.changelog import log_written

_TRANSIT_NS = uuid.UUID("4d0c6f0e-2b7a-4f61-9a0e-8f3c1d2b5e77")
_STOCK = table_of(InventoryStock)
_MOVEMENTS = table_of(InventoryMovement)


@dataclass(frozen=True)
class Level:
    """A stock row after a change."""

    id: str
    sku: str
    location_id: str
    quantity: int
    reserved: int

    @property
    def available(self) -> int:
        return self.quantity - self.reserved


class Short(Exception):
    """The change would take a row below zero at a location that does not allow it."""

    def __init__(self, sku: str, location_id: str, quantity: int, delta: int) -> None:
        super().__init__(f"{sku} at {location_id}: {quantity} on hand, {delta} asked")
        self.sku, self.location_id, self.quantity, self.delta = sku, location_id, quantity, delta


def find_location(s: Session, ref: str) -> InventoryLocation | None:
    """A location by its id or its code (people type and scan codes; clients keep ids)."""
    return lookup_ref(s, InventoryLocation, ref, InventoryLocation.code)


def within(ref: str, include_children: bool = True) -> Select[Any]:
    """The ids of the location ``ref`` (its id or code) and, by default, of every location under it.

    A statement, not a list: it runs inside the query that uses it (one round trip). An unknown
    ref gives no ids, so a filter by it lists nothing (as an unknown SKU does).
    """
    ref = ref.strip()
    root = select(InventoryLocation.id).where(or_(InventoryLocation.id == ref, InventoryLocation.code == ref))
    if not include_children:
        return root
    tree = root.cte("location_tree", recursive=True)
    child = select(InventoryLocation.id).where(InventoryLocation.parent_id == tree.c.id)
    tree = tree.union_all(child)
    return select(tree.c.id)


def location(s: Session, location_id: str) -> InventoryLocation:
    """A location by id or code; 404 naming what was given."""
    loc = find_location(s, location_id)
    if loc is None:
        raise NotFound(f"no location {location_id}", {"location_id": location_id})
    return loc


def apply(ctx: Ctx, s: Session, sku: str, loc: InventoryLocation, delta: int) -> Level:
    """Add ``delta`` to the row of ``sku`` at ``loc`` atomically; ``Short`` when it would go below zero."""
    now = ctx.now()
    stmt = (
        update(InventoryStock)
        .where(InventoryStock.sku == sku, InventoryStock.location_id == loc.id)
        .values(quantity=InventoryStock.quantity + delta, updated_at=now)
        .returning(InventoryStock.id, InventoryStock.quantity, InventoryStock.reserved)
        .execution_options(synchronize_session=False)
    )
    if delta < 0 and not loc.allow_negative:
        stmt = stmt.where(InventoryStock.quantity + delta >= 0)
    for _attempt in range(2):
        row = s.execute(stmt).first()
        if row is not None:
            # A Core update no flush sees: logged so the stations' pull takes the new quantity.
            log_written(s, ctx.tenant_id, "inventory_stock", [row[0]])
            return Level(row[0], sku, loc.id, int(row[1]), int(row[2]))
        current = s.execute(
            select(InventoryStock.quantity).where(InventoryStock.sku == sku, InventoryStock.location_id == loc.id)
        ).scalar_one_or_none()
        if current is not None or (delta < 0 and not loc.allow_negative):
            raise Short(sku, loc.id, int(current or 0), delta)
        # First stock of this item here. Two writers may race to make the row (PostgreSQL):
        # the loser's savepoint rolls back and it adds to the winner's row instead.
        rid = new_id()
        try:
            with s.begin_nested():
                s.execute(
                    insert(_STOCK),
                    {
                        "id": rid,
                        "tenant_id": ctx.tenant_id,
                        "sku": sku,
                        "location_id": loc.id,
                        "quantity": delta,
                        "reserved": 0,
                        "updated_at": now,
                    },
                )
            log_written(s, ctx.tenant_id, "inventory_stock", [rid])
            return Level(rid, sku, loc.id, delta, 0)
        except IntegrityError:
            continue
    raise Conflict("the stock row changed while it was written; try again", {"sku": sku, "location_id": loc.id})


def record(
    ctx: Ctx,
    s: Session,
    *,
    sku: str,
    quantity: int,
    kind: str,
    source: str | None,
    target: str | None,
    reference: str | None = None,
    reason: str | None = None,
    lot_id: str | None = None,
    unit_cost: Decimal | None = None,
    value: Decimal | None = None,
) -> str:
    """Write one movement (positive quantity, direction by ``source``/``target``; ``lot_id``: its lot;
    ``unit_cost`` and ``value``: its valuation, ``valuation.value_movement``)."""
    mid = new_id()
    actor = ctx.principal.id if ctx.principal.kind in ("user", "api_key") else None
    s.execute(
        insert(_MOVEMENTS),
        {
            "id": mid,
            "tenant_id": ctx.tenant_id,
            "sku": sku,
            "from_location_id": source,
            "to_location_id": target,
            "quantity": quantity,
            "kind": kind,
            "reference": reference,
            "reason": reason,
            "actor": actor,
            "at": ctx.now(),
            "lot_id": lot_id,
            "unit_cost": unit_cost,
            "value": value,
        },
    )
    # A Core insert no flush sees: logged, or the other stations never pull the movement.
    log_written(s, ctx.tenant_id, "inventory_movements", [mid])
    return mid


def move(
    ctx: Ctx,
    s: Session,
    *,
    sku: str,
    quantity: int,
    kind: str,
    source: InventoryLocation | None,
    target: InventoryLocation | None,
    reference: str | None = None,
    reason: str | None = None,
    force: bool = False,
    lot_id: str | None = None,
    unit_cost: Decimal | None = None,
) -> tuple[str, list[Level]]:
    """Take ``quantity`` out of ``source`` and put it into ``target`` (either may be outside the books).

    ``force``: go below zero even where the location does not allow it (a ship is never refused).
    ``unit_cost``: what an incoming unit cost (valuation; else the item's or the current cost).
    """
    levels: list[Level] = []
    if source is not None:
        if force and not source.allow_negative:
            levels.append(_forced(ctx, s, sku, source, -quantity))
        else:
            levels.append(apply(ctx, s, sku, source, -quantity))
    if target is not None:
        levels.append(apply(ctx, s, sku, target, quantity))
    # Every movement carries its unit cost and value (FIFO or average, the tenant's setting).
    cost, value = valuation.value_movement(ctx, s, sku=sku, quantity=quantity, inbound=source is None and
                                           target is not None, outbound=target is None and source is not None,
                                           unit_cost=unit_cost)  # fmt: skip
    mid = record(
        ctx,
        s,
        sku=sku,
        quantity=quantity,
        kind=kind,
        source=source.id if source else None,
        target=target.id if target else None,
        reference=reference,
        reason=reason,
        lot_id=lot_id,
        unit_cost=cost,
        value=value,
    )
    return mid, levels


def _forced(ctx: Ctx, s: Session, sku: str, loc: InventoryLocation, delta: int) -> Level:
    # The same atomic statement without the guard: a stand-in location that allows it.
    allow = InventoryLocation(id=loc.id, code=loc.code, name=loc.name, kind=loc.kind, allow_negative=True)
    return apply(ctx, s, sku, allow, delta)


def transit_location(ctx: Ctx, s: Session) -> InventoryLocation:
    """The tenant's transit location (the first of kind ``transit``); made on first use.

    Its id is derived from the tenant, so a station and the platform that both make it agree.
    """
    found = (
        s.execute(
            select(InventoryLocation).where(InventoryLocation.kind == "transit").order_by(InventoryLocation.created_at)
        )
        .scalars()
        .first()
    )
    if found is not None:
        return found
    code = "TRANSIT"
    if s.execute(select(InventoryLocation.id).where(InventoryLocation.code == code)).first():
        code = "TRANSIT-AUTO"
    loc = InventoryLocation(
        id=str(uuid.uuid5(_TRANSIT_NS, ctx.tenant_id)),
        code=code,
        name="In transit",
        kind="transit",
        allow_negative=False,
        created_at=ctx.now(),
    )
    s.add(loc)
    s.flush()
    return loc


# --- alerts ------------------------------------------------------------------------------


def available_for(s: Session, sku: str, location_id: str | None) -> int:
    """Available stock of ``sku`` at a location, or in all internal locations (``None``)."""
    avail = func.coalesce(func.sum(InventoryStock.quantity - InventoryStock.reserved), 0)
    stmt = select(avail).where(InventoryStock.sku == sku)
    if location_id is not None:
        stmt = stmt.where(InventoryStock.location_id == location_id)
    else:
        internal = select(InventoryLocation.id).where(InventoryLocation.kind == "internal")
        stmt = stmt.where(InventoryStock.location_id.in_(internal))
    return int(s.execute(stmt).scalar_one())


def check_alerts(ctx: Ctx, s: Session, sku: str, location_ids: Iterable[str], reason: str | None = None) -> None:
    """Open, update or resolve the alerts of the rules that watch ``sku`` at these locations."""
    locs = list(dict.fromkeys(location_ids))
    rules = (
        s.execute(
            select(InventoryAlertRule).where(
                InventoryAlertRule.sku == sku,
                or_(InventoryAlertRule.location_id.is_(None), InventoryAlertRule.location_id.in_(locs)),
            )
        )
        .scalars()
        .all()
    )
    for rule in rules:
        evaluate(ctx, s, rule, reason)


def evaluate(ctx: Ctx, s: Session, rule: InventoryAlertRule, reason: str | None = None) -> InventoryAlert | None:
    """Bring the rule's alert in line with the stock: at most one unresolved alert per rule."""
    available = available_for(s, rule.sku, rule.location_id)
    alert = (
        s.execute(select(InventoryAlert).where(InventoryAlert.rule_id == rule.id, InventoryAlert.state.in_(UNRESOLVED)))
        .scalars()
        .first()
    )
    now = ctx.now()
    if available < rule.threshold:
        if alert is not None:
            alert.available = available
            return alert
        alert = InventoryAlert(
            id=new_id(),
            rule_id=rule.id,
            sku=rule.sku,
            location_id=rule.location_id,
            threshold=rule.threshold,
            available=available,
            state="open",
            reason=reason,
            opened_at=now,
        )
        s.add(alert)
        s.flush()
        emit(
            ctx,
            "stock.low",
            {
                "alert_id": alert.id,
                "rule_id": rule.id,
                "sku": rule.sku,
                "location_id": rule.location_id,
                "threshold": rule.threshold,
                "available": available,
                "reason": reason,
            },
        )
        return alert
    if alert is not None:
        alert.available, alert.state, alert.resolved_at = available, "resolved", now
        s.flush()
        emit(
            ctx,
            "stock.recovered",
            {
                "alert_id": alert.id,
                "rule_id": rule.id,
                "sku": rule.sku,
                "location_id": rule.location_id,
                "threshold": rule.threshold,
                "available": available,
            },
        )
    return alert


# --- fulfillment ---------------------------------------------------------------------------


def ship_from(s: Session, tenant_id: str) -> InventoryLocation | None:
    """The location shipments leave from: the tenant setting ``fulfillment.ship_from_location``
    (a location's id or code), else the first internal location; None when there is none."""
    t = s.get(Tenant, tenant_id)
    wanted = (((t.settings if t else None) or {}).get("fulfillment") or {}).get("ship_from_location")
    if wanted:
        loc = (
            s.get(InventoryLocation, wanted)
            or s.execute(select(InventoryLocation).where(InventoryLocation.code == wanted)).scalars().first()
        )
        if loc is not None:
            return loc
    return (
        s.execute(
            select(InventoryLocation)
            .where(InventoryLocation.kind == "internal")
            .order_by(InventoryLocation.created_at, InventoryLocation.code)
        )
        .scalars()
        .first()
    )


_TENANT_SETTINGS = Prepared(select(table_of(Tenant).c.settings).where(table_of(Tenant).c.id == bindparam("tenant_id")))
_LOCATIONS = table_of(InventoryLocation)
_LOCATION_BY_REF = Prepared(
    select(_LOCATIONS.c.id)
    .where(
        _LOCATIONS.c.tenant_id == bindparam("tenant_id"),
        or_(_LOCATIONS.c.id == bindparam("ref"), _LOCATIONS.c.code == bindparam("ref")),
    )
    .order_by(_LOCATIONS.c.code == bindparam("ref"))  # an id match first
    .limit(1)
)
_FIRST_INTERNAL = Prepared(
    select(_LOCATIONS.c.id)
    .where(_LOCATIONS.c.tenant_id == bindparam("tenant_id"), _LOCATIONS.c.kind == "internal")
    .order_by(_LOCATIONS.c.created_at, _LOCATIONS.c.code)
    .limit(1)
)


_ITEMS = table_of(InventoryItem)
_UNITS_PER_SALE = Prepared(
    select(_ITEMS.c.units_per_sale).where(
        _ITEMS.c.tenant_id == bindparam("tenant_id"), _ITEMS.c.sku == bindparam("sku")
    )
)


def units_per_sale(conn: Connection, tenant_id: str, sku: str) -> int:
    """Units in one sales unit of ``sku`` (a pack of 6: 6); 1 for an item not registered."""
    found = _UNITS_PER_SALE.scalar(conn, {"tenant_id": tenant_id, "sku": sku})
    return int(found) if found else 1


def ship_from_id(conn: Connection, tenant_id: str) -> str | None:
    """``ship_from``'s id alone, by compiled Core statements: every order's reservation asks it."""
    raw = _TENANT_SETTINGS.scalar(conn, {"tenant_id": tenant_id})
    settings = (json.loads(raw) if isinstance(raw, str) else raw) or {}
    wanted = (settings.get("fulfillment") or {}).get("ship_from_location")
    if wanted:
        found = _LOCATION_BY_REF.scalar(conn, {"tenant_id": tenant_id, "ref": str(wanted)})
        if found is not None:
            return str(found)
    first = _FIRST_INTERNAL.scalar(conn, {"tenant_id": tenant_id})
    return str(first) if first is not None else None


def ship_lines(ctx: Ctx, s: Session, *, reference: str, lines: Iterable[tuple[str, int]]) -> list[str]:
    """Take shipped lines out of the shipping location, in the caller's unit of work.

    Never refuses: a shortfall takes the row below zero and opens a low-stock alert
    (a rule of threshold 0 is made for the location when none watches it).
    Answers the movement ids; nothing happens for a tenant without Inventory or without a location.
    """
    if ctx.tenant is None or "inventory" not in ctx.tenant.modules:
        return []
    loc = ship_from(s, ctx.tenant_id)
    if loc is None:
        return []
    totals: dict[str, int] = {}
    conn = s.connection()
    for sku, qty in lines:
        if qty > 0:
            # Order lines count sales units (packs): the row counts units.
            totals[sku] = totals.get(sku, 0) + qty * units_per_sale(conn, ctx.tenant_id, sku)
    moved: list[str] = []
    for sku, qty in totals.items():
        mid, levels = move(
            ctx, s, sku=sku, quantity=qty, kind="shipment", source=loc, target=None, reference=reference, force=True
        )
        moved.append(mid)
        level = levels[0]
        reason = f"shipment {reference}"
        if level.available < 0:
            reason = f"shipment {reference} took {sku} below zero at {loc.code} ({level.quantity} on hand)"
            watched = s.execute(
                select(InventoryAlertRule.id).where(
                    InventoryAlertRule.sku == sku, InventoryAlertRule.location_id == loc.id
                )
            ).first()
            if watched is None:
                s.add(
                    InventoryAlertRule(
                        id=new_id(), sku=sku, location_id=loc.id, threshold=0, origin="shortfall", created_at=ctx.now()
                    )
                )
                s.flush()
        emit(
            ctx,
            "stock.shipped",
            {
                "movement_id": mid,
                "sku": sku,
                "location_id": loc.id,
                "quantity": qty,
                "reference": reference,
                "on_hand": level.quantity,
            },
        )
        check_alerts(ctx, s, sku, [loc.id], reason)
    return moved
