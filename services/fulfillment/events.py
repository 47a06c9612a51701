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
