"""Requests and responses of the Inventory module (DECISIONS.md, Inventory)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Name, Out, StatefulOut, Strict
from services.inventory.states import ALERT, TRANSFER

Sku = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")]
Id = Annotated[str, Field(min_length=1, max_length=36)]
# A location reference: its id or its code (codes are up to 60 characters).
LocationRef = Annotated[str, Field(min_length=1, max_length=60)]
# A sane ceiling: a quantity beyond a billion is a typo, and it keeps sums inside 64-bit integers.
Quantity = Annotated[int, Field(gt=0, le=1_000_000_000)]
LocationKind = Literal["internal", "transit", "supplier", "customer", "loss", "quarantine"]
MovementKind = Literal["adjustment", "count", "transfer", "shipment", "receipt", "return", "consumption", "production"]
TransferStatus = Literal["draft", "in_transit", "completed", "cancelled"]
AlertState = Literal["open", "acknowledged", "resolved"]

# --- items ---------------------------------------------------------------------------


Tracking = Literal["none", "lot", "serial"]
# A unit cost: zero or more, at most 4 decimals, below a billion (a typo beyond).
Cost = Annotated[Decimal, Field(ge=0, lt=1_000_000_000, decimal_places=4, allow_inf_nan=False)]
SalesUnit = Annotated[str, Field(min_length=1, max_length=20)]
UnitsPerSale = Annotated[int, Field(ge=1, le=100_000)]


class ItemIn(Strict):
    sku: Sku
    barcode: str | None = Field(default=None, min_length=1, max_length=100)
    name: str = Field(default="", max_length=300)
    tracking: Tracking = "none"  # lot: receipts, moves, counts and shipments name the lot
    supplier: str | None = Field(default=None, min_length=1, max_length=100)  # reorders go to it
    unit_cost: Cost | None = None  # valuation: what a unit that comes in without a cost is worth
    sales_unit: SalesUnit = "unit"  # what an order line counts ("pack of 6"); stock counts units
    units_per_sale: UnitsPerSale = 1


class ItemPatch(Strict):
    name: str | None = Field(default=None, max_length=300)
    tracking: Tracking | None = None
    supplier: str | None = Field(default=None, min_length=1, max_length=100)
    unit_cost: Cost | None = None
    sales_unit: SalesUnit | None = None
    units_per_sale: UnitsPerSale | None = None


class ItemOut(Out):
    id: str
    sku: str
    barcode: str | None
    name: str
    tracking: Tracking = "none"
    supplier: str | None = None
    unit_cost: Decimal | None = None
    sales_unit: str = "unit"
    units_per_sale: int = 1
    created_at: datetime


class ItemQuery(ListQuery):
    code: str | None = Field(default=None, max_length=100)  # a SKU or a barcode (what a scan gives)


# --- locations -------------------------------------------------------------------------


class LocationIn(Strict):
    code: str = Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    name: Name
    kind: LocationKind = "internal"
    parent_id: LocationRef | None = None  # the parent's id or code
    allow_negative: bool = False


class LocationOut(Out):
    id: str
    code: str
    name: str
    kind: LocationKind
    parent_id: str | None
    allow_negative: bool
    created_at: datetime


class LocationQuery(ListQuery):
    kind: LocationKind | None = None
    code: str | None = Field(default=None, max_length=60)
    parent_id: str | None = Field(default=None, max_length=60)  # the children of a location (id or code)


# --- stock -----------------------------------------------------------------------------


class StockAdjust(Strict):
    """``delta`` (≠ 0) adds or removes; ``counted`` (≥ 0) says what was counted on the shelf."""

    sku: Sku
    location_id: LocationRef  # an id or a code
    delta: int | None = Field(default=None, ge=-1_000_000_000, le=1_000_000_000)
    counted: int | None = Field(default=None, ge=0, le=1_000_000_000)
    reason: str | None = Field(default=None, max_length=500)
    # The lot or the serial the change is of: required for an item that tracks them (400 naming it).
    lot: str | None = Field(default=None, min_length=1, max_length=100)
    serial: str | None = Field(default=None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_of(self) -> StockAdjust:
        if (self.delta is None) == (self.counted is None):
            raise ValueError("give either delta or counted, not both")
        if self.delta == 0:
            raise ValueError("delta must not be 0")
        return self


class StockRow(BaseModel):
    sku: str
    location_id: str
    quantity: int
    reserved: int
    available: int
    id: str | None = None
    name: str | None = None
    barcode: str | None = None
    counted_at: datetime | None = None
    updated_at: datetime | None = None


class StockResult(StockRow):
    """The row after an adjustment, with what the adjustment did."""

    delta: int = 0
    movement_id: str | None = None


class StockQuery(ListQuery):
    location_id: str | None = Field(default=None, max_length=60)  # an id or a code
    include_children: bool = True  # the location's sub-locations too (a tree rolls up)
    sku: str | None = Field(default=None, max_length=100)
    below: int | None = None  # rows whose available quantity is below this


# --- movements ---------------------------------------------------------------------------


class MovementOut(Out):
    id: str
    sku: str
    from_location_id: str | None
    to_location_id: str | None
    quantity: int
    kind: MovementKind
    reference: str | None
    reason: str | None
    actor: str | None
    at: datetime
    lot_id: str | None = None
    unit_cost: Decimal | None = None  # valuation (FIFO or average, the tenant's setting)
    value: Decimal | None = None


class MovementQuery(ListQuery):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    sku: str | None = Field(default=None, max_length=100)
    location_id: str | None = Field(default=None, max_length=60)  # an id or a code
    kind: MovementKind | None = None
    reference: str | None = Field(default=None, max_length=200)
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None


# --- transfers -----------------------------------------------------------------------------


class TransferLine(Strict):
    sku: Sku
    quantity: Quantity


class TransferIn(Strict):
    from_location_id: LocationRef
    to_location_id: LocationRef
    lines: list[TransferLine] = Field(min_length=1, max_length=500)
    note: FreeText | None = Field(default=None, max_length=2000)


class TransferStatusIn(Strict):
    status: TransferStatus


class TransferPatch(TransferStatusIn):
    """The spec's form: ``PATCH transfers {"id", "status"}``."""

    id: Id


