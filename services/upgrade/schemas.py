"""Requests and responses of the Upgrade (trade-in) module."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainSerializer, field_validator, model_validator
from stdnum import imei as stdnum_imei

from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, Name, Strict

Condition = Literal["excellent", "good", "fair", "poor"]
# Amounts in: a positive decimal with at most two places and a sane ceiling.
Money = Annotated[Decimal, Field(gt=0, le=1_000_000, max_digits=9, decimal_places=2)]
# Amounts out: a JSON number (the spec's "decimal currency amount").
MoneyOut = Annotated[Decimal, PlainSerializer(float, return_type=float, when_used="json")]
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
Serial = Annotated[str, Field(min_length=3, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]
ProductId = Annotated[str, Field(min_length=1, max_length=100)]


def _imei(value: str) -> str:
    # python-stdnum's IMEI rules (the Luhn check digit); an IMEISV (16 digits, no check digit)
    # or a 14-digit number without it is not a device's IMEI as printed, so exactly 15.
    digits = stdnum_imei.compact(value)
    if len(digits) != 15 or not digits.isdigit() or not stdnum_imei.is_valid(digits):
        raise ValueError("an IMEI is 15 digits with a valid check digit (as *#06# shows it)")
    return digits


# Spaces and dashes as printed are accepted; stored as the 15 digits.
Imei = Annotated[str, Field(min_length=15, max_length=40), AfterValidator(_imei)]
PhotoIds = Annotated[list[str], Field(max_length=20)]


def _aware(v: datetime | None) -> datetime | None:
    if v is not None and v.tzinfo is None:
        raise ValueError("needs a time zone (e.g. 2027-01-01T00:00:00Z)")
    return v


# --- customers ----------------------------------------------------------------


class RegisterRequest(Strict):
    email: Email
    password: str = Field(min_length=8, max_length=1024)
    name: Name
    phone: str | None = Field(default=None, max_length=40)


class CustomerLogin(Strict):
    email: Email
    password: str = Field(min_length=1, max_length=1024)


class CustomerOut(BaseModel):
    id: str
    email: str
    name: str
    phone: str | None
    created_at: datetime


class CustomerSession(CustomerOut):
    token: str
    expires_at: datetime


class Address(Strict):
    line1: str = Field(default="", max_length=200)
    line2: str = Field(default="", max_length=200)
    city: str = Field(default="", max_length=100)
    postal_code: str = Field(default="", max_length=20)
    country: str = Field(default="", max_length=60)


class ProfileOut(CustomerOut):
    address: Address


class ProfileUpdate(Strict):
    name: Name | None = None
    phone: str | None = Field(default=None, max_length=40)
    address: Address | None = None


class AdminCustomerOut(CustomerOut):
    submissions: int


# --- valuations ---------------------------------------------------------------


class ValuationCreate(Strict):
    product_id: ProductId
    product_name: Name
    base_value: Money
    currency: Currency = "USD"
    is_phone: bool = False  # its trade-ins need an IMEI to be submitted


class ValuationUpdate(Strict):
    product_id: ProductId | None = None
    product_name: Name | None = None
    base_value: Money | None = None
    currency: Currency | None = None
    is_phone: bool | None = None


class ValuationOut(BaseModel):
    id: str
    product_id: str
    product_name: str
    base_value: MoneyOut
    currency: str
    is_phone: bool = False


# --- submissions --------------------------------------------------------------


class SubmissionCreate(Strict):
    product_id: ProductId
    serial_number: Serial
    imei: Imei | None = None
    condition: Condition
    description: FreeText = Field(default="", max_length=5000)
    photos: PhotoIds = Field(default_factory=list)


class DeskSubmissionCreate(Strict):
    """A trade-in taken in at the desk for a customer who is there: submitted for review at once."""

    customer_id: str = Field(min_length=1, max_length=64)
    product_id: ProductId
    serial_number: Serial
    imei: Imei | None = None
    condition: Condition
    description: FreeText = Field(default="", max_length=5000)


class SubmissionUpdate(Strict):
    product_id: ProductId | None = None
    serial_number: Serial | None = None
    imei: Imei | None = None
    condition: Condition | None = None
    description: FreeText | None = Field(default=None, max_length=5000)
    photos: PhotoIds | None = None


class SubmitRequest(Strict):
    """Submit for review takes ``{}`` (DECISIONS.md)."""


class SubmissionQuery(ListQuery):
    status: str | None = None


class AdminSubmissionQuery(SubmissionQuery):
    customer_id: str | None = None


class PhotoOut(BaseModel):
    id: str
    filename: str
    content_type: str
    size: int
    sha256: str
    submission_id: str | None
    created_at: datetime


class PhotoQuery(BaseModel):
    thumbnail: bool = False


class OfferOut(BaseModel):
    id: str
    submission_id: str
    kind: Literal["initial", "revised"]
    amount: MoneyOut
    currency: str
    notes: FreeText
    reasons: list[str]
    photos: list[str]
    expires_at: datetime
    # "expired" is a pending offer whose expiry has passed.
    status: Literal["pending", "accepted", "declined", "superseded", "expired"]
    created_at: datetime
    decided_at: datetime | None


class ShipmentOut(BaseModel):
    id: str
    kind: Literal["kit", "return"]
    barcode: str
    created_at: datetime
    label_path: str


# The recognised erasure methods: NIST SP 800-88's Clear and Purge, a cryptographic erase (the
# key of an encrypted phone's storage destroyed: Purge for modern phones), a factory reset.
ErasureMethod = Literal["nist-800-88-clear", "nist-800-88-purge", "cryptographic-erase", "factory-reset"]


class Erasure(Strict):
    """How the customer's data was erased: printed on the certificate the customer gets."""

    method: ErasureMethod
    tool: Name | None = None  # the software or procedure used (its name and version)
    verified: bool  # the erasure was checked afterwards (a certificate needs it)


