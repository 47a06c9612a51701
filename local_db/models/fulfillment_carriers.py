"""Fulfillment label purchases from a carrier reached over the network (the EasyPost-style aggregator)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class CarrierPurchase(TenantScoped, Base):
    """One order's label purchase, written before each call to the carrier so a retry never buys twice.

    ``state``: ``rating`` (asking for a shipment and its rates), ``rated`` (the carrier's shipment id
    and rates are known), ``buying`` (the buy call went out: its outcome is unknown until the
    carrier's shipment is read back), ``bought`` (tracking number and label known).
    """

    __tablename__ = "fulfillment_carrier_purchases"
    # One purchase per order and purpose: the outgoing label, and one return label per RMA.
    __table_args__ = (
        UniqueConstraint("tenant_id", "order_id", "purpose", name="uq_fulfillment_carrier_purchases_purpose"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    order_id: Mapped[str] = mapped_column(String(36), ForeignKey("fulfillment_orders.id", ondelete="CASCADE"))
    carrier: Mapped[str] = mapped_column(String(40))  # our carrier code (easypost)
    purpose: Mapped[str] = mapped_column(String(60), default="outgoing")  # outgoing, or the return's id
    state: Mapped[str] = mapped_column(String(20), default="rating")
    rule: Mapped[str] = mapped_column(String(20), default="cheapest")
    shipment_id: Mapped[str | None] = mapped_column(String(100), default=None)  # the carrier's (shp_...)
    rates: Mapped[list[Any]] = mapped_column(default=list)
    rate_id: Mapped[str | None] = mapped_column(String(100), default=None)
    service: Mapped[str | None] = mapped_column(String(100), default=None)  # "USPS Priority"
    amount: Mapped[str | None] = mapped_column(String(20), default=None)  # as the carrier wrote it
    currency: Mapped[str | None] = mapped_column(String(3), default=None)
    tracking_number: Mapped[str | None] = mapped_column(String(64), default=None)
    label_url: Mapped[str | None] = mapped_column(Text, default=None)
    customs: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    buy_attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
