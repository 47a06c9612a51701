"""Requests and responses of the fulfillment routes."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import Out, StatefulOut, Strict
from services.core.urls import FetchUrl
from services.fulfillment.states import BATCH, BATCH_STATES, ORDER, STATES

Code = Annotated[str, Field(min_length=1, max_length=100)]


# --- operations (DECISIONS.md table) -------------------------------------------


class PickItem(Strict):
    code: Code
    quantity: int = Field(default=1, ge=1, le=10_000)


class PickOperation(Strict):
    operation: Literal["pick"]
    items: list[PickItem] = Field(min_length=1, max_length=500)


class UnpickOperation(Strict):
    """Take back scanned units (a wrong scan undone); an order picked in full goes back to pending."""

    operation: Literal["unpick"]
    items: list[PickItem] = Field(min_length=1, max_length=500)


class PackOperation(Strict):
    operation: Literal["pack"]
    box: str = Field(min_length=1, max_length=40)
    weight_grams: int | None = Field(default=None, ge=1, le=1_000_000)


class ShipUnit(Strict):
    """A tracked unit that ships: its item (barcode or SKU, as scanned) and its serial, or its lot and
    how many of the line's units come from that lot."""

    code: Code
    serial: str | None = Field(default=None, min_length=1, max_length=100)
    lot: str | None = Field(default=None, min_length=1, max_length=100)
    quantity: int = Field(default=1, ge=1, le=100_000)

    @model_validator(mode="after")
    def _one(self) -> ShipUnit:
        if (self.serial is None) == (self.lot is None):
            raise ValueError("give the unit's serial or its lot (one of them)")
        if self.serial is not None and self.quantity != 1:
            raise ValueError("a serial is one unit: quantity 1")
        return self


class ShipOperation(Strict):
    operation: Literal["ship"]
    # The serials and lots of the order's tracked items (scanned at the desk): Inventory takes those
    # units out of stock; a tracked line shipped without them is refused.
    units: list[ShipUnit] = Field(default_factory=list, max_length=2000)
    carrier: str | None = Field(default=None, min_length=1, max_length=40)
    # Set by the service when it allocates the number, so a station's outbox
    # replay on the platform ships under the same number as the printed label.
    tracking_number: str | None = Field(default=None, min_length=4, max_length=64)


class SplitOperation(Strict):
    """Ship what is picked: the unpicked rest moves to a new backorder (pending) order."""

    operation: Literal["split"]


class CancelOperation(Strict):
    operation: Literal["cancel"]
    reason: str | None = Field(default=None, max_length=500)


_Operation = PickOperation | UnpickOperation | SplitOperation | PackOperation | ShipOperation | CancelOperation


class OperationRequest(RootModel[_Operation]):
    root: Annotated[_Operation, Field(discriminator="operation")]


# --- orders --------------------------------------------------------------------


