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


for _type, _schema in (
    ("order.created", OrderCreated),
    ("order.picked", OrderPicked),
    ("order.packed", OrderPacked),
    ("order.delivered", OrderDelivered),
):
    register_event_type(_type, "fulfillment", EVENT_TYPES[_type].description, _schema)
