"""Inventory purchasing and valuation: reorder rules, purchase orders, cost layers."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class InventoryReorderRule(TenantScoped, Base):
    """Below ``min_quantity`` available (plus what is on order) at the location, order up to ``max_quantity``."""

    __tablename__ = "inventory_reorder_rules"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "sku", "location_id", name="uq_inventory_reorder_rules_tenant_sku_location"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str] = mapped_column(String(36))
    min_quantity: Mapped[int] = mapped_column(Integer)
    max_quantity: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryPurchaseOrder(TenantScoped, Base):
    __tablename__ = "inventory_purchase_orders"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "number", name="uq_inventory_purchase_orders_tenant_number"),
        Index("ix_inventory_purchase_orders_tenant_status_created", "tenant_id", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    number: Mapped[str] = mapped_column(String(40))  # PO-00001: printed on the order, scanned at receipt
    supplier: Mapped[str | None] = mapped_column(String(100), default=None)
    location_id: Mapped[str] = mapped_column(String(36))  # where it is received
    lines: Mapped[list[Any]] = mapped_column(default=list)  # [{"sku", "quantity", "received"}]
    status: Mapped[str] = mapped_column(String(20), default="draft")
    origin: Mapped[str] = mapped_column(String(20), default="manual")  # manual | reorder
    note: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    received_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)


class InventoryCostLayer(TenantScoped, Base):
    """Units of an item that came in at one unit cost and are still in stock (valuation).

    FIFO keeps one layer per receipt and takes from the oldest; average keeps one layer per item
    whose cost is the running weighted average.
    """

    __tablename__ = "inventory_cost_layers"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_inventory_cost_layers_tenant_sku_at", "tenant_id", "sku", "at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    remaining: Mapped[int] = mapped_column(Integer)
    unit_cost: Mapped[Decimal] = mapped_column(Numeric(18, 4))
    at: Mapped[datetime] = mapped_column(default=utcnow)