class Address(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str | None = None
    company: str | None = None
    address1: str | None = None
    address2: str | None = None
    city: str | None = None
    province: str | None = None
    zip: str | None = None
    country: str | None = None
    phone: str | None = None


class LotTaken(BaseModel):
    code: str
    quantity: int


class LineOut(Out):
    id: str
    sku: str
    barcode: str | None
    name: str
    quantity: int
    picked_quantity: int
    serials: list[str] = Field(default_factory=list)  # shipped on this line (tracked items)
    lots: list[LotTaken] = Field(default_factory=list)


class OrderOut(StatefulOut):
    machine = ORDER

    id: str
    order_number: str
    pick_barcode: str
    status: str
    source: str
    external_id: str | None
    external_number: str | None
    customer_name: str
    customer_email: str | None
    shipping_address: dict[str, Any]
    billing_address: dict[str, Any] | None
    box: str | None
    weight_grams: int | None
    carrier: str | None
    tracking_number: str | None
    label_id: str | None
    carrier_status: str | None
    cancel_reason: str | None
    line_count: int
    total_quantity: int
    picked_quantity: int
    created_at: datetime
    updated_at: datetime
    picked_at: datetime | None
    packed_at: datetime | None
    shipped_at: datetime | None
    delivered_at: datetime | None
    cancelled_at: datetime | None
    backorder_of: str | None = None  # a backorder: the order it carries the rest of


class OrderDetail(OrderOut):
    lines: list[LineOut]


class OperationResult(OrderDetail):
    """The updated order plus what the operation produced."""

    operation: str
    # pick: the lines the scanned codes counted on, in request order.
    matched_line_ids: list[str] = Field(default_factory=list)
    # split: the backorder made with the unpicked rest.
    backorder: OrderOut | None = None


_ISO_START = re.compile(r"\d{4}-\d{2}-\d{2}")


def _utc(v: datetime | None) -> datetime | None:
    # Query strings carry dates without a zone: read them as UTC.
    if v is not None and v.tzinfo is None:
        return v.replace(tzinfo=UTC)
    return v


class OrderQuery(ListQuery):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    status: str | None = None
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None

    @field_validator("status")
    @classmethod
    def _status(cls, v: str | None) -> str | None:
        if v is None or v == "":
            return None
        unknown = [s for s in v.split(",") if s not in STATES]
        if unknown:
            raise ValueError(f"unknown status {', '.join(unknown)}; one of {', '.join(STATES)}")
        return v

    @field_validator("from_", "to", mode="before")
    @classmethod
    def _iso(cls, v: Any) -> Any:
        # Lax parsing would read a bare number as Unix seconds; the spec's range is ISO 8601.
        if isinstance(v, str) and not _ISO_START.match(v):
            raise ValueError("not an ISO 8601 date or timestamp")
        return v

    @field_validator("from_", "to")
    @classmethod
    def _zone(cls, v: datetime | None) -> datetime | None:
        return _utc(v)


class OrderStats(BaseModel):
    """How many orders are in each state (the queue's counts)."""

    counts: dict[str, int]
    total: int


# --- labels, device settings, device sign-in -------------------------------------


class LabelQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: Literal["pdf", "zpl", "png"] = "pdf"
    # The page the PDF or PNG label is drawn for (services.core.labels.LABEL_SIZES); ZPL stays 4x6 in.
    size: Literal["4x6in", "100x150mm", "62mm"] = "4x6in"


class DeviceSettingsIn(Strict):
    printer: str | None = Field(default=None, max_length=500)
    label_format: Literal["pdf", "zpl"] | None = None
    scanner_suffix: Literal["enter", "tab", "none"] | None = None
    sounds: bool | None = None
    boxes: list[Annotated[str, Field(min_length=1, max_length=40)]] | None = Field(default=None, max_length=12)
    auto_print: bool | None = None


class DeviceSettingsOut(BaseModel):
    device: str
    printer: str
    label_format: Literal["pdf", "zpl"]
    scanner_suffix: Literal["enter", "tab", "none"]
    sounds: bool
    boxes: list[str]
    auto_print: bool
    updated_at: datetime | None


class DeviceQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # A device user's id, or "default" (the tenant's defaults). A device user reads its own.
    device: str | None = Field(default=None, max_length=64)


class DeviceLogin(Strict):
    email: str = Field(min_length=3, max_length=320)
    password: str = Field(min_length=1, max_length=1024)


class WebhookSecretIn(Strict):
    secret: str = Field(min_length=16, max_length=200)


class WebhookSettingsOut(BaseModel):
    configured: bool
    signature_header: str
    algorithm: str


class WebhookResult(BaseModel):
    source: str
    sender_id: str
    action: str  # created, updated, cancelled, status_recorded, delivered, duplicate, ignored
    order_id: str | None = None
    order_number: str | None = None
    status: str | None = None


# --- returns (RMA) -------------------------------------------------------------------


class ReturnLineIn(Strict):
    sku: str = Field(min_length=1, max_length=100)
    quantity: int = Field(ge=1, le=10_000)


class ReturnIn(Strict):
    lines: list[ReturnLineIn] = Field(min_length=1, max_length=500)
    reason: str | None = Field(default=None, max_length=500)


class ReturnScan(Strict):
    code: Code  # the item's barcode or SKU
    quantity: int = Field(default=1, ge=1, le=10_000)
    condition: Literal["resellable", "damaged"]


class ReturnReceive(Strict):
    items: list[ReturnScan] = Field(min_length=1, max_length=500)


class ReturnOut(Out):
    id: str
    order_id: str
    order_number: str
    rma_number: str
    # [{"sku", "quantity", "received": {"resellable": n, "damaged": n}}]
    lines: list[dict[str, Any]]
    reason: str | None
    status: Literal["authorised", "partly_received", "received"]
    created_at: datetime
    updated_at: datetime
    # The return label, once bought (POST /returns/{id}/label; the PDF at GET /returns/{id}/label).
    label_id: str | None = None
    carrier: str | None = None
    tracking_number: str | None = None


class ReturnLabelBuy(Strict):
    """Buy a return's label: ``carrier`` ``easypost`` (the default once set up) or ``local``; ``rule``
    overrides the tenant's."""

    carrier: str | None = Field(default=None, min_length=1, max_length=40)
    rule: Literal["cheapest", "fastest"] | None = None


class NewOrderLine(Strict):
    sku: str = Field(min_length=1, max_length=100)
    quantity: int = Field(ge=1, le=100_000)
    name: str | None = Field(default=None, max_length=200)  # the SKU when left out


class NewOrder(Strict):
    """An order taken by staff (phone, counter, a replacement): the same lines an e-commerce order has."""

    customer_name: str = Field(min_length=1, max_length=200)
    customer_email: str | None = Field(default=None, max_length=320)
    shipping_address: Address | None = None
    lines: list[NewOrderLine] = Field(min_length=1, max_length=500)


# --- batches (batch picking) -------------------------------------------------------


class NewBatch(Strict):
    """Either the orders named (ids, numbers or pick-list barcodes) or the next ``next`` ready ones."""

    orders: list[Code] | None = Field(default=None, min_length=1, max_length=200)
    next: int | None = Field(default=None, ge=1, le=200)
    # Set by the service on a station, so the platform's replay of the outbox entry makes the batch
    # under the number the station printed, from the orders it chose.
    batch_number: str | None = Field(default=None, pattern=r"^B-\d{5,12}$")

    @model_validator(mode="after")
    def _one(self) -> NewBatch:
        if (self.orders is None) == (self.next is None):
            raise ValueError("give either orders (a list of order numbers or ids) or next (how many ready orders)")
        return self


class BatchPick(Strict):
    """One scan of the walk: the location's code, then the item, then its serial or lot where it is tracked."""

    operation: Literal["pick"]
    location: str | None = Field(default=None, min_length=1, max_length=60)
    code: Code
    serial: str | None = Field(default=None, min_length=1, max_length=100)
    lot: str | None = Field(default=None, min_length=1, max_length=100)
    quantity: int = Field(default=1, ge=1, le=10_000)


class BatchPack(Strict):
    operation: Literal["pack"]
    order: Code
    box: str = Field(min_length=1, max_length=40)
    weight_grams: int | None = Field(default=None, ge=1, le=1_000_000)


class BatchClose(Strict):
    operation: Literal["close"]


class BatchCancel(Strict):
    operation: Literal["cancel"]
    reason: str | None = Field(default=None, max_length=500)


_BatchOperation = BatchPick | BatchPack | BatchClose | BatchCancel


class BatchOperationRequest(RootModel[_BatchOperation]):
    root: Annotated[_BatchOperation, Field(discriminator="operation")]


class AllocationOut(BaseModel):
    order_id: str
    order_number: str
    slot: int
    quantity: int
    picked: int
    serials: list[str] = Field(default_factory=list)
    lots: list[LotTaken] = Field(default_factory=list)


class LotProposal(BaseModel):
    """A lot to pick from this bin, first to expire first (Inventory's FEFO order)."""

    code: str
    expires_on: date | None
    quantity: int


class BatchLineOut(BaseModel):
    id: str
    position: int
    location_id: str | None
    location_code: str | None
    sku: str
    barcode: str | None
    name: str
    quantity: int
    picked_quantity: int
    allocations: list[AllocationOut]
    lots: list[LotProposal] = Field(default_factory=list)  # a lot-tracked item's lots in this bin


class PickStop(BaseModel):
    """A stop of a single order's pick list: an item at a bin, its lots first to expire first."""

    location_id: str | None
    location_code: str | None
    sku: str
    barcode: str | None
    name: str
    quantity: int
    lots: list[LotProposal] = Field(default_factory=list)


class PickListOut(BaseModel):
    order_id: str
    order_number: str
    lines: list[PickStop]  # the walk: bins in code order (no bin last), then SKU


class BatchOrderOut(BaseModel):
    order_id: str
    order_number: str
    slot: int
    status: str  # the order's
    customer_name: str


class BatchOut(StatefulOut):
    machine = BATCH

    id: str
    batch_number: str
    status: str
    order_count: int
    unit_count: int
    picked_units: int
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    picked_at: datetime | None
    packed_at: datetime | None
    closed_at: datetime | None
    cancelled_at: datetime | None


class BatchDetail(BatchOut):
    orders: list[BatchOrderOut]
    lines: list[BatchLineOut]  # the walk, in order: location code, then SKU


class PutTo(BaseModel):
    """Where a scanned unit goes: the order (its slot: tote or shelf of the cart)."""

    order_id: str
    order_number: str
    slot: int
    quantity: int
    line_id: str
    serial: str | None = None


class BatchOperationResult(BatchDetail):
    operation: str
    put_to: list[PutTo] = Field(default_factory=list)
    order: OrderOut | None = None  # pack: the packed order


class BatchQuery(ListQuery):
    model_config = ConfigDict(extra="ignore")

    status: str | None = None

    @field_validator("status")
    @classmethod
    def _status(cls, v: str | None) -> str | None:
        if v is None or v == "":
            return None
        unknown = [s for s in v.split(",") if s not in BATCH_STATES]
        if unknown:
            raise ValueError(f"unknown status {', '.join(unknown)}; one of {', '.join(BATCH_STATES)}")
        return v


# --- carriers: settings and label purchase -------------------------------------------


class ShipFrom(Strict):
    name: str = Field(min_length=1, max_length=200)
    company: str | None = Field(default=None, max_length=200)
    address1: str = Field(min_length=1, max_length=200)
    address2: str | None = Field(default=None, max_length=200)
    city: str = Field(min_length=1, max_length=100)
    province: str | None = Field(default=None, max_length=100)
    zip: str = Field(min_length=1, max_length=20)
    country: str = Field(min_length=2, max_length=2, pattern=r"^[A-Za-z]{2}$")  # ISO 3166-1 alpha-2
    phone: str | None = Field(default=None, max_length=40)


Rule = Literal["cheapest", "fastest"]


class CarrierSettingsIn(Strict):
    """The carrier aggregator (EasyPost's API): where, its key, the rule that picks a rate, the shop's address."""

    base_url: FetchUrl  # called by the platform: also checked against private addresses on save
    api_key: str = Field(min_length=8, max_length=200)
    rule: Rule = "cheapest"
    from_address: ShipFrom
    # How long a call may take before it counts as unanswered (a buy is then reconciled on the next try).
    timeout_seconds: float = Field(default=20.0, ge=1, le=120)


class CarrierSettingsOut(BaseModel):
    configured: bool
    base_url: str | None = None
    rule: Rule = "cheapest"
    from_address: dict[str, Any] | None = None  # the API key is never answered
    timeout_seconds: float | None = None


Money = Annotated[str, Field(pattern=r"^\d{1,7}(\.\d{1,2})?$")]


class LabelBuy(Strict):
    """Buy the label of a packed order and ship it. ``carrier``: ``easypost`` (the default once set up)
    or ``local``; ``rule`` overrides the tenant's; ``declared_values`` (per SKU, per unit) go on the
    customs form of a parcel leaving the shop's country."""

    carrier: str | None = Field(default=None, min_length=1, max_length=40)
    rule: Rule | None = None
    declared_values: dict[str, Money] = Field(default_factory=dict, max_length=500)
    units: list[ShipUnit] = Field(default_factory=list, max_length=2000)  # tracked units, as the ship operation


class RateOut(BaseModel):
    id: str
    carrier: str
    service: str
    amount: str
    currency: str
    delivery_days: int | None


class LabelOut(BaseModel):
    order: OrderDetail
    carrier: str
    service: str
    tracking_number: str
    rule: Rule | None = None
    amount: str | None = None
    currency: str | None = None
    rates: list[RateOut] = Field(default_factory=list)
    customs: dict[str, Any] | None = None  # the customs form sent, for a parcel leaving the shop's country
    reconciled: bool = False  # an earlier attempt's purchase was found at the carrier, not bought again
