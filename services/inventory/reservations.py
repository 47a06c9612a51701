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

from sqlalchemy import Connection, Integer, bindparam, func, insert, or_, select, update
from sqlalchemy.orm import Session

from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models.inventory import InventoryLocation, InventoryReservation, InventoryStock
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.events import EmittedEvent, emit
from services.core.pagination import Listing, Page, one_of
from services.inventory import stock as engine
from services.inventory.schemas import ReservationOut, ReservationQuery
from services.sync.changelog import log_written, log_written_tables

declare_defaults("inventory.reservations", record="inventory.reservation")

ACTIVE, SHIPPED, RELEASED = "active", "shipped", "released"
_NS = uuid.UUID("9a3f4c1e-6d2b-4e8a-b7c5-1f0e2d3c4b5a")
STATUSES = (ACTIVE, SHIPPED, RELEASED)


# The reservation path runs once per order line on every order: its statements are compiled once
# and, on SQLite, run straight on the driver (``Prepared``); the ORM's per-statement machinery and
# per-object flush were most of a reservation's CPU (profiled: 4 ms a reservation, 220/s). Core
# statements skip the session's tenant scoping, so each one names the tenant itself.
_STOCK = table_of(InventoryStock)
_RESERVATIONS = table_of(InventoryReservation)
_STOCK_ROW = (
    select(_STOCK.c.id, _STOCK.c.quantity, _STOCK.c.reserved)
    .where(
        _STOCK.c.tenant_id == bindparam("tenant_id"),
        _STOCK.c.sku == bindparam("sku"),
        _STOCK.c.location_id == bindparam("location_id"),
    )
    .with_for_update()
)
_READ_STOCK_ROW = Prepared(_STOCK_ROW)
_HOLD = Prepared(
    update(_STOCK)
    .where(_STOCK.c.id == bindparam("row_id"))
    .values(reserved=_STOCK.c.reserved + bindparam("take", type_=Integer), updated_at=bindparam("now"))
)
_EARLIER = Prepared(
    select(func.count())
    .select_from(_RESERVATIONS)
    .where(
        _RESERVATIONS.c.tenant_id == bindparam("tenant_id"),
        _RESERVATIONS.c.order_id == bindparam("order_id"),
        _RESERVATIONS.c.sku == bindparam("sku"),
    )
)
_INSERT = Prepared(insert(_RESERVATIONS))


def _hold(ctx: Ctx, conn: Connection, sku: str, location_id: str, wanted: int) -> tuple[int, str | None]:
    """(units held, the stock row's id when it changed)."""
    if wanted <= 0:
        return 0, None
    # Locked while counted: FOR UPDATE on PostgreSQL; on SQLite the unit of work began IMMEDIATE
    # (the one writer), so nothing changes the row between this read and the update.
    found = _READ_STOCK_ROW.run(conn, {"tenant_id": ctx.tenant_id, "sku": sku, "location_id": location_id})
    row = found.fetchone()
    if row is None:
        return 0, None
    take = min(wanted, int(row[1]) - int(row[2]))
    if take <= 0:
        return 0, None
    _HOLD.run(conn, {"row_id": row[0], "take": take, "now": ctx.now()})
    return take, str(row[0])


def hold(ctx: Ctx, s: Session, sku: str, location_id: str, wanted: int) -> int:
    """Hold up to ``wanted`` units of ``sku`` at the location; answers how many were held (0..wanted)."""
    take, rid = _hold(ctx, s.connection(), sku, location_id, wanted)
    if rid is not None:
        # A Core update no flush sees: logged so the stations' pull takes the new reserved count.
        log_written(s, ctx.tenant_id, "inventory_stock", [rid])
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
) -> list[dict[str, Any]]:
    """Hold an order's lines at the shipping location (one reservation per SKU); never refuses.

    Answers the reservations' column values (no ORM objects: their bookkeeping cost more than the
    insert). Nothing happens for a tenant without Inventory or without a location.
    """
    conn = ctx.uow.connection() if ctx._uow is not None and ctx._uow.session is s else s.connection()
    loc_id = engine.ship_from_id(conn, ctx.tenant_id)
    if loc_id is None:
        return []
    now = ctx.now()
    made: list[dict[str, Any]] = []
    rows: list[str] = []
    for sku, ordered in _totals(lines).items():
        # An order line counts sales units (packs); stock and reservations count units.
        requested = ordered * engine.units_per_sale(conn, ctx.tenant_id, sku)
        held, rid = _hold(ctx, conn, sku, loc_id, requested)
        if rid is not None:
            rows.append(rid)
        earlier = int(_EARLIER.run(conn, {"tenant_id": ctx.tenant_id, "order_id": order_id, "sku": sku}).fetchone()[0])
        values = {
            # Derived from the order's history, so a station and the platform replaying the same
            # change make the same row (its pull then meets its own row, not a twin).
            "id": str(uuid.uuid5(_NS, f"{ctx.tenant_id}/{order_id}/{sku}/{earlier}")),
            "tenant_id": ctx.tenant_id,
            "order_id": order_id,
            "reference": reference,
            "sku": sku,
            "location_id": loc_id,
            "requested": requested,
            "reserved": held,
            "status": ACTIVE,
            "created_at": now,
            "updated_at": now,
        }
        _INSERT.run(conn, values)
        made.append(values)
    if made:
        # Core writes no flush sees: logged so the stations' pull takes the new reserved counts and
        # reservations (one change-log write for both tables).
        log_written_tables(
            s, ctx.tenant_id, {"inventory_stock": rows, "inventory_reservations": [str(r["id"]) for r in made]}
        )
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
        rows = [
            {"id": r.id, "sku": r.sku, "location_id": r.location_id, "requested": r.requested, "reserved": r.reserved}
            for r in rs
        ]
        emit(ctx, "stock.released", _announce(order_id, rs[0].reference, rows))
    return rs


def _announce(order_id: str, reference: str, rs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "order_id": order_id,
        "order_number": reference,
        "lines": [
            {
                "reservation_id": r["id"],
                "sku": r["sku"],
                "location_id": r["location_id"],
                "requested": r["requested"],
                "reserved": r["reserved"],
                "backordered": r["requested"] - r["reserved"],
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
