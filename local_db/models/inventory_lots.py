"""Inventory lots: a batch of an item received under one code (and expiry), and where its units are.

A lot's units are also in the item's stock row at each location (``inventory_stock``): the lot
rows say which of those units belong to which lot, so stock totals and reservations are unchanged
for items that track lots.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class InventoryLot(TenantScoped, Base):
    __tablename__ = "inventory_lots"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        # One lot per code of an item: a second receipt of the code adds to it.
        UniqueConstraint("tenant_id", "sku", "code", name="uq_inventory_lots_tenant_sku_code"),
        Index("ix_inventory_lots_tenant_code", "tenant_id", "code"),  # a scan gives the code alone
        Index("ix_inventory_lots_tenant_sku_expires", "tenant_id", "sku", "expires_on"),  # FEFO
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    code: Mapped[str] = mapped_column(String(100))  # normalised: upper case, no spaces
    expires_on: Mapped[date | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryLotStock(TenantScoped, Base):
    """Units of one lot at one location (part of the item's stock row there)."""

    __tablename__ = "inventory_lot_stock"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "lot_id", "location_id", name="uq_inventory_lot_stock_tenant_lot_location"),
        Index("ix_inventory_lot_stock_tenant_sku_location", "tenant_id", "sku", "location_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lot_id: Mapped[str] = mapped_column(String(36))
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str] = mapped_column(String(36))
    quantity: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