class TransferReceiveLine(Strict):
    sku: Sku
    quantity: Quantity


class TransferReceive(Strict):
    """What arrived (a partial receipt); ``write_off_reason``: the rest is lost and the transfer ends."""

    lines: list[TransferReceiveLine] = Field(default_factory=list, max_length=500)
    write_off_reason: FreeText | None = Field(default=None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def _something(self) -> TransferReceive:
        if not self.lines and self.write_off_reason is None:
            raise ValueError("give the lines received, a write_off_reason for the rest, or both")
        return self


class TransferReceiptOut(BaseModel):
    sku: str
    quantity: int  # sent
    received: int
    written_off: int


class TransferOut(StatefulOut):
    machine = TRANSFER

    id: str
    from_location_id: str
    to_location_id: str
    transit_location_id: str | None
    lines: list[TransferLine]
    status: TransferStatus
    note: FreeText | None
    # Per line, once anything was received by a partial receipt: sent, received, written off.
    receipts: list[TransferReceiptOut] = []
    created_at: datetime
    updated_at: datetime
    shipped_at: datetime | None
    completed_at: datetime | None
    cancelled_at: datetime | None


class TransferQuery(ListQuery):
    status: str | None = Field(default=None, max_length=100)  # one or several, comma-separated
    location_id: str | None = Field(default=None, max_length=60)  # from or to; an id or a code


# --- alerts ----------------------------------------------------------------------------------


class AlertRuleIn(Strict):
    sku: Sku
    location_id: LocationRef | None = None  # an id or a code
    threshold: int = Field(ge=0, le=1_000_000_000)


class AlertRuleOut(Out):
    id: str
    sku: str
    location_id: str | None
    threshold: int
    origin: str
    created_at: datetime


class AlertAction(Strict):
    action: Literal["acknowledge", "resolve"]


class AlertPatch(AlertAction):
    """The spec's form: ``PATCH alerts {"id", "action"}``."""

    id: Id


class AlertOut(StatefulOut):
    machine = ALERT

    id: str
    rule_id: str
    sku: str
    location_id: str | None
    threshold: int
    available: int
    state: AlertState
    reason: str | None
    opened_at: datetime
    acknowledged_at: datetime | None
    resolved_at: datetime | None


class AlertQuery(ListQuery):
    rules: bool = False  # list the rules instead of the alerts
    state: str | None = Field(default=None, max_length=100)  # one or several, comma-separated
    sku: str | None = Field(default=None, max_length=100)
    location_id: str | None = Field(default=None, max_length=60)  # an id or a code


# --- reservations ----------------------------------------------------------------------------


class ReservationOut(Out):
    id: str
    order_id: str
    reference: str
    sku: str
    location_id: str
    requested: int
    reserved: int
    backordered: int  # requested - reserved: what the order waits for
    status: str
    created_at: datetime
    updated_at: datetime


class ReservationQuery(ListQuery):
    order_id: str | None = Field(default=None, max_length=200)  # an order's id or its number
    sku: str | None = Field(default=None, max_length=100)
    location_id: str | None = Field(default=None, max_length=60)  # an id or a code
    status: str | None = Field(default=None, max_length=60)  # one or several, comma-separated
    backordered: bool | None = None  # only the reservations short of what the order asks


# --- serial numbers -----------------------------------------------------------------------------

SerialNo = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]*$")]


class SerialsReceive(Strict):
    sku: Sku
    location_id: LocationRef  # an id or a code
    serials: list[SerialNo] = Field(min_length=1, max_length=500)
    reference: str | None = Field(default=None, max_length=200)  # the delivery note, the PO


class SerialMove(Strict):
    location_id: LocationRef


class SerialShip(Strict):
    reference: str = Field(min_length=1, max_length=200)  # the order number


class SerialOut(Out):
    id: str
    sku: str
    serial: str
    location_id: str | None
    location_code: str | None = None
    status: Literal["in_stock", "shipped", "written_off"]  # written_off: taken out by an adjustment or count
    reference: str | None
    created_at: datetime
    updated_at: datetime


class SerialsReceived(BaseModel):
    serials: list[SerialOut]
    movement_id: str


class SerialQuery(ListQuery):
    sku: str | None = Field(default=None, max_length=100)
    location_id: str | None = Field(default=None, max_length=60)  # an id or a code (its tree)
    status: str | None = Field(default=None, max_length=40)
