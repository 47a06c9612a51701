"""Inventory movements: the ledger of stock changes."""

from __future__ import annotations

from sqlalchemy import or_, select

from local_db.models.inventory import (
    InventoryMovement,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE
from services.inventory.schemas import (
    MovementOut,
    MovementQuery,
)


def _movement_out(m: InventoryMovement) -> MovementOut:
    return MovementOut(
        id=m.id,
        sku=m.sku,
        from_location_id=m.from_location_id,
        to_location_id=m.to_location_id,
        quantity=m.quantity,
        kind=m.kind,
        reference=m.reference,
        reason=m.reason,  # type: ignore[arg-type]
        actor=m.actor,
        at=m.at,
    )


@use_case(
    "inventory.movements.list",
    "GET /movements",
    tx="read",
    roles=ANYONE,
    record="inventory.movement",
    summary="list movements",
)
def list_movements(ctx: Ctx, query: MovementQuery) -> Page[MovementOut]:
    stmt = select(InventoryMovement)
    if query.sku:
        stmt = stmt.where(InventoryMovement.sku == query.sku.strip())
    if query.location_id:
        stmt = stmt.where(
            or_(
                InventoryMovement.from_location_id == query.location_id,
                InventoryMovement.to_location_id == query.location_id,
            )
        )
    if query.kind:
        stmt = stmt.where(InventoryMovement.kind == query.kind)
    if query.reference:
        stmt = stmt.where(InventoryMovement.reference == query.reference)
    if query.search and query.search.strip():
        term = query.search.strip()
        stmt = stmt.where(
            or_(
                contains(InventoryMovement.sku, term),
                contains(InventoryMovement.reference, term),
                InventoryMovement.id == term,
            )
        )
    if query.from_ is not None:
        stmt = stmt.where(InventoryMovement.at >= query.from_)
    if query.to is not None:
        stmt = stmt.where(InventoryMovement.at <= query.to)
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"at": InventoryMovement.at, "created_at": InventoryMovement.at, "sku": InventoryMovement.sku},
            default_sort="-at",
        )
    return page.map(_movement_out)


# --- transfers --------------------------------------------------------------------------------
