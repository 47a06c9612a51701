"""Fulfillment batch picking: a batch of orders picked in one walk, its pick lines, and the claims
that keep an order in one open batch at a time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class FulfillmentBatch(TenantScoped, Base):
    __tablename__ = "fulfillment_batches"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "batch_number", name="uq_fulfillment_batches_tenant_number"),
        Index("ix_fulfillment_batches_tenant_status_created", "tenant_id", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    batch_number: Mapped[str] = mapped_column(String(40))  # B-0001, also its barcode
    status: Mapped[str] = mapped_column(String(20), default="open")
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    picked_at: Mapped[datetime | None] = mapped_column(default=None)
    packed_at: Mapped[datetime | None] = mapped_column(default=None)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)


class FulfillmentBatchOrder(TenantScoped, Base):
    """An order of a batch, in its slot (the tote it is put into while picking)."""

    __tablename__ = "fulfillment_batch_orders"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        # One open batch per order: ``open_order_id`` is the order's id while the batch is open and
        # NULL after (NULLs never collide), so two batches racing for an order cannot both commit.
        UniqueConstraint("tenant_id", "open_order_id", name="uq_fulfillment_batch_orders_open_order"),
        Index("ix_fulfillment_batch_orders_batch_slot", "batch_id", "slot"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    batch_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_batches.id", ondelete="CASCADE"))
    order_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_orders.id", ondelete="CASCADE"))
    open_order_id: Mapped[str | None] = mapped_column(String(36), default=None)
    slot: Mapped[int] = mapped_column(Integer)


class FulfillmentBatchLine(TenantScoped, Base):
    """One stop of the walk: a quantity of an item at a location, for one or more orders."""

    __tablename__ = "fulfillment_batch_lines"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (Index("ix_fulfillment_batch_lines_batch_position", "batch_id", "position"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    batch_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_batches.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    location_id: Mapped[str | None] = mapped_column(String(36), default=None)  # None: no stock found anywhere
    location_code: Mapped[str | None] = mapped_column(String(60), default=None)
    sku: Mapped[str] = mapped_column(String(100))
    barcode: Mapped[str | None] = mapped_column(String(100), default=None)
    name: Mapped[str] = mapped_column(String(300))
    quantity: Mapped[int] = mapped_column(Integer)
    picked_quantity: Mapped[int] = mapped_column(Integer, default=0)
    # Which order each unit goes to, in slot order:
    # [{"order_id", "order_number", "line_id", "slot", "quantity", "picked", "serials": [...], "lots": [{"code", "quantity"}]}]
    allocations: Mapped[list[Any]] = mapped_column(default=list)
    # A lot-tracked item's lots in this bin, first to expire first: [{"code", "expires_on", "quantity"}].
    lots: Mapped[list[Any] | None] = mapped_column(default=None)
