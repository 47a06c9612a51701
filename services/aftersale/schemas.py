"""Requests and responses of Aftersale: customer accounts, warranty registrations, claims."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, Name, NonBlankText, Strict

Serial = Annotated[str, Field(min_length=3, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]
Sku = Annotated[str, Field(min_length=1, max_length=64)]
WarrantyStatus = Literal["active", "expired", "voided"]
ClaimStatus = Literal["open", "in_progress", "closed", "cancelled"]


class RegisterIn(Strict):
    email: Email
    password: str = Field(min_length=8, max_length=1024)
    name: Name
    phone: str | None = Field(default=None, max_length=40)


class LoginIn(Strict):
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


class WarrantyIn(Strict):
    serial_number: Serial
    product_sku: Sku
    purchase_date: date
    email: Email
    name: Name
    retailer: str | None = Field(default=None, max_length=200)
    # The id a public upload (POST p/files) answered.
    proof_file: str | None = Field(default=None, max_length=36)


class WarrantyCreated(BaseModel):
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


class WarrantyQuery(ListQuery):
    status: WarrantyStatus | None = None
    serial_number: str | None = Field(default=None, max_length=100)


class FileOut(BaseModel):
    id: str
    filename: str
    content_type: str
    size: int


class ClaimIn(Strict):
    warranty_id: str = Field(min_length=1, max_length=36)
    description: NonBlankText = Field(min_length=1, max_length=5000)


class ClaimOut(BaseModel):
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


class ClaimQuery(ListQuery):
    status: ClaimStatus | None = None
    warranty_id: str | None = Field(default=None, max_length=36)


class ClaimAction(Strict):
    action: Literal["start", "close", "cancel"]
    resolution: FreeText | None = Field(default=None, max_length=5000)
