"""Reservations: the units an order holds at the shipping location until it ships or is cancelled.

Fulfillment announces its orders (``order.created``, ``order.updated``, ``order.cancelled``,
``order.shipped``); the reactions below (subscribed by the manifest) hold, re-hold, release and
settle the order's lines in the announcing unit of work. Inventory never reads fulfillment's
tables for it: the lines come in the event's data.

Holding is never refused: an order for more than is available holds what there is and the rest is
its backorder (``requested - reserved``), so a shop's order is always taken. The stock row is
locked while the units are counted (PostgreSQL: ``FOR UPDATE``; SQLite: the write transaction is
``BEGIN IMMEDIATE``, one writer), so concurrent orders never hold more than is on hand.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from local_db.models.inventory import InventoryLocation, InventoryReservation, InventoryStock
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.events import EmittedEvent, emit
from services.core.pagination import Listing, Page, one_of
from services.inventory import stock as engine
from services.inventory.schemas import ReservationOut, ReservationQuery
from services.sync.changelog import log_written

declare_defaults("inventory.reservations", record="inventory.reservation")

ACTIVE, SHIPPED, RELEASED = "active", "shipped", "released"
_NS = uuid.UUID("9a3f4c1e-6d2b-4e8a-b7c5-1f0e2d3c4b5a")
STATUSES = (ACTIVE, SHIPPED, RELEASED)


def hold(ctx: Ctx, s: Session, sku: str, location_id: str, wanted: int) -> int:
    """Hold up to ``wanted`` units of ``sku`` at the location; answers how many were held (0..wanted)."""
    if wanted <= 0:
        return 0
    row = s.execute(
        select(InventoryStock.id, InventoryStock.quantity, InventoryStock.reserved)
        .where(InventoryStock.sku == sku, InventoryStock.location_id == location_id)
        .with_for_update()
    ).first()
    if row is None:
        return 0
    take = min(wanted, int(row[1]) - int(row[2]))
    if take <= 0:
        return 0
    s.execute(
        update(InventoryStock)
        .where(InventoryStock.id == row[0])
        .values(reserved=InventoryStock.reserved + take, updated_at=ctx.now())
        .execution_options(synchronize_session=False)
    )
    # A Core update no flush sees: logged so the stations' pull takes the new reserved count.
    log_written(s, ctx.tenant_id, "inventory_stock", [row[0]])
    return take


def _unhold(ctx: Ctx, s: Session, sku: str, location_id: str, units: int) -> None:
    if units <= 0:
        return
    # Never below zero: a row counted down meanwhile keeps what it has.
    rid = s.execute(
        update(InventoryStock)
        .where(InventoryStock.sku == sku, InventoryStock.location_id == location_id)
        .values(
            reserved=InventoryStock.reserved - units,
            updated_at=ctx.now(),
        )
        .where(InventoryStock.reserved >= units)
        .returning(InventoryStock.id)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if rid is None:
        rid = s.execute(
            update(InventoryStock)
            .where(InventoryStock.sku == sku, InventoryStock.location_id == location_id)
            .values(reserved=0, updated_at=ctx.now())
            .returning(InventoryStock.id)
            .execution_options(synchronize_session=False)
        ).scalar_one_or_none()
    if rid is not None:
        log_written(s, ctx.tenant_id, "inventory_stock", [rid])


def _totals(lines: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for ln in lines:
        qty = int(ln.get("quantity") or 0)
        if qty > 0 and ln.get("sku"):
            totals[str(ln["sku"])] = totals.get(str(ln["sku"]), 0) + qty
    return totals


def _active(s: Session, order_id: str) -> list[InventoryReservation]:
    return list(
        s.execute(
            select(InventoryReservation)
            .where(InventoryReservation.order_id == order_id, InventoryReservation.status == ACTIVE)
            .order_by(InventoryReservation.created_at, InventoryReservation.sku)
        ).scalars()
    )


def reserve(
    ctx: Ctx, s: Session, *, order_id: str, reference: str, lines: Iterable[Mapping[str, Any]]
) -> list[InventoryReservation]:
    """Hold an order's lines at the shipping location (one reservation per SKU); never refuses.

    Nothing happens for a tenant without Inventory or without a location.
    """
    loc = engine.ship_from(s, ctx.tenant_id)
    if loc is None:
        return []
    now = ctx.now()
    made: list[InventoryReservation] = []
    for sku, requested in _totals(lines).items():
        held = hold(ctx, s, sku, loc.id, requested)
        earlier = s.execute(
            select(func.count()).where(InventoryReservation.order_id == order_id, InventoryReservation.sku == sku)
        ).scalar_one()
        r = InventoryReservation(
            # Derived from the order's history, so a station and the platform replaying the same
            # change make the same row (its pull then meets its own row, not a twin).
            id=str(uuid.uuid5(_NS, f"{ctx.tenant_id}/{order_id}/{sku}/{earlier}")),
            order_id=order_id,
            reference=reference,
            sku=sku,
            location_id=loc.id,
            requested=requested,
            reserved=held,
            status=ACTIVE,
            created_at=now,
            updated_at=now,
        )
        s.add(r)
        made.append(r)
    s.flush()
    if made:
        emit(ctx, "stock.reserved", _announce(order_id, reference, made))
    return made


def release(ctx: Ctx, s: Session, order_id: str, status: str = RELEASED) -> list[InventoryReservation]:
    """Give back an order's held units (``status``: released, or shipped when they left with it)."""
    rs = _active(s, order_id)
    now = ctx.now()
    for r in rs:
        _unhold(ctx, s, r.sku, r.location_id, r.reserved)
        r.status, r.updated_at = status, now
    s.flush()
    if rs and status == RELEASED:
        emit(ctx, "stock.released", _announce(order_id, rs[0].reference, rs))
    return rs


