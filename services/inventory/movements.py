"""Inventory movements: the ledger of stock changes."""

from __future__ import annotations

from sqlalchemy import or_
from sqlalchemy.orm import Session

from local_db.models.inventory import InventoryMovement
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.pagination import Listing, Page, at_least, at_most
from services.inventory.schemas import MovementOut, MovementQuery
from services.inventory.stock import within

declare_defaults("inventory.movements", record="inventory.movement")

MOVEMENTS = Listing(
    InventoryMovement,
    filters={
        "sku": InventoryMovement.sku,
        # A location's movements: the ones leaving it and the ones reaching it.
        # By id or code (the location alone: a movement inside a tree is a move between its nodes).
        "location_id": lambda _n, v: or_(
            InventoryMovement.from_location_id.in_(within(v, False)),
            InventoryMovement.to_location_id.in_(within(v, False)),
        ),
        "kind": InventoryMovement.kind,
        "reference": InventoryMovement.reference,
        "from_": at_least(InventoryMovement.at),
        "to": at_most(InventoryMovement.at),
    },
    search=(InventoryMovement.sku, InventoryMovement.reference, lambda term: InventoryMovement.id == term),
    sort={"at": InventoryMovement.at, "created_at": InventoryMovement.at, "sku": InventoryMovement.sku},
    default_sort="-at",
)


@use_case("inventory.movements.list", "GET /movements", tx="read", summary="list movements")
def list_movements(ctx: Ctx, query: MovementQuery, session: Session = SESSION) -> Page[MovementOut]:
    return MOVEMENTS.page(session, query, MovementOut)
