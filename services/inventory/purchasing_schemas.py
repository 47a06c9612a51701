"""Requests and responses of Inventory's reorder rules and purchase orders."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from pydantic import AwareDatetime, BaseModel, Field, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Out, Strict
from services.inventory.lot_schemas import LotCode
from services.inventory.schemas import Cost, LocationRef, Quantity, SerialNo, Sku

PurchaseOrderStatus = Literal["draft", "sent", "partially_received", "received", "cancelled"]


class ReorderRuleIn(Strict):
    sku: Sku
    location_id: LocationRef  # an id or a code
    min_quantity: int = Field(ge=0, le=1_000_000_000)
    max_quantity: int = Field(gt=0, le=1_000_000_000)

    @model_validator(mode="after")
    def _max_above_min(self) -> ReorderRuleIn:
        if self.max_quantity <= self.min_quantity:
            raise ValueError("max_quantity must be above min_quantity")
        return self


class ReorderRuleOut(Out):
    id: str
    sku: str
    location_id: str
    min_quantity: int
    max_quantity: int
    created_at: datetime
    updated_at: datetime


class ReorderRuleQuery(ListQuery):
    sku: str | None = Field(default=None, max_length=100)


class POLineIn(Strict):
    sku: Sku
    quantity: Quantity
    unit_cost: Cost | None = None  # valuation: what a received unit cost


class PurchaseOrderIn(Strict):
    supplier: str | None = Field(default=None, min_length=1, max_length=100)
    location_id: LocationRef
    lines: list[POLineIn] = Field(min_length=1, max_length=500)
    note: FreeText | None = Field(default=None, max_length=2000)


class POLine(BaseModel):
    sku: str
    quantity: int
    received: int = 0
    unit_cost: str | None = None  # a decimal string ("2.5000"); kept as text in the order's JSON


class PurchaseOrderOut(Out):
    id: str
    number: str
    supplier: str | None
    location_id: str
    lines: list[POLine]
    status: PurchaseOrderStatus
    origin: str
    note: str | None
    created_at: datetime
    updated_at: datetime
    sent_at: datetime | None
    received_at: datetime | None
    cancelled_at: datetime | None


class PurchaseOrderQuery(ListQuery):
    status: str | None = Field(default=None, max_length=100)  # comma-separated
    supplier: str | None = Field(default=None, max_length=100)


class PurchaseOrderMove(Strict):
    status: Literal["sent", "cancelled"]


class ReceiptLine(Strict):
    code: str = Field(min_length=1, max_length=100)  # a SKU or a barcode (a scan)
    quantity: Quantity
    # A tracked item says what it received: the lot of these units (and the lot's expiry), or one
    # serial per unit. An untracked item takes neither.
    lot: LotCode | None = None
    expires_on: date | None = None
    serials: list[SerialNo] | None = Field(default=None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def _tracking_fits(self) -> ReceiptLine:
        if self.expires_on is not None and self.lot is None:
            raise ValueError("expires_on is a lot's: give the lot too")
        if self.lot is not None and self.serials is not None:
            raise ValueError("a line has a lot or serials, not both")
        if self.serials is not None and len(self.serials) != self.quantity:
            raise ValueError(f"{len(self.serials)} serials for a quantity of {self.quantity}: one serial per unit")
        return self


class PurchaseOrderReceipt(Strict):
    lines: list[ReceiptLine] = Field(min_length=1, max_length=500)


class ReorderRunOut(BaseModel):
    purchase_orders: list[PurchaseOrderOut]
    lines: int  # how many item lines were proposed


class ValuationQuery(BaseModel):
    at: AwareDatetime | None = None  # default: now
    location_id: str | None = Field(default=None, max_length=60)  # id or code, with its sub-locations
    sku: str | None = Field(default=None, max_length=100)


class ValuationRow(BaseModel):
    sku: str
    location_id: str
    location_code: str
    quantity: int
    value: Decimal


class ValuationOut(BaseModel):
    at: datetime
    method: Literal["fifo", "average"]
    rows: list[ValuationRow]
    total: Decimal