def _announce(order_id: str, reference: str, rs: list[InventoryReservation]) -> dict[str, Any]:
    return {
        "order_id": order_id,
        "order_number": reference,
        "lines": [
            {
                "reservation_id": r.id,
                "sku": r.sku,
                "location_id": r.location_id,
                "requested": r.requested,
                "reserved": r.reserved,
                "backordered": r.requested - r.reserved,
            }
            for r in rs
        ],
    }


# --- reactions to fulfillment's order events ---------------------------------------------------


def _ours(ctx: Ctx) -> bool:
    # Only fulfillment's own use cases hold stock: the same event type published through the events
    # API (``events.publish``) describes an order, it does not reserve.
    if ctx.operation is None or not ctx.operation[0].startswith("fulfillment."):
        return False
    return ctx.tenant is not None and "inventory" in ctx.tenant.modules


def on_order_created(ctx: Ctx, ev: EmittedEvent) -> None:
    """``order.created``: hold the new order's lines (given in the event's ``lines``)."""
    if _ours(ctx) and ev.data.get("lines"):
        reserve(
            ctx,
            ctx.uow.session,
            order_id=str(ev.data["order_id"]),
            reference=str(ev.data["order_number"]),
            lines=ev.data["lines"],
        )


def on_order_updated(ctx: Ctx, ev: EmittedEvent) -> None:
    """``order.updated``: the lines changed before picking; release the old hold and hold the new lines."""
    if not _ours(ctx):
        return
    s = ctx.uow.session
    order_id = str(ev.data["order_id"])
    for r in _active(s, order_id):
        _unhold(ctx, s, r.sku, r.location_id, r.reserved)
        r.status, r.updated_at = RELEASED, ctx.now()
    s.flush()
    reserve(ctx, s, order_id=order_id, reference=str(ev.data["order_number"]), lines=ev.data.get("lines") or [])


def on_order_cancelled(ctx: Ctx, ev: EmittedEvent) -> None:
    """``order.cancelled``: the order's held units are available again."""
    if _ours(ctx):
        release(ctx, ctx.uow.session, str(ev.data["order_id"]))


def on_order_shipped(ctx: Ctx, ev: EmittedEvent) -> None:
    """``order.shipped``: the held units leave with the parcel (``take_out_shipped_order`` moves them)."""
    if _ours(ctx):
        release(ctx, ctx.uow.session, str(ev.data["order_id"]), status=SHIPPED)


# --- reading ---------------------------------------------------------------------------------


def _by_location(_n: str, v: str) -> Any:
    return InventoryReservation.location_id.in_(
        select(InventoryLocation.id).where(or_(InventoryLocation.id == v, InventoryLocation.code == v))
    )


RESERVATIONS = Listing(
    InventoryReservation,
    filters={
        "order_id": lambda _n, v: or_(InventoryReservation.order_id == v, InventoryReservation.reference == v.upper()),
        "sku": InventoryReservation.sku,
        "location_id": _by_location,
        "status": one_of(InventoryReservation.status, STATUSES),
        "backordered": lambda _n, v: (
            (InventoryReservation.reserved < InventoryReservation.requested)
            if v
            else (InventoryReservation.reserved >= InventoryReservation.requested)
        ),
    },
    search=(InventoryReservation.sku, InventoryReservation.reference),
    sort={
        "created_at": InventoryReservation.created_at,
        "updated_at": InventoryReservation.updated_at,
        "sku": InventoryReservation.sku,
    },
)


def _out(r: InventoryReservation) -> ReservationOut:
    return ReservationOut(
        id=r.id,
        order_id=r.order_id,
        reference=r.reference,
        sku=r.sku,
        location_id=r.location_id,
        requested=r.requested,
        reserved=r.reserved,
        backordered=r.requested - r.reserved,
        status=r.status,
        created_at=r.created_at,
        updated_at=r.updated_at,
    )


@use_case(
    "inventory.reservations.list",
    "GET /reservations",
    tx="read",
    summary="list reservations (by order, SKU, location; backorders)",
)
def list_reservations(ctx: Ctx, query: ReservationQuery, session: Session = SESSION) -> Page[ReservationOut]:
    return RESERVATIONS.page(session, query, _out)
