"""Inventory items: list, create, and the item a scan names."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryItem,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE, STAFF
from services.inventory.schemas import (
    ItemIn,
    ItemOut,
    ItemQuery,
)

# --- items ---------------------------------------------------------------------------------


def _item_out(i: InventoryItem) -> ItemOut:
    return ItemOut(id=i.id, sku=i.sku, barcode=i.barcode, name=i.name, created_at=i.created_at)


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
    roles=ANYONE,
    record="inventory.item",
    summary="list items (SKU, barcode, name); code= finds one by barcode or SKU",
)
def list_items(ctx: Ctx, query: ItemQuery) -> Page[ItemOut]:
    stmt = select(InventoryItem)
    if query.code:
        code = query.code.strip()
        stmt = stmt.where(or_(InventoryItem.barcode == code, InventoryItem.sku == code))
    if query.search:
        stmt = stmt.where(
            or_(
                contains(InventoryItem.sku, query.search),
                contains(InventoryItem.name, query.search),
                contains(InventoryItem.barcode, query.search),
            )
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"sku": InventoryItem.sku, "name": InventoryItem.name, "created_at": InventoryItem.created_at},
            default_sort="sku",
        )
    return page.map(_item_out)


@use_case(
    "inventory.items.create",
    "POST /items",
    tx="write",
    roles=STAFF,
    status=201,
    says="New item",
    record="inventory.item",
    summary="register an item's barcode and name",
)
def create_item(ctx: Ctx, body: ItemIn) -> ItemOut:
    with ctx.write() as s:
        if s.execute(select(InventoryItem.id).where(InventoryItem.sku == body.sku)).first():
            raise Conflict(f"item {body.sku} exists", {"sku": body.sku})
        if body.barcode and s.execute(select(InventoryItem.id).where(InventoryItem.barcode == body.barcode)).first():
            raise Conflict(f"barcode {body.barcode} is another item's", {"barcode": body.barcode})
        item = InventoryItem(id=new_id(), sku=body.sku, barcode=body.barcode, name=body.name, created_at=ctx.now())
        s.add(item)
        s.flush()
        return _item_out(item)


# --- locations -------------------------------------------------------------------------------
