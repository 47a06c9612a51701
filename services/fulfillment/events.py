"""The fulfillment event types and their data shapes (the use cases are declared in ``service``)."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from services.core.events import EVENT_TYPES, register_event_type


class _Data(BaseModel):
    model_config = ConfigDict(extra="allow")

    order_id: str


class OrderCreated(_Data):
    order_number: str
    source: str


class OrderPicked(_Data):
    order_number: str
    picked_at: datetime


class OrderPacked(_Data):
    order_number: str
    box: str
    packed_at: datetime


class OrderDelivered(_Data):
    tracking_number: str
    delivered_at: datetime


class OrderCancelled(_Data):
    order_number: str
    reason: str | None = None
    cancelled_at: datetime


class OrderUpdated(_Data):
    order_number: str
    lines: list[dict[str, object]]


register_event_type("return.authorised", "fulfillment", "a return (RMA) was authorised for a shipped order")
register_event_type("return.received", "fulfillment", "returned items were received, each resellable or damaged")
register_event_type("order.cancelled", "fulfillment", "order cancelled (by staff or by the shop)", OrderCancelled)
register_event_type(
    "order.updated", "fulfillment", "the shop changed an order's lines or address before picking", OrderUpdated
)

for _type, _schema in (
    ("order.created", OrderCreated),
    ("order.picked", OrderPicked),
    ("order.packed", OrderPacked),
    ("order.delivered", OrderDelivered),
):
    register_event_type(_type, "fulfillment", EVENT_TYPES[_type].description, _schema)


class _Batch(BaseModel):
    model_config = ConfigDict(extra="allow")

    batch_id: str
    batch_number: str


class BatchCreated(_Batch):
    order_ids: list[str]
    line_count: int


class BatchMoved(_Batch):
    status: str


register_event_type("batch.created", "fulfillment", "a pick batch was made: its orders, one walk", BatchCreated)
for _type, _what in (
    ("batch.picked", "every unit of a pick batch was picked"),
    ("batch.packed", "every order of a pick batch was packed"),
    ("batch.closed", "a pick batch was closed: its orders are free"),
    ("batch.cancelled", "a pick batch was cancelled: its orders are free, what was picked stays picked"),
):
    register_event_type(_type, "fulfillment", _what, BatchMoved)
