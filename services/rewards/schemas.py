"""Requests and responses of Rewards: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, Name, Strict
from services.core.urls import Url

# Money in: a decimal string or a JSON number with at most two places (DECISIONS: all modules).
MoneyIn = Annotated[Decimal, Field(ge=0, le=10_000_000, max_digits=10, decimal_places=2)]
Points = Annotated[int, Field(gt=0, le=10_000_000)]
DealerStatus = Literal["pending", "approved", "declined", "suspended"]
ReceiptStatus = Literal["pending", "approved", "declined"]
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
    reason: str | None
    decided_at: datetime | None


class DealerQuery(ListQuery):
    status: DealerStatus | None = None


class DecideRequest(Strict):
    action: Literal["approve", "decline", "suspend", "reinstate"]
    reason: str | None = Field(default=None, max_length=2000)


# --- points ---------------------------------------------------------------------------------


class Expiry(BaseModel):
    points: int
    expires_at: datetime


class PointsOut(BaseModel):
    balance: int
    pending: int
    value: str
    next_expiries: list[Expiry]


class LedgerOut(BaseModel):
    id: str
    dealer_id: str
    kind: Literal["earn", "redeem", "refund", "expire", "adjust"]
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


class ReceiptIn(Strict):
    file_id: str = Field(min_length=1, max_length=36)
    retailer: str = Field(min_length=1, max_length=200)
    purchase_date: date
    total: MoneyIn


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


class ReceiptQuery(ListQuery):
    status: ReceiptStatus | None = None
    dealer_id: str | None = Field(default=None, max_length=36)


class ReviewIn(Strict):
    action: Literal["approve", "decline"]
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


class ProductIn(Strict):
    name: Name
    description: FreeText = Field(default="", max_length=10_000)
    points: Points
    stock: int = Field(default=0, ge=0, le=10_000_000)
    image_url: Url | None = Field(default=None, max_length=500)
    active: bool = True


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


class SettingsIn(Strict):
    w9_threshold: MoneyIn | None = None
    point_value: Annotated[Decimal, Field(gt=0, le=1000, max_digits=8, decimal_places=4)] | None = None
    points_expiry_days: int | None = Field(default=None, ge=1, le=3650)
    points_per_dollar: int | None = Field(default=None, ge=0, le=1000)


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
