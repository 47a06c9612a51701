"""Requests and responses of Rewards: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel, field_validator

from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, Name, Out, Strict
from services.core.urls import Url

# Money in: a decimal string or a JSON number with at most two places (DECISIONS: all modules).
MoneyIn = Annotated[Decimal, Field(ge=0, le=10_000_000, max_digits=10, decimal_places=2)]
Points = Annotated[int, Field(gt=0, le=10_000_000)]
DealerStatus = Literal["pending", "approved", "declined", "suspended"]
ReceiptStatus = Literal["pending", "approved", "declined", "reversed"]
ProductKind = Literal["goods", "coupon", "gift_card"]
# A multiplier: a decimal string (or number) above 0, at most 100, two places.
Multiplier = Annotated[Decimal, Field(gt=0, le=100, max_digits=5, decimal_places=2)]
OrderStatus = Literal["ordered", "shipped", "delivered", "cancelled"]
W9Status = Literal["not_required", "required", "submitted", "verified", "rejected"]


def money(cents: int) -> str:
    return f"{Decimal(cents) / 100:.2f}"


# --- dealers ------------------------------------------------------------------------------------


class RegisterRequestIn(Strict):
    company: Name
    name: Name
    email: Email
    password: str = Field(min_length=8, max_length=1024)
    phone: str | None = Field(default=None, max_length=40)


class RegisterRequestCreated(BaseModel):
    id: str
    status: DealerStatus
    access_token: str


class RegisterRequestStatus(BaseModel):
    id: str
    status: DealerStatus
    company: str
    email: str
    reason: str | None
    created_at: datetime


class DealerLogin(Strict):
    email: Email
    password: str = Field(min_length=1, max_length=1024)


class Address(Strict):
    line1: str = Field(default="", max_length=200)
    line2: str = Field(default="", max_length=200)
    city: str = Field(default="", max_length=100)
    state: str = Field(default="", max_length=60)
    postal_code: str = Field(default="", max_length=20)
    country: str = Field(default="", max_length=60)


class DealerOut(BaseModel):
    id: str
    email: str
    name: str
    company: str
    phone: str | None
    status: DealerStatus
    created_at: datetime


class DealerSession(DealerOut):
    token: str
    expires_at: datetime


class ProfileOut(DealerOut):
    address: Address
    balance: int


class ProfileUpdate(Strict):
    name: Name | None = None
    company: Name | None = None
    phone: str | None = Field(default=None, max_length=40)
    address: Address | None = None


class AdminDealerOut(DealerOut):
    balance: int
    owed: int = 0  # points a reversed receipt took back after they were spent (flagged for staff)
    reason: str | None
    decided_at: datetime | None


class DealerQuery(ListQuery):
    status: DealerStatus | None = None
    owing: bool | None = None  # true: only dealers whose balance is below zero


class DecideRequest(Strict):
    action: Literal["approve", "decline", "suspend", "reinstate"]
    reason: str | None = Field(default=None, max_length=2000)


# --- points ---------------------------------------------------------------------------------


class Expiry(BaseModel):
    points: int
    expires_at: datetime


class TierOut(Out):
    id: str
    name: str
    threshold: int
    multiplier: str
    benefits: FreeText


class TierList(RootModel[list[TierOut]]):
    pass


class TierIn(Strict):
    name: Name
    threshold: int = Field(ge=0, le=100_000_000)
    multiplier: Annotated[Decimal, Field(ge=1, le=10, max_digits=4, decimal_places=2)] = Decimal("1")
    benefits: FreeText = Field(default="", max_length=2000)


class TierStatus(BaseModel):
    """Where a dealer stands: points earned over the tier period, the tier reached and the next one."""

    earned_in_period: int
    period_days: int
    tier: TierOut | None
    next_tier: TierOut | None
    points_to_next: int | None


class PointsOut(BaseModel):
    balance: int  # negative when a reversed receipt's points were spent already: owed, never hidden
    pending: int
    value: str
    next_expiries: list[Expiry]
    owed: int = 0
    tier: TierStatus | None = None


class LedgerOut(BaseModel):
    id: str
    dealer_id: str
    kind: Literal["earn", "redeem", "refund", "expire", "adjust", "reverse"]
    points: int
    balance_after: int
    expires_at: datetime | None
    source: str | None
    source_id: str | None
    description: FreeText
    created_at: datetime


class LedgerQuery(ListQuery):
    dealer_id: str | None = Field(default=None, max_length=36)


class AdjustIn(Strict):
    points: int = Field(ge=-10_000_000, le=10_000_000)
    reason: str = Field(min_length=1, max_length=300)
    expires_in_days: int | None = Field(default=None, ge=1, le=3650)

    @field_validator("points")
    @classmethod
    def _nonzero(cls, v: int) -> int:
        if v == 0:
            raise ValueError("points must not be 0")
        return v


# --- files and receipts -----------------------------------------------------------------------


class FileOut(BaseModel):
    id: str
    filename: str
    content_type: str
    size: int
    url: str
    created_at: datetime


Code = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")]


class ReceiptLineIn(Strict):
    """A line of the receipt: what the earning rules look at (staff check it against the photo)."""

    product_code: Code | None = None
    category: Code | None = None
    amount: MoneyIn
    quantity: int = Field(default=1, ge=1, le=100_000)


class ReceiptLine(BaseModel):
    product_code: str | None
    category: str | None
    amount: str
    quantity: int


class ReceiptIn(Strict):
    file_id: str = Field(min_length=1, max_length=36)
    retailer: str = Field(min_length=1, max_length=200)
    purchase_date: date
    total: MoneyIn
    # Optional; their amounts may not add up to more than the total (the rest earns the base rate).
    lines: list[ReceiptLineIn] = Field(default_factory=list, max_length=200)


class ReceiptOut(BaseModel):
    id: str
    dealer_id: str
    dealer_name: str | None = None
    file_id: str
    retailer: str
    purchase_date: date
    total: str
    status: ReceiptStatus
    points: int | None
    suggested_points: int
    decline_reason: str | None
    duplicate_of: str | None
    reviewed_at: datetime | None
    created_at: datetime
    lines: list[ReceiptLine] = Field(default_factory=list)
    reverse_reason: str | None = None


class ReceiptQuery(ListQuery):
    status: ReceiptStatus | None = None
    dealer_id: str | None = Field(default=None, max_length=36)


class ReviewIn(Strict):
    # reverse: an approved receipt turned out wrong; its points are taken back (a reason is needed).
    action: Literal["approve", "decline", "reverse"]
    points: Points | None = None
    reason: str | None = Field(default=None, min_length=1, max_length=2000)
    expires_in_days: int | None = Field(default=None, ge=1, le=3650)


# --- catalog, cart, orders ----------------------------------------------------------------------


class ProductOut(BaseModel):
    id: str
    name: str
    description: FreeText
    points: int
    stock: int
    image_url: str | None
    active: bool
    kind: ProductKind = "goods"
    face_value: str | None = None


class ProductIn(Strict):
    name: Name
    description: FreeText = Field(default="", max_length=10_000)
    points: Points
    stock: int = Field(default=0, ge=0, le=10_000_000)
    image_url: Url | None = Field(default=None, max_length=500)
    active: bool = True
    # A coupon or gift card issues a code per unit at checkout; a gift card needs its face value.
    kind: ProductKind = "goods"
    face_value: MoneyIn | None = None


class ProductUpdate(Strict):
    name: Name | None = None
    description: FreeText | None = Field(default=None, max_length=10_000)
    points: Points | None = None
    stock: int | None = Field(default=None, ge=0, le=10_000_000)
    image_url: Url | None = Field(default=None, max_length=500)
    active: bool | None = None


class ProductQuery(ListQuery):
    active: bool | None = None


class CartAdd(Strict):
    product_id: str = Field(min_length=1, max_length=36)
    quantity: int = Field(default=1, ge=1, le=1000)


class CartSet(Strict):
    product_id: str = Field(min_length=1, max_length=36)
    quantity: int = Field(ge=0, le=1000)


class CartRemove(Strict):
    product_id: str = Field(min_length=1, max_length=36)


class CartLine(BaseModel):
    product_id: str
    name: str
    points: int
    quantity: int
    line_points: int
    available: bool


class CartOut(BaseModel):
    items: list[CartLine]
    total_points: int
    balance: int


class CheckoutItem(Strict):
    product_id: str = Field(min_length=1, max_length=36)
    quantity: int = Field(ge=1, le=1000)


class CheckoutIn(Strict):
    shipping_address: Address
    # Beyond the spec: "buy now" of these items instead of the cart (the cart is left as it is).
    items: list[CheckoutItem] | None = Field(default=None, min_length=1, max_length=100)


class OrderLine(BaseModel):
    product_id: str
    name: str
    points: int
    quantity: int


class CodeOut(BaseModel):
    code: str
    kind: Literal["coupon", "gift_card"]
    name: str
    value: str | None
    status: Literal["issued", "redeemed", "void"]
    redeemed_at: datetime | None


class RedeemCodeIn(Strict):
    code: str = Field(min_length=4, max_length=40)


class OrderOut(BaseModel):
    id: str
    number: str
    dealer_id: str
    status: OrderStatus
    lines: list[OrderLine]
    total_points: int
    value: str
    shipping_address: Address
    tracking_number: str | None
    cancel_reason: str | None
    created_at: datetime
    updated_at: datetime
    codes: list[CodeOut] = Field(default_factory=list)


class OrderQuery(ListQuery):
    status: OrderStatus | None = None
    dealer_id: str | None = Field(default=None, max_length=36)


class OrderAction(Strict):
    action: Literal["ship", "deliver", "cancel"]
    tracking_number: str | None = Field(default=None, max_length=100)
    reason: str | None = Field(default=None, max_length=2000)


# --- settings and W-9 ---------------------------------------------------------------------------


class SettingsOut(BaseModel):
    w9_threshold: str
    point_value: str
    points_expiry_days: int
    points_per_dollar: int
    expiry_reminder_days: int
    tier_period_days: int


class SettingsIn(Strict):
    w9_threshold: MoneyIn | None = None
    point_value: Annotated[Decimal, Field(gt=0, le=1000, max_digits=8, decimal_places=4)] | None = None
    points_expiry_days: int | None = Field(default=None, ge=1, le=3650)
    points_per_dollar: int | None = Field(default=None, ge=0, le=1000)
    expiry_reminder_days: int | None = Field(default=None, ge=1, le=365)
    tier_period_days: int | None = Field(default=None, ge=1, le=3650)


TaxClassification = Literal[
    "individual",
    "c_corporation",
    "s_corporation",
    "partnership",
    "trust_estate",
    "llc_c",
    "llc_s",
    "llc_p",
    "other",
]


class W9In(Strict):
    name: Name
    business_name: str | None = Field(default=None, max_length=200)
    tax_classification: TaxClassification
    exempt_payee_code: str | None = Field(default=None, pattern=r"^(?:[1-9]|1[0-3])$")
    fatca_code: str | None = Field(default=None, pattern=r"^[A-M]$")
    address: str = Field(min_length=1, max_length=200)
    city: str = Field(min_length=1, max_length=100)
    state: str = Field(pattern=r"^[A-Z]{2}$")
    zip: str = Field(pattern=r"^\d{5}(?:-\d{4})?$")
    tin_type: Literal["ssn", "ein"]
    tin: str = Field(min_length=9, max_length=11)
    certify: Literal[True]


class W9Form(BaseModel):
    id: str
    name: str
    business_name: str | None
    tax_classification: str
    address: str
    city: str
    state: str
    zip: str
    tin_type: str
    tin_masked: str
    status: Literal["submitted", "verified", "rejected"]
    reject_reason: str | None
    certified_at: datetime


class W9Out(BaseModel):
    status: W9Status
    threshold: str
    ytd_value: str
    year: int
    form: W9Form | None


class AdminW9Out(W9Form):
    dealer_id: str
    dealer_name: str


class W9Query(ListQuery):
    status: Literal["submitted", "verified", "rejected"] | None = None


class W9Decide(Strict):
    action: Literal["verify", "reject"]
    reason: str | None = Field(default=None, max_length=2000)


# --- earning rules -------------------------------------------------------------------------------


class EarningRuleIn(Strict):
    """A base rate (``points_per_dollar``) or a bonus ``multiplier``, for one product code, one
    category or (neither) every line, within ``starts_on``..``ends_on`` (purchase dates) when given."""

    name: Name
    product_code: Code | None = None
    category: Code | None = None
    points_per_dollar: int | None = Field(default=None, ge=0, le=1000)
    multiplier: Multiplier | None = None
    starts_on: date | None = None
    ends_on: date | None = None
    active: bool = True


class EarningRuleOut(Out):
    id: str
    name: str
    product_code: str | None
    category: str | None
    points_per_dollar: int | None
    multiplier: str | None
    starts_on: date | None
    ends_on: date | None
    active: bool
    created_at: datetime


class EarningRuleQuery(ListQuery):
    active: bool | None = None


class ExpiryRunOut(BaseModel):
    expired_points: int
    dealers_expired: int
    reminded: int