class Checklist(Strict):
    power_on: bool
    screen: Literal["flawless", "light_scratches", "deep_scratches", "cracked"]
    body: Literal["flawless", "light_wear", "dents", "damaged"]
    functions: bool
    battery_health: int = Field(ge=0, le=100)
    account_lock_removed: bool
    data_wiped: bool
    accessories: bool
    # Lost/stolen registers (GSMA): what the inspector found; a blacklisted device is not credited.
    blacklist_status: Literal["clean", "blacklisted", "unchecked"] = "unchecked"
    erasure: Erasure | None = None


class InspectionOut(BaseModel):
    id: str
    status: Literal["in_progress", "completed"]
    inspector_id: str | None
    inspector_name: str | None
    checklist: dict[str, Any]
    suggested_condition: str | None
    graded_condition: str | None
    graded_value: MoneyOut | None
    reasons: list[str]
    notes: FreeText
    photos: list[str]
    started_at: datetime
    completed_at: datetime | None


class CustomerBrief(BaseModel):
    id: str
    name: str
    email: str


class SubmissionOut(BaseModel):
    id: str
    customer_id: str
    product_id: str
    product_name: str | None
    serial_number: str
    imei: str | None = None
    condition: Condition
    description: FreeText
    photos: list[str]
    status: str
    # Base value x the declared condition's modifier (None: no valuation yet).
    declared_value: MoneyOut | None
    currency: str | None
    graded_condition: str | None
    credit: MoneyOut | None
    decline_reason: str | None
    kit_barcode: str | None
    submitted_at: datetime | None
    accepted_at: datetime | None = None
    received_at: datetime | None
    completed_at: datetime | None
    created_at: datetime
    updated_at: datetime


class SubmissionDetail(SubmissionOut):
    base_value: MoneyOut | None
    current_offer: OfferOut | None
    accepted_offer: OfferOut | None
    offers: list[OfferOut]
    shipments: list[ShipmentOut]
    inspection: InspectionOut | None
    customer: CustomerBrief | None
    allowed_actions: list[str]


class ActionResult(SubmissionDetail):
    """An action's answer: the updated submission plus what the action produced."""

    outcome: str | None = None
    shipment: ShipmentOut | None = None
    revised_offer: OfferOut | None = None


# --- offers -------------------------------------------------------------------


class OfferCreate(Strict):
    submission_id: str = Field(min_length=1, max_length=36)
    amount: Money
    notes: FreeText = Field(default="", max_length=2000)
    expires_at: datetime | None = None

    @field_validator("expires_at")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class OfferRespond(Strict):
    action: Literal["accept", "decline"]
    reason: str | None = Field(default=None, max_length=2000)


class OfferResult(OfferOut):
    submission: SubmissionOut


# --- staff actions ------------------------------------------------------------


class ShipRequest(Strict):
    kind: Literal["kit", "return"]


class ReceiveRequest(Strict):
    """Receive takes ``{}`` (DECISIONS.md)."""


class RejectRequest(Strict):
    reason: str = Field(min_length=1, max_length=2000)


class InspectRequest(Strict):
    action: Literal["start", "complete"]
    # Omitted: the grade the checklist suggests; given: the inspector's override.
    condition: Condition | None = None
    checklist: Checklist | None = None
    notes: FreeText = Field(default="", max_length=5000)
    photos: PhotoIds = Field(default_factory=list)
    # Expiry of a revised offer, if one is made (default: 7 days).
    offer_expires_at: datetime | None = None

    @field_validator("offer_expires_at")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)

    @model_validator(mode="after")
    def _complete_needs_checklist(self) -> InspectRequest:
        if self.action == "complete" and self.checklist is None:
            raise ValueError("completing an inspection needs the checklist")
        return self


class ThumbnailQuery(BaseModel):
    ids: str | None = None  # comma-separated photo ids, at most 50


class ThumbnailsOut(BaseModel):
    items: dict[str, str]  # photo id -> base64 JPEG


class LabelQuery(BaseModel):
    format: Literal["pdf", "zpl"] = "pdf"


class StatsOut(BaseModel):
    counts_by_state: dict[str, int]
    total_submissions: int
    total_offered: MoneyOut
    total_credited: MoneyOut
    currency: str
    # Mean of (graded level - declared level) over inspected submissions;
    # positive: devices arrive worse than declared. None before any inspection.
    average_grade_gap: float | None
    inspected: int


# --- credit ledger -----------------------------------------------------------------


class CreditEntryOut(BaseModel):
    id: str
    kind: Literal["credit", "payout"]
    method: str | None
    amount: MoneyOut  # negative for a payout
    currency: str
    submission_id: str | None
    reference: str | None
    created_at: datetime


class CreditLedgerOut(BaseModel):
    customer_id: str
    balances: dict[str, MoneyOut]  # per currency
    entries: list[CreditEntryOut]  # newest first (the latest 200)


class PayoutIn(Strict):
    amount: Money
    currency: Currency = "USD"
    method: Literal["store_credit", "bank", "paypal"]
    reference: str | None = Field(default=None, min_length=1, max_length=200)  # the transfer's or voucher's


class PayoutExportQuery(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    method: Literal["bank", "paypal", "store_credit"] = "bank"
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
