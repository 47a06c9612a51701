"""Requests and responses of Tax: the one definition the HTTP door, the desktop and sync use.

Money comes in as a decimal string or a JSON number with at most two decimals and goes out as a
decimal string with two places (DECISIONS: money); it is never a float inside.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Out, Strict

TransactionKind = Literal["order", "refund"]
FilingStatus = Literal["upcoming", "ready", "approved", "filed", "accepted", "rejected", "dirty"]
Frequency = Literal["monthly", "quarterly", "annual"]
CertificateStatus = Literal["pending", "active", "expired", "revoked"]
MAX_MONEY = Decimal("100000000")


def _money(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, str | int | float | Decimal):
        raise ValueError('money is a decimal string such as "12.50"')
    try:
        d = Decimal(str(v).strip())
    except InvalidOperation:
        raise ValueError('money is a decimal string such as "12.50"') from None
    if not d.is_finite() or d < 0 or d.as_tuple().exponent < -2:  # type: ignore[operator]
        raise ValueError("money is zero or more, with at most two decimals")
    if d >= MAX_MONEY:
        raise ValueError("money is below 100,000,000")
    return d.quantize(Decimal("0.01"))


# The 50 states and DC, read from the bundled nexus table (services/tax/data/nexus.json): a state
# code outside it ("ZZ") is no place a return is filed for, so it is refused, never stored.
US_STATES: frozenset[str] = frozenset(
    r["state"] for r in json.loads((Path(__file__).parent / "data" / "nexus.json").read_text())["states"]
)


def _state(v: str) -> str:
    v = v.strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", v):
        raise ValueError("a state is its two-letter code (CA, NY, ...)")
    if v not in US_STATES:
        raise ValueError(f"{v} is not a US state code (the 50 states and DC)")
    return v


Money = Annotated[Decimal, BeforeValidator(_money)]
StateCode = Annotated[str, AfterValidator(_state)]


class TransactionOut(BaseModel):
    id: str
    kind: TransactionKind
    external_id: str
    order_id: str | None
    order_external_id: str | None
    date: dt.date
    state: str
    amount: str
    shipping: str
    tax_collected: str
    exempt: bool
    revision: int
    locked: bool
    source: str
    reason: str
    created_at: dt.datetime
    updated_at: dt.datetime


class RevisionOut(BaseModel):
    revision: int
    data: dict[str, Any]
    reason: str
    created_at: dt.datetime


class TransactionDetail(TransactionOut):
    revisions: list[RevisionOut]


class TransactionQuery(ListQuery):
    kind: TransactionKind | None = None
    state: str | None = Field(default=None, max_length=2)
    from_: dt.date | None = Field(default=None, alias="from")
    to: dt.date | None = None
    locked: bool | None = None


class TransactionSyncIn(Strict):
    from_: dt.date | None = Field(default=None, alias="from")
    to: dt.date | None = None

    @model_validator(mode="after")
    def _range(self) -> TransactionSyncIn:
        if self.from_ and self.to and self.to < self.from_:
            raise ValueError("to is before from")
        return self


class TransactionSyncOut(BaseModel):
    imported: int
    updated: int
    skipped: int
    refunds_without_order: int
    locked_skipped: int
    last_sync_at: dt.datetime


class RefundIn(Strict):
    amount: Money | None = None  # the whole order when left out
    reason: str = Field(min_length=1, max_length=500)


class AmendIn(Strict):
    reason: str = Field(min_length=1, max_length=500)
    date: dt.date | None = None
    state: StateCode | None = None
    amount: Money | None = None
    shipping: Money | None = None
    tax_collected: Money | None = None
    exempt: bool | None = None


class LiabilityQuery(BaseModel):
    from_: dt.date | None = Field(default=None, alias="from")
    to: dt.date | None = None
    state: str | None = Field(default=None, max_length=2)


class LiabilityRow(BaseModel):
    state: str
    taxable_sales: str
    exempt_sales: str
    tax_collected: str
    refunded: str
    net_liability: str
    transactions: int


class LiabilityOut(BaseModel):
    from_date: dt.date | None
    to_date: dt.date | None
    states: list[LiabilityRow]
    total: LiabilityRow


class NexusRow(BaseModel):
    state: str
    name: str
    sales_tax: bool
    threshold_sales: str | None
    threshold_transactions: int | None
    rule: str | None
    sales: str
    transactions: int
    progress: float  # fraction of the nearest threshold reached (0..1+)
    reached: bool
    period: str  # the calendar year measured


class FilingOut(BaseModel):
    id: str
    state: str
    period_start: dt.date
    period_end: dt.date
    frequency: Frequency
    status: FilingStatus
    liability: str  # as approved, or the live figure before approval
    live_liability: str
    approved_at: dt.datetime | None
    filed_at: dt.datetime | None
    allowed_actions: list[str]
    created_at: dt.datetime


class FilingQuery(ListQuery):
    status: FilingStatus | None = None
    state: str | None = Field(default=None, max_length=2)


class FilingIn(Strict):
    state: StateCode
    period_start: dt.date
    frequency: Frequency = "monthly"


class FilingAction(Strict):
    action: Literal["approve", "file", "accept", "reject"]
    note: FreeText = Field(default="", max_length=500)


class CertificateOut(BaseModel):
    id: str
    customer_name: str
    customer_email: str | None
    customer_id: str | None  # the shop's customer: calculations for them apply this certificate
    state: str
    exemption_number: str
    reason: str
    exempt_percentage: int
    signed_date: dt.date | None
    expiration_date: dt.date | None
    status: CertificateStatus
    has_file: bool
    created_at: dt.datetime


class CertificateIn(Strict):
    customer_name: str = Field(min_length=1, max_length=200)
    customer_email: str | None = Field(default=None, max_length=320)
    customer_id: str | None = Field(default=None, min_length=1, max_length=100)
    state: StateCode
    exemption_number: str = Field(min_length=1, max_length=100)
    reason: Literal["resale", "government", "nonprofit", "manufacturing", "agricultural", "other"] = "resale"
    exempt_percentage: int = Field(default=100, ge=1, le=100)
    signed_date: dt.date | None = None
    expiration_date: dt.date | None = None  # none: valid until revoked (CA resale)

    @model_validator(mode="after")
    def _dates(self) -> CertificateIn:
        if self.signed_date and self.expiration_date and self.expiration_date < self.signed_date:
            raise ValueError("expiration_date is before signed_date")
        return self


class CertificateQuery(ListQuery):
    status: CertificateStatus | None = None
    state: str | None = Field(default=None, max_length=2)


class ExpiryCheckOut(BaseModel):
    expiring: int
    expired: int


class DashboardOut(BaseModel):
    year: int
    totals: LiabilityRow
    nexus: list[NexusRow]
    upcoming_filings: list[FilingOut]
    expiring_certificates: list[CertificateOut]
    last_sync_at: dt.datetime | None


# --- Rate tables and the calculation (POST /calculate; docs/tax.md "Calculation") ----------------

TaxCode = Literal["general", "clothing", "food", "digital", "shipping"]


def _zip(v: str) -> str:
    v = v.strip()
    if not re.fullmatch(r"\d{5}(-\d{4})?", v):
        raise ValueError("a ZIP code is five digits (or ZIP+4: 90001-1234)")
    return v[:5]


def _country(v: str) -> str:
    v = v.strip().upper()
    if v not in ("US", "USA"):
        raise ValueError("only US addresses are calculated (country US)")
    return "US"


class Address(Strict):
    street: str = Field(default="", max_length=200)
    city: str = Field(default="", max_length=100)
    state: StateCode
    zip: Annotated[str, AfterValidator(_zip)]
    country: Annotated[str, AfterValidator(_country)] = "US"


class CalcLineIn(Strict):
    amount: Money  # the line's total (unit price times quantity), before tax
    quantity: int = Field(default=1, ge=1, le=100000)
    product_tax_code: TaxCode = "general"


class CalculateIn(Strict):
    ship_from: Address
    ship_to: Address
    lines: list[CalcLineIn] = Field(min_length=1, max_length=500)
    shipping: Money = Decimal("0.00")
    customer_id: str | None = Field(default=None, min_length=1, max_length=100)
    date: dt.date | None = None  # the day whose rates apply; today when left out


class JurisdictionOut(BaseModel):
    name: str
    kind: Literal["state", "county", "city", "special"]
    rate: str  # the jurisdiction's rate as published ("0.060000")
    taxable_amount: str
    tax: str
    rule: str  # why this much of the amount was taxed


class CalcLineOut(BaseModel):
    index: int
    amount: str
    quantity: int
    product_tax_code: str
    tax: str
    jurisdictions: list[JurisdictionOut]


class CalculateOut(BaseModel):
    date: dt.date
    zip: str
    state: str
    region: str
    rate_table_id: str
    combined_rate: str
    exemption: str | None  # the certificate applied, by its number
    lines: list[CalcLineOut]
    shipping: CalcLineOut
    total_tax: str


class RateTableQuery(BaseModel):
    effective_from: dt.date
    effective_to: dt.date | None = None

    @model_validator(mode="after")
    def _order(self) -> RateTableQuery:
        if self.effective_to and self.effective_to < self.effective_from:
            raise ValueError("effective_to is before effective_from")
        return self


class RateTableOut(Out):
    id: str
    state: str
    effective_from: dt.date
    effective_to: dt.date | None
    filename: str
    rows: int
    created_at: dt.datetime


class RateTableListQuery(ListQuery):
    state: str | None = Field(default=None, max_length=2)
