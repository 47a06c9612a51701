"""Rewards tables: dealers (the module's customer accounts and their registration request),
the points ledger with its award lots, receipts and their files, the redemption catalog,
carts, redemption orders and W-9 forms.

Points are integers. The ledger is append-only (a correction is a new row); ``rewards_lots``
keeps what is left of each award so the earliest-expiring points are spent first, and
``rewards_dealers.balance`` is the running balance a checkout decrements with a conditional
update (the one row every change of a dealer's points locks first).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class RewardsDealer(TenantScoped, Base):
    __tablename__ = "rewards_dealers"
    __synced__ = True
    __table_args__ = (UniqueConstraint("tenant_id", "email", name="uq_rewards_dealers_tenant_email"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(320))  # lower-case
    name: Mapped[str] = mapped_column(String(200))
    company: Mapped[str] = mapped_column(String(200), default="")
    phone: Mapped[str | None] = mapped_column(String(40), default=None)
    password_hash: Mapped[str] = mapped_column(String(200), default="")
    # The registration request's state: pending -> approved | declined; approved -> suspended.
    status: Mapped[str] = mapped_column(String(20), default="pending", index=True)
    decline_reason: Mapped[str | None] = mapped_column(Text, default=None)
    # Hash of the access token that reads the request's status (the token is shown once).
    access_token_hash: Mapped[str] = mapped_column(String(64), default="")
    address: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Running balance of spendable points (sum of the ledger); checkout's conditional update.
    balance: Mapped[int] = mapped_column(Integer, default=0)
    token_version: Mapped[int] = mapped_column(Integer, default=0)
    decided_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsLedgerEntry(TenantScoped, Base):
    """One movement of points, never changed once written."""

    __tablename__ = "rewards_ledger"
    __synced__ = True
    __table_args__ = (Index("ix_rewards_ledger_tenant_dealer_created", "tenant_id", "dealer_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))  # earn | redeem | refund | expire | adjust
    points: Mapped[int] = mapped_column(Integer)  # signed
    balance_after: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)  # of an award
    source: Mapped[str | None] = mapped_column(String(20), default=None)  # receipt | order | lot | staff
    source_id: Mapped[str | None] = mapped_column(String(36), default=None)
    description: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsLot(TenantScoped, Base):
    """What is left of one award (earn, positive adjust): spent earliest expiry first."""

    __tablename__ = "rewards_lots"
    __synced__ = True
    __table_args__ = (Index("ix_rewards_lots_tenant_dealer_expires", "tenant_id", "dealer_id", "expires_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"))
    entry_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_ledger.id", ondelete="CASCADE"))
    points: Mapped[int] = mapped_column(Integer)
    remaining: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    # When the dealer was told these points expire soon (one reminder per lot).
    reminded_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsAllocation(TenantScoped, Base):
    """Points a redemption took from a lot (a cancelled order gives them back to the same lots)."""

    __tablename__ = "rewards_allocations"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    entry_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_ledger.id", ondelete="CASCADE"), index=True)
    lot_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_lots.id", ondelete="CASCADE"))
    points: Mapped[int] = mapped_column(Integer)


class RewardsFile(TenantScoped, Base):
    __tablename__ = "rewards_files"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsReceipt(TenantScoped, Base):
    __tablename__ = "rewards_receipts"
    __synced__ = True
    __table_args__ = (Index("ix_rewards_receipts_tenant_status_created", "tenant_id", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"), index=True)
    file_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_files.id"))
    retailer: Mapped[str] = mapped_column(String(200))
    purchase_date: Mapped[date] = mapped_column(Date)
    total_cents: Mapped[int] = mapped_column(Integer)
    # What was bought, for the earning rules: [{product_code, category, amount_cents, quantity}].
    lines: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(20), default="pending")  # pending | approved | declined | reversed
    reverse_reason: Mapped[str | None] = mapped_column(Text, default=None)
    points: Mapped[int | None] = mapped_column(Integer, default=None)
    decline_reason: Mapped[str | None] = mapped_column(Text, default=None)
    # Another receipt with the same image or the same retailer, date and total (a hint for review).
    duplicate_of: Mapped[str | None] = mapped_column(String(36), default=None)
    reviewed_by: Mapped[str | None] = mapped_column(String(36), default=None)
    reviewed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsProduct(TenantScoped, Base):
    __tablename__ = "rewards_products"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    points: Mapped[int] = mapped_column(Integer)
    stock: Mapped[int] = mapped_column(Integer, default=0)
    image_url: Mapped[str | None] = mapped_column(String(500), default=None)
    active: Mapped[bool] = mapped_column(default=True)
    # goods (shipped) | coupon | gift_card (a code issued per unit at checkout, redeemable once)
    kind: Mapped[str] = mapped_column(String(20), default="goods")
    face_value_cents: Mapped[int | None] = mapped_column(Integer, default=None)  # a coupon's or gift card's worth
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsCartItem(TenantScoped, Base):
    __tablename__ = "rewards_cart_items"
    __table_args__ = (UniqueConstraint("tenant_id", "dealer_id", "product_id", name="uq_rewards_cart_items_line"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"))
    product_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_products.id", ondelete="CASCADE"))
    quantity: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsOrder(TenantScoped, Base):
    __tablename__ = "rewards_orders"
    __synced__ = True
    __table_args__ = (Index("ix_rewards_orders_tenant_status_created", "tenant_id", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    number: Mapped[str] = mapped_column(String(30))
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(20), default="ordered")
    lines: Mapped[list[Any]] = mapped_column(default=list)  # [{product_id, name, points, quantity}]
    total_points: Mapped[int] = mapped_column(Integer)
    value_cents: Mapped[int] = mapped_column(Integer, default=0)  # total_points x point value
    shipping_address: Mapped[dict[str, Any]] = mapped_column(default=dict)
    redeem_entry_id: Mapped[str | None] = mapped_column(String(36), default=None)
    tracking_number: Mapped[str | None] = mapped_column(String(100), default=None)
    cancel_reason: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsW9(TenantScoped, Base):
    """A dealer's W-9 (the latest one counts). The TIN is sealed; only its last four are kept in clear."""

    __tablename__ = "rewards_w9"
    __table_args__ = (Index("ix_rewards_w9_tenant_dealer_created", "tenant_id", "dealer_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20), default="submitted")  # submitted | verified | rejected
    name: Mapped[str] = mapped_column(String(200))
    business_name: Mapped[str | None] = mapped_column(String(200), default=None)
    tax_classification: Mapped[str] = mapped_column(String(40))
    exempt_payee_code: Mapped[str | None] = mapped_column(String(4), default=None)
    fatca_code: Mapped[str | None] = mapped_column(String(4), default=None)
    address: Mapped[str] = mapped_column(String(200))
    city: Mapped[str] = mapped_column(String(100))
    state: Mapped[str] = mapped_column(String(2))
    zip: Mapped[str] = mapped_column(String(10))
    tin_type: Mapped[str] = mapped_column(String(3))
    tin_sealed: Mapped[str] = mapped_column(Text)
    tin_last4: Mapped[str] = mapped_column(String(4))
    reject_reason: Mapped[str | None] = mapped_column(Text, default=None)
    certified_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsEarningRule(TenantScoped, Base):
    """How a receipt line earns: a base rate (points per dollar) or a multiplier, for one product
    code, one category or everything, optionally within a campaign period (purchase dates)."""

    __tablename__ = "rewards_earning_rules"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    product_code: Mapped[str | None] = mapped_column(String(100), default=None)
    category: Mapped[str | None] = mapped_column(String(100), default=None)
    points_per_dollar: Mapped[int | None] = mapped_column(Integer, default=None)
    multiplier: Mapped[str | None] = mapped_column(String(12), default=None)  # a decimal, e.g. "2" or "1.5"
    starts_on: Mapped[date | None] = mapped_column(Date, default=None)
    ends_on: Mapped[date | None] = mapped_column(Date, default=None)  # inclusive
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsTier(TenantScoped, Base):
    """A level a dealer reaches by the points earned over the tier period; its multiplier applies to new earnings."""

    __tablename__ = "rewards_tiers"
    __synced__ = True
    __table_args__ = (UniqueConstraint("tenant_id", "threshold", name="uq_rewards_tiers_tenant_threshold"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100))
    threshold: Mapped[int] = mapped_column(Integer)  # points earned over the period to reach it
    multiplier: Mapped[str] = mapped_column(String(12), default="1")
    benefits: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RewardsCode(TenantScoped, Base):
    """A coupon or gift card code issued by a redemption, redeemable once."""

    __tablename__ = "rewards_codes"
    __synced__ = True
    __table_args__ = (UniqueConstraint("tenant_id", "code", name="uq_rewards_codes_tenant_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(20))  # coupon | gift_card
    dealer_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_dealers.id", ondelete="CASCADE"), index=True)
    order_id: Mapped[str] = mapped_column(String(36), ForeignKey("rewards_orders.id", ondelete="CASCADE"), index=True)
    product_id: Mapped[str] = mapped_column(String(36))
    name: Mapped[str] = mapped_column(String(200))
    value_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    status: Mapped[str] = mapped_column(String(20), default="issued")  # issued | redeemed | void
    redeemed_at: Mapped[datetime | None] = mapped_column(default=None)
    redeemed_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
