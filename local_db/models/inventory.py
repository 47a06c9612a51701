"""Inventory tables: items, locations, stock rows, movements, transfers, alert rules and alerts.

Stock is keyed by SKU: the item reference the Catalog module's products and
variants carry too, so Catalog links to it later without a migration here.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Boolean, Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class InventoryItem(TenantScoped, Base):
    """What a scan or a SKU names: the barcode a station reads and the name people read."""

    __tablename__ = "inventory_items"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "sku", name="uq_inventory_items_tenant_sku"),
        Index("ix_inventory_items_tenant_barcode", "tenant_id", "barcode"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    barcode: Mapped[str | None] = mapped_column(String(100), default=None)
    name: Mapped[str] = mapped_column(String(300), default="")
    # none | lot | serial: what a receipt, move, count and shipment of the item must name.
    tracking: Mapped[str] = mapped_column(String(10), default="none")
    supplier: Mapped[str | None] = mapped_column(String(100), default=None)  # who reorders go to
    # The cost of a unit that comes in without one (a count, an adjustment): valuation's fallback.
    unit_cost: Mapped[Decimal | None] = mapped_column(Numeric(18, 4), default=None)
    # Units of measure: stock is counted in units; an order line's quantity is in ``sales_unit``s
    # of ``units_per_sale`` units each (a pack of 6), so reserving and shipping it takes that many.
    sales_unit: Mapped[str] = mapped_column(String(20), default="unit")
    units_per_sale: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryLocation(TenantScoped, Base):
    __tablename__ = "inventory_locations"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "code", name="uq_inventory_locations_tenant_code"),
        # A location's children: each step of the roll-up's recursive walk down the tree.
        Index("ix_inventory_locations_tenant_parent", "tenant_id", "parent_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(60))
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20), default="internal")  # internal|transit|supplier|customer|loss
    parent_id: Mapped[str | None] = mapped_column(String(36), default=None)
    allow_negative: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryStock(TenantScoped, Base):
    """On-hand quantity of one SKU at one location; changed only with a movement, in one transaction."""

    __tablename__ = "inventory_stock"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        # One row per item and location; also the index of "the stock of a location, by SKU".
        UniqueConstraint("tenant_id", "location_id", "sku", name="uq_inventory_stock_tenant_location_sku"),
        Index("ix_inventory_stock_tenant_sku", "tenant_id", "sku"),
        # A location's levels read from the index alone (a covering index): the roll-up of a tree sums
        # 100,000 rows without visiting the table (207 ms with the table, 20 ms from the index).
        Index("ix_inventory_stock_tenant_location_levels", "tenant_id", "location_id", "quantity", "reserved"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str] = mapped_column(String(36))
    quantity: Mapped[int] = mapped_column(Integer, default=0)
    reserved: Mapped[int] = mapped_column(Integer, default=0)
    counted_at: Mapped[datetime | None] = mapped_column(default=None)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryMovement(TenantScoped, Base):
    """A positive quantity from one location to another (None: outside the books)."""

    __tablename__ = "inventory_movements"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_inventory_movements_tenant_at", "tenant_id", "at"),
        Index("ix_inventory_movements_tenant_sku_at", "tenant_id", "sku", "at"),
        Index("ix_inventory_movements_tenant_lot", "tenant_id", "lot_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    from_location_id: Mapped[str | None] = mapped_column(String(36), default=None)
    to_location_id: Mapped[str | None] = mapped_column(String(36), default=None)
    quantity: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))  # adjustment|count|transfer|shipment|receipt
    reference: Mapped[str | None] = mapped_column(String(200), default=None)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    actor: Mapped[str | None] = mapped_column(String(36), default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    lot_id: Mapped[str | None] = mapped_column(String(36), default=None)  # the lot moved, if any (recall)
    unit_cost: Mapped[Decimal | None] = mapped_column(Numeric(18, 4), default=None)  # valuation
    value: Mapped[Decimal | None] = mapped_column(Numeric(18, 4), default=None)  # quantity x unit cost


class InventoryTransfer(TenantScoped, Base):
    __tablename__ = "inventory_transfers"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_inventory_transfers_tenant_status_created", "tenant_id", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    from_location_id: Mapped[str] = mapped_column(String(36))
    to_location_id: Mapped[str] = mapped_column(String(36))
    transit_location_id: Mapped[str | None] = mapped_column(String(36), default=None)
    lines: Mapped[list[Any]] = mapped_column(default=list)  # [{"sku", "quantity"}]
    status: Mapped[str] = mapped_column(String(20), default="draft")
    note: Mapped[str | None] = mapped_column(Text, default=None)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    shipped_at: Mapped[datetime | None] = mapped_column(default=None)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)


class InventoryAlertRule(TenantScoped, Base):
    """Open an alert when available stock of ``sku`` (at a location, or in all internal ones) is below ``threshold``."""

    __tablename__ = "inventory_alert_rules"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_inventory_alert_rules_tenant_sku", "tenant_id", "sku"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str | None] = mapped_column(String(36), default=None)
    threshold: Mapped[int] = mapped_column(Integer)
    # "rule": made by a person; "shortfall": made by a ship that took the row below zero.
    origin: Mapped[str] = mapped_column(String(20), default="rule")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventoryAlert(TenantScoped, Base):
    __tablename__ = "inventory_alerts"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_inventory_alerts_tenant_rule_state", "tenant_id", "rule_id", "state"),
        Index("ix_inventory_alerts_tenant_opened", "tenant_id", "opened_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    rule_id: Mapped[str] = mapped_column(String(36))
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str | None] = mapped_column(String(36), default=None)
    threshold: Mapped[int] = mapped_column(Integer)
    available: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(20), default="open")  # open|acknowledged|resolved
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    acknowledged_at: Mapped[datetime | None] = mapped_column(default=None)
    resolved_at: Mapped[datetime | None] = mapped_column(default=None)


class InventoryReservation(TenantScoped, Base):
    """Units of ``sku`` held at a location for one order until it ships or is cancelled.

    ``requested`` is what the order asks, ``reserved`` what the location could hold for it (its
    stock row's ``reserved`` carries the same units); the difference is the order's backorder.
    """

    __tablename__ = "inventory_reservations"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_inventory_reservations_tenant_order", "tenant_id", "order_id"),
        Index("ix_inventory_reservations_tenant_sku_status", "tenant_id", "sku", "status"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_id: Mapped[str] = mapped_column(String(36))
    reference: Mapped[str] = mapped_column(String(200))  # the order number people know it by
    sku: Mapped[str] = mapped_column(String(100))
    location_id: Mapped[str] = mapped_column(String(36))
    requested: Mapped[int] = mapped_column(Integer)
    reserved: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default="active")  # active|shipped|released
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class InventorySerial(TenantScoped, Base):
    """One serial-numbered unit of an item: where it is (one place at a time) or that it shipped."""

    __tablename__ = "inventory_serials"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        # One unit per serial of an item: a second receipt of it is refused, not a twin.
        UniqueConstraint("tenant_id", "sku", "serial", name="uq_inventory_serials_tenant_sku_serial"),
        Index("ix_inventory_serials_tenant_serial", "tenant_id", "serial"),
        Index("ix_inventory_serials_tenant_location", "tenant_id", "location_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(100))
    serial: Mapped[str] = mapped_column(String(100))  # normalised: upper case, no spaces or dashes
    location_id: Mapped[str | None] = mapped_column(String(36), default=None)  # None once shipped
    status: Mapped[str] = mapped_column(String(20), default="in_stock")  # in_stock | shipped
    reference: Mapped[str | None] = mapped_column(String(200), default=None)  # the last move's
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
