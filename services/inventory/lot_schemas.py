"""Requests and responses of Inventory's lots (``lots.py``)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated

from pydantic import BaseModel, Field

from services.core.pagination import ListQuery
from services.core.schemas import Out, Strict
from services.inventory.schemas import Cost, LocationRef, Quantity, Sku

LotCode = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]


class LotReceive(Strict):
    sku: Sku
    code: LotCode  # what is printed on the carton (compared without case or spaces)
    expires_on: date | None = None
    location_id: LocationRef  # an id or a code
    quantity: Quantity
    reference: str | None = Field(default=None, max_length=200)  # the delivery note, the PO
    unit_cost: Cost | None = None  # valuation: what a unit of this lot cost


class LotMove(Strict):
    from_location_id: LocationRef
    to_location_id: LocationRef
    quantity: Quantity


class LotCount(Strict):
    location_id: LocationRef
    counted: int = Field(ge=0, le=1_000_000_000)
    reason: str | None = Field(default=None, max_length=500)


class LotShip(Strict):
    location_id: LocationRef
    quantity: Quantity
    reference: str = Field(min_length=1, max_length=200)  # the order or shipment number


class LotPlace(BaseModel):
    location_id: str
    location_code: str
    quantity: int


class LotOut(Out):
    id: str
    sku: str
    code: str
    expires_on: date | None
    on_hand: int  # all locations
    places: list[LotPlace]
    created_at: datetime


class LotQuery(ListQuery):
    sku: str | None = Field(default=None, max_length=100)
    code: str | None = Field(default=None, max_length=100)  # a scan
    expires_before: date | None = None


class PickQuery(BaseModel):
    sku: Sku
    quantity: Quantity
    location_id: LocationRef | None = None  # its tree; all internal locations when absent


class PickLine(BaseModel):
    lot_id: str
    code: str
    expires_on: date | None
    location_id: str
    location_code: str
    quantity: int


class PickSuggestion(BaseModel):
    sku: str
    requested: int
    lines: list[PickLine]  # first to expire first (FEFO); lots without an expiry last
    short: int  # what no lot can give


class RecallShipment(BaseModel):
    movement_id: str
    reference: str | None  # the order or shipment number
    quantity: int
    at: datetime


class RecallOut(BaseModel):
    lot: LotOut
    shipped: list[RecallShipment]
    shipped_quantity: int
