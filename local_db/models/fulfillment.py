"""Fulfillment tables: orders and their lines, shipping labels, device settings, webhook receipts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class FulfillmentOrder(TenantScoped, Base):
    __tablename__ = "fulfillment_orders"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "order_number", name="uq_fulfillment_orders_tenant_number"),
        UniqueConstraint("tenant_id", "pick_barcode", name="uq_fulfillment_orders_tenant_pick"),
        UniqueConstraint("tenant_id", "source", "external_id", name="uq_fulfillment_orders_tenant_external"),
        # The queue: one status, newest or oldest first.
        Index("ix_fulfillment_orders_tenant_status_created", "tenant_id", "status", "created_at"),
        Index("ix_fulfillment_orders_tenant_created", "tenant_id", "created_at"),
        Index("ix_fulfillment_orders_tenant_tracking", "tenant_id", "tracking_number"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_number: Mapped[str] = mapped_column(String(40))
    pick_barcode: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    source: Mapped[str] = mapped_column(String(20), default="manual")  # manual, ecommerce, demo
    external_id: Mapped[str | None] = mapped_column(String(100), default=None)
    external_number: Mapped[str | None] = mapped_column(String(100), default=None)
    external_updated_at: Mapped[datetime | None] = mapped_column(default=None)
    customer_name: Mapped[str] = mapped_column(String(200), default="")
    customer_email: Mapped[str | None] = mapped_column(String(320), default=None)
    shipping_address: Mapped[dict[str, Any]] = mapped_column(default=dict)
    billing_address: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    box: Mapped[str | None] = mapped_column(String(40), default=None)
    weight_grams: Mapped[int | None] = mapped_column(Integer, default=None)
    carrier: Mapped[str | None] = mapped_column(String(40), default=None)
    tracking_number: Mapped[str | None] = mapped_column(String(64), default=None)
    label_id: Mapped[str | None] = mapped_column(String(36), default=None)
    carrier_status: Mapped[str | None] = mapped_column(String(40), default=None)
    cancel_reason: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    picked_at: Mapped[datetime | None] = mapped_column(default=None)
    packed_at: Mapped[datetime | None] = mapped_column(default=None)
    shipped_at: Mapped[datetime | None] = mapped_column(default=None)
    delivered_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)
    # A backorder: the order whose unpicked rest it carries (made by the ``split`` operation).
    backorder_of: Mapped[str | None] = mapped_column(String(36), default=None)


class FulfillmentLine(TenantScoped, Base):
    __tablename__ = "fulfillment_order_lines"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_fulfillment_order_lines_order_position", "order_id", "position"),
        # "Is this barcode on any order?" tells an unknown code from an item of another order.
        Index("ix_fulfillment_order_lines_tenant_barcode", "tenant_id", "barcode"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_orders.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer, default=0)
    sku: Mapped[str] = mapped_column(String(100))
    barcode: Mapped[str | None] = mapped_column(String(100), default=None)
    name: Mapped[str] = mapped_column(String(300))
    quantity: Mapped[int] = mapped_column(Integer)
    picked_quantity: Mapped[int] = mapped_column(Integer, default=0)
    # The tracked units that shipped on this line, recorded by the ship operation (or a batch's pick),
    # read by Inventory's reaction to order.shipped: serials as Inventory stores them (normalised),
    # lots as [{"code", "quantity"}]. None on a line of untracked items.
    serials: Mapped[list[Any] | None] = mapped_column(default=None)
    lots: Mapped[list[Any] | None] = mapped_column(default=None)


class ShippingLabel(TenantScoped, Base):
    """What a label shows, kept at ship time so a reprint is the same label."""

    __tablename__ = "fulfillment_labels"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "tracking_number", name="uq_fulfillment_labels_tenant_tracking"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("fulfillment_orders.id", ondelete="CASCADE"), index=True
    )
    carrier: Mapped[str] = mapped_column(String(40))
    tracking_number: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200))
    lines: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DeviceSettings(TenantScoped, Base):
    """Scanning-station settings; ``device`` is a device user's id or ``default`` for the tenant."""

    __tablename__ = "fulfillment_device_settings"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "device", name="uq_fulfillment_device_settings_tenant_device"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    device: Mapped[str] = mapped_column(String(64))
    values: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(36), default=None)


class WebhookReceipt(TenantScoped, Base):
    """An inbound webhook already processed, keyed by the sender's id, with the answer given."""

    __tablename__ = "fulfillment_webhook_receipts"
    __table_args__ = (
        UniqueConstraint("tenant_id", "source", "sender_id", name="uq_fulfillment_webhook_receipts_sender"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    source: Mapped[str] = mapped_column(String(30))  # ecommerce, shipping-platform
    sender_id: Mapped[str] = mapped_column(String(200))
    order_id: Mapped[str | None] = mapped_column(String(36), default=None)
    response: Mapped[dict[str, Any]] = mapped_column(default=dict)
    received_at: Mapped[datetime] = mapped_column(default=utcnow)


class FulfillmentReturn(TenantScoped, Base):
    """A return authorised for a shipped order (an RMA) and what came back, line by line."""

    __tablename__ = "fulfillment_returns"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "rma_number", name="uq_fulfillment_returns_tenant_rma"),
        Index("ix_fulfillment_returns_tenant_order", "tenant_id", "order_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_orders.id", ondelete="CASCADE"))
    rma_number: Mapped[str] = mapped_column(String(40))
    # [{"sku", "quantity", "received": {"resellable": n, "damaged": n}}]
    lines: Mapped[list[Any]] = mapped_column(default=list)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    status: Mapped[str] = mapped_column(String(20), default="authorised")  # authorised|partly_received|received
    # The return label (bought once): its row in fulfillment_labels, carrier and tracking number.
    label_id: Mapped[str | None] = mapped_column(String(36), default=None)
    carrier: Mapped[str | None] = mapped_column(String(40), default=None)
    tracking_number: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
