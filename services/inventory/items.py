"""Inventory items: list, create, and the item a scan names."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryItem
from local_db.models.inventory_lots import InventoryLotStock
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, NotFound
from services.core.pagination import Listing, Page, any_equals
from services.core.roles import STAFF
from services.inventory.schemas import ItemIn, ItemOut, ItemPatch, ItemQuery

declare_defaults("inventory.items", record="inventory.item")

ITEMS = Listing(
    InventoryItem,
    filters={"code": any_equals(InventoryItem.barcode, InventoryItem.sku)},  # what a scan gives
    search=(InventoryItem.sku, InventoryItem.name, InventoryItem.barcode),
    sort={"sku": InventoryItem.sku, "name": InventoryItem.name, "created_at": InventoryItem.created_at},
    default_sort="sku",
)


def find_item(s: Session, code: str) -> InventoryItem | None:
    """The item a scan names: its barcode first, then its SKU."""
    code = code.strip()
    return (
        s.execute(select(InventoryItem).where(InventoryItem.barcode == code)).scalars().first()
        or s.execute(select(InventoryItem).where(InventoryItem.sku == code)).scalars().first()
    )


@use_case(
    "inventory.items.list",
    "GET /items",
    tx="read",
    summary="list items (SKU, barcode, name); code= finds one by barcode or SKU",
)
def list_items(ctx: Ctx, query: ItemQuery, session: Session = SESSION) -> Page[ItemOut]:
    return ITEMS.page(session, query, ItemOut)


@use_case(
    "inventory.items.create",
    "POST /items",
    tx="write",
    roles=STAFF,
    status=201,
    says="New item",
    summary="register an item's barcode and name",
)
def create_item(ctx: Ctx, body: ItemIn, session: Session = SESSION) -> ItemOut:
    if session.execute(select(InventoryItem.id).where(InventoryItem.sku == body.sku)).first():
        raise Conflict(f"item {body.sku} exists", {"sku": body.sku})
    if body.barcode and session.execute(select(InventoryItem.id).where(InventoryItem.barcode == body.barcode)).first():
        raise Conflict(f"barcode {body.barcode} is another item's", {"barcode": body.barcode})
    # Every field of the request is a column of the item: a new one needs no line here.
    item = InventoryItem(id=new_id(), created_at=ctx.now(), **body.model_dump())
    session.add(item)
    session.flush()
    return ItemOut.model_validate(item)


@use_case(
    "inventory.items.update",
    "PATCH /items/{id}",
    tx="write",
    roles=STAFF,
    says="Item saved",
    summary="change an item's name or tracking (none, lot, serial); id or SKU",
)
def update_item(ctx: Ctx, id: str, body: ItemPatch, session: Session = SESSION) -> ItemOut:
    item = session.get(InventoryItem, id) or find_item(session, id)
    if item is None:
        raise NotFound(f"no item {id}", {"id": id})
    if body.tracking is not None and body.tracking != item.tracking and item.tracking == "lot":
        held = session.execute(
            select(func.coalesce(func.sum(InventoryLotStock.quantity), 0)).where(InventoryLotStock.sku == item.sku)
        ).scalar_one()
        if held:
            # Its lots' units would lose their lot: a recall could no longer find them.
            raise Conflict(
                f"{item.sku} has {held} unit(s) in lots: ship or count them out before it stops tracking lots",
                {"reason": "lots_in_stock", "quantity": int(held)},
            )
    for field, value in body.model_dump(exclude_none=True).items():
        setattr(item, field, value)
    session.flush()
    return ItemOut.model_validate(item)
