"""Requests and responses of Aftersale: customer accounts, warranty registrations, claims."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from services.aftersale.states import CLAIM, REPAIR
from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, Name, NonBlankText, Out, StatefulOut, Strict

Serial = Annotated[str, Field(min_length=3, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]
Sku = Annotated[str, Field(min_length=1, max_length=64)]
WarrantyStatus = Literal["active", "expired", "voided", "disputed"]
ClaimStatus = Literal["open", "in_progress", "closed", "cancelled"]


class RegisterIn(Strict):
    email: Email
    password: str = Field(min_length=8, max_length=1024)
    name: Name
    phone: str | None = Field(default=None, max_length=40)


class LoginIn(Strict):
    email: Email
    password: str = Field(min_length=1, max_length=1024)


class CustomerOut(Out):
    id: str
    email: str
    name: str
    phone: str | None
    created_at: datetime


class CustomerSession(CustomerOut):
    token: str
    expires_at: datetime


class WarrantyIn(Strict):
    serial_number: Serial
    product_sku: Sku
    purchase_date: date
    email: Email
    name: Name
    retailer: str | None = Field(default=None, max_length=200)
    # The id a public upload (POST p/files) answered.
    proof_file: str | None = Field(default=None, max_length=36)


class WarrantyCreated(Out):
    id: str
    serial_number: str
    product_sku: str
    purchase_date: date
    coverage_until: date
    status: WarrantyStatus


class WarrantyOut(WarrantyCreated):
    product_name: str | None
    warranty_months: int
    email: str
    name: str
    retailer: str | None
    proof_file: str | None
    days_left: int
    created_at: datetime
    disputes_id: str | None = None  # a disputed registration: the one holding the serial
    void_reason: str | None = None


class WarrantyQuery(ListQuery):
    status: WarrantyStatus | None = None
    serial_number: str | None = Field(default=None, max_length=100)


class FileOut(Out):
    id: str
    filename: str
    content_type: str
    size: int


class ClaimIn(Strict):
    warranty_id: str = Field(min_length=1, max_length=36)
    description: NonBlankText = Field(min_length=1, max_length=5000)
    # Ids answered by POST photos: what the damage looks like (up to 10, images only).
    photos: list[Annotated[str, Field(min_length=1, max_length=36)]] = Field(default_factory=list, max_length=10)


class ClaimOut(StatefulOut):
    machine = CLAIM
    id: str
    warranty_id: str
    serial_number: str
    product_sku: str
    email: str
    description: FreeText
    status: ClaimStatus
    resolution: FreeText | None
    created_at: datetime
    updated_at: datetime
    photos: list[str] = []


class ClaimQuery(ListQuery):
    status: ClaimStatus | None = None
    warranty_id: str | None = Field(default=None, max_length=36)


class ClaimAction(Strict):
    action: Literal["start", "close", "cancel"]
    resolution: FreeText | None = Field(default=None, max_length=5000)


class WarrantyVoid(Strict):
    reason: NonBlankText = Field(max_length=1000)


class WarrantyTransfer(Strict):
    """The new owner: the registration's e-mail and name change, its coverage stays."""

    email: Email
    name: Name


class DisputeDecision(Strict):
    # uphold: the disputing claimant gets the serial (the holder's registration is voided);
    # reject: the disputing registration is voided.
    decision: Literal["uphold", "reject"]
    reason: NonBlankText | None = Field(default=None, max_length=1000)


# --- repair orders -----------------------------------------------------------------------

RepairStatus = Literal["received", "diagnosed", "repaired", "replaced", "returned", "cancelled"]


class RepairIn(Strict):
    """A claim's unit received for repair."""

    note: FreeText | None = Field(default=None, max_length=5000)


class PartIn(Strict):
    sku: Sku
    quantity: int = Field(ge=1, le=10_000)
    # A part whose item tracks lots or serials names the one taken (Inventory refuses it otherwise).
    lot: str | None = Field(default=None, min_length=1, max_length=100)
    serial: str | None = Field(default=None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_serial_one_unit(self) -> PartIn:
        if self.serial is not None and (self.quantity != 1 or self.lot is not None):
            raise ValueError("a serial is one unit: quantity 1 and no lot")
        return self


class RepairAction(Strict):
    """``diagnose`` (with the diagnosis), ``repair`` (with the parts used), ``replace`` (a new unit of
    the product from stock, and parts if any), ``return`` to the customer, or ``cancel``."""

    action: Literal["diagnose", "repair", "replace", "return", "cancel"]
    diagnosis: FreeText | None = Field(default=None, max_length=5000)
    note: FreeText | None = Field(default=None, max_length=5000)
    parts: list[PartIn] = Field(default_factory=list, max_length=100)
    # Where parts and a replacement come from: an Inventory location's id or code.
    location: str | None = Field(default=None, min_length=1, max_length=60)
    replacement_serial: Serial | None = None


class PartOut(Out):
    sku: str
    quantity: int
    location_id: str
    movement_id: str | None
    replacement: bool = False


class RepairOut(StatefulOut):
    machine = REPAIR
    id: str
    number: str
    claim_id: str
    warranty_id: str
    serial_number: str
    product_sku: str
    status: RepairStatus
    diagnosis: FreeText | None
    note: FreeText | None
    replacement_serial: str | None
    parts: list[PartOut]
    created_at: datetime
    updated_at: datetime
    diagnosed_at: datetime | None
    finished_at: datetime | None
    returned_at: datetime | None
    cancelled_at: datetime | None


class RepairQuery(ListQuery):
    status: RepairStatus | None = None
    claim_id: str | None = Field(default=None, max_length=36)
