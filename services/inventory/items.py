"""Inventory items: list, create, and the item a scan names."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryItem
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict
from services.core.pagination import Listing, Page, any_equals
from services.core.roles import STAFF
from services.inventory.schemas import ItemIn, ItemOut, ItemQuery

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
