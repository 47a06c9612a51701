"""Declarations of the fulfillment routes (spec: Fulfillment) and its event data shapes."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from services.core.commands import MANAGERS, STAFF, command, query
from services.core.events import EVENT_TYPES, register_event_type
from services.fulfillment import schemas, service, webhooks

DEVICE = STAFF | {"warehouse-device"}


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


for _type, _schema in (("order.created", OrderCreated), ("order.picked", OrderPicked),
                       ("order.packed", OrderPacked), ("order.delivered", OrderDelivered)):  # fmt: skip
    register_event_type(_type, "fulfillment", EVENT_TYPES[_type].description, _schema)

query(name="fulfillment.auth.login", module="fulfillment", method="POST", path="/auth/login",
      handler=service.device_login, body=schemas.DeviceLogin, auth="public", cookie="service_token",
      limit="auth", summary="device sign-in")  # fmt: skip
query(name="fulfillment.auth.logout", module="fulfillment", method="POST", path="/auth/logout",
      handler=service.device_logout, auth="public", clears_cookie="service_token", summary="device sign-out",
      headers=("authorization", "cookie"))  # fmt: skip
query(name="fulfillment.orders.list", module="fulfillment", method="GET", path="/orders",
      handler=service.list_orders, query=schemas.OrderQuery, roles=DEVICE, summary="list orders")  # fmt: skip
query(name="fulfillment.orders.stats", module="fulfillment", method="GET", path="/orders/stats",
      handler=service.order_stats, roles=DEVICE, summary="count orders by state")  # fmt: skip
query(name="fulfillment.orders.get", module="fulfillment", method="GET", path="/orders/{id}",
      handler=service.get_order, roles=DEVICE, summary="read an order")  # fmt: skip
command(name="fulfillment.orders.operate", module="fulfillment", method="POST", path="/orders/{id}/operations",
        handler=service.operate, body=schemas.OperationRequest, roles=DEVICE,
        summary="run an order operation (pick, pack, ship, cancel)")  # fmt: skip
query(name="fulfillment.labels.get", module="fulfillment", method="GET", path="/labels/{id}",
      handler=service.get_label, query=schemas.LabelQuery, roles=DEVICE, summary="download a shipping label")  # fmt: skip
query(name="fulfillment.command_sheet", module="fulfillment", method="GET", path="/command-sheet",
      handler=service.command_sheet, roles=DEVICE, summary="print the sheet of command barcodes")  # fmt: skip
query(name="fulfillment.settings.device.get", module="fulfillment", method="GET", path="/settings/device",
      handler=service.get_device_settings, query=schemas.DeviceQuery, roles=DEVICE,
      summary="read device settings")  # fmt: skip
command(name="fulfillment.settings.device.put", module="fulfillment", method="PUT", path="/settings/device",
        handler=service.put_device_settings, body=schemas.DeviceSettingsIn, query=schemas.DeviceQuery,
        roles=STAFF, summary="change device settings")  # fmt: skip
query(name="fulfillment.settings.webhooks.get", module="fulfillment", method="GET", path="/settings/webhooks",
      handler=service.get_webhook_settings, roles=MANAGERS, summary="read inbound webhook settings")  # fmt: skip
command(name="fulfillment.settings.webhooks.put", module="fulfillment", method="PUT", path="/settings/webhooks",
        handler=service.put_webhook_settings, body=schemas.WebhookSecretIn, roles=MANAGERS,
        summary="set the inbound webhook secret")  # fmt: skip
command(name="fulfillment.webhooks.ecommerce", module="fulfillment", method="POST", path="/webhooks/ecommerce",
        handler=webhooks.ecommerce, auth="public", upload=True, headers=webhooks.HEADERS,
        summary="inbound order webhook from an e-commerce platform")  # fmt: skip
command(name="fulfillment.webhooks.shipping", module="fulfillment", method="POST",
        path="/webhooks/shipping-platform", handler=webhooks.shipping_platform, auth="public", upload=True,
        headers=webhooks.HEADERS, summary="inbound tracking webhook from a shipping platform")  # fmt: skip
