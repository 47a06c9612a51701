"""Inventory stock per location: list and adjust.

Quantities change only through ``stock`` (one atomic statement and its
movement, in the unit of work of the call). An item that tracks lots or serials is adjusted and
counted through its lot or serial (``tracked_adjust``): without one it is 400 naming the field.
"""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryItem,
    InventoryLocation,
    InventoryStock,
)
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict
from services.core.events import emit
from services.core.pagination import Listing, Page, contains
from services.inventory import stock as engine
from services.inventory import tracked_adjust
from services.inventory.schemas import (
    StockAdjust,
    StockQuery,
    StockResult,
    StockRow,
)
from services.inventory.shipments import tracking
from services.inventory.tracked_adjust import check_codes

declare_defaults("inventory.stock", record="inventory.stock")

STOCK_SORT = {"sku": InventoryStock.sku, "quantity": InventoryStock.quantity, "updated_at": InventoryStock.updated_at}
STOCK = Listing(
    InventoryStock,
    # ``location_id`` (an id or a code, with its sub-locations unless include_children=false) is
    # applied by list_stock: it needs two query fields.
    filters={
        "sku": InventoryStock.sku,
        "below": lambda _n, v: InventoryStock.quantity - InventoryStock.reserved < v,  # available below it
    },
    # The SKU, or the item's name or barcode.
    search=(
        InventoryStock.sku,
        lambda term: InventoryStock.sku.in_(
            select(InventoryItem.sku).where(
                or_(contains(InventoryItem.name, term), contains(InventoryItem.barcode, term))
            )
        ),
    ),
    sort=STOCK_SORT,
    default_sort="sku",
)


def _items_by_sku(s: Session, skus: set[str]) -> dict[str, InventoryItem]:
    if not skus:
        return {}
    return {i.sku: i for i in s.execute(select(InventoryItem).where(InventoryItem.sku.in_(skus))).scalars()}


def _row(r: InventoryStock, item: InventoryItem | None) -> StockRow:
    return StockRow(
        id=r.id,
        sku=r.sku,
        location_id=r.location_id,
        quantity=r.quantity,
        reserved=r.reserved,
        available=r.quantity - r.reserved,
        name=item.name if item else None,
        barcode=item.barcode if item else None,
        counted_at=r.counted_at,
        updated_at=r.updated_at,
    )


@use_case(
    "inventory.stock.list",
    "GET /stock",
    tx="read",
    summary="list stock (by location)",
)
def list_stock(ctx: Ctx, query: StockQuery, session: Session = SESSION) -> Page[StockRow]:
    stmt = STOCK.select(query)
    if query.location_id:
        stmt = stmt.where(InventoryStock.location_id.in_(engine.within(query.location_id, query.include_children)))
    page = STOCK.page(session, query, stmt=stmt)
    items = _items_by_sku(session, {r.sku for r in page.items})
    return page.map(lambda r: _row(r, items.get(r.sku)))


@use_case(
    "inventory.stock.adjust",
    "POST /stock",
    tx="write",
    says="Stock adjusted",
    summary="adjust stock (delta) or post a count (counted); a lot- or serial-tracked item names its lot or serial",
)
def adjust_stock(ctx: Ctx, body: StockAdjust, session: Session = SESSION) -> StockResult:
    loc = engine.location(session, body.location_id)
    kind = "adjustment" if body.counted is None else "count"
    how = tracking(session, {body.sku}).get(body.sku)
    check_codes(body, how)
    mid: str | None = None
    if how is not None:
        delta, mid = tracked_adjust.adjust(ctx, session, body, loc, how, kind)
    else:
        delta, mid = _plain(ctx, session, body, loc, kind)
    return _result(ctx, session, body, loc, kind, delta, mid)


def _plain(ctx: Ctx, session: Session, body: StockAdjust, loc: InventoryLocation, kind: str) -> tuple[int, str | None]:
    """An untracked item's change: the item's row at the location."""
    if body.counted is not None:
        # Under the write lock of this unit of work (PostgreSQL: the row's lock), so the
        # difference from the book is the one that gets posted.
        current = session.execute(
            select(InventoryStock.quantity)
            .where(InventoryStock.sku == body.sku, InventoryStock.location_id == loc.id)
            .with_for_update()
        ).scalar_one_or_none()
        delta = body.counted - int(current or 0)
    else:
        assert body.delta is not None
        delta = body.delta
    mid: str | None = None
    try:
        if delta > 0:
            mid, levels = engine.move(
                ctx, session, sku=body.sku, quantity=delta, kind=kind, source=None, target=loc, reason=body.reason
            )
        elif delta < 0:
            mid, levels = engine.move(
                ctx, session, sku=body.sku, quantity=-delta, kind=kind, source=loc, target=None, reason=body.reason
            )
    except engine.Short as short:
        raise Conflict(
            f"only {short.quantity} of {body.sku} at {loc.code}; {loc.code} does not allow negative stock",
            {
                "sku": body.sku,
                "location_id": loc.id,
                "quantity": short.quantity,
                "delta": delta,
                "reason": "insufficient_stock",
            },
        ) from None
    return delta, mid


def _result(ctx: Ctx, session: Session, body: StockAdjust, loc: InventoryLocation, kind: str, delta: int,
            mid: str | None) -> StockResult:  # fmt: skip
    row = (
        session.execute(
            select(InventoryStock).where(InventoryStock.sku == body.sku, InventoryStock.location_id == loc.id)
        )
        .scalars()
        .first()
    )
    if row is None:  # a count of 0 where nothing was: make the row, so the count is on record
        row = InventoryStock(
            id=new_id(), sku=body.sku, location_id=loc.id, quantity=0, reserved=0, updated_at=ctx.now()
        )
        session.add(row)
    else:
        session.refresh(row)
    if kind == "count":
        row.counted_at = ctx.now()
    session.flush()
    if mid is not None:
        emit(
            ctx,
            "stock.adjusted",
            {
                "stock_id": row.id,
                "sku": row.sku,
                "location_id": loc.id,
                "delta": delta,
                "quantity": row.quantity,
                "available": row.quantity - row.reserved,
                "kind": kind,
                "reason": body.reason,
                "movement_id": mid,
            },
        )
        engine.check_alerts(ctx, session, body.sku, [loc.id], body.reason)
    item = _items_by_sku(session, {row.sku}).get(row.sku)
    return StockResult(**_row(row, item).model_dump(), delta=delta, movement_id=mid)


# --- movements -------------------------------------------------------------------------------
