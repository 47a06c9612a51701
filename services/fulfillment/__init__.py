"""Fulfillment: orders, pick/pack/ship operations, shipping labels, device settings, inbound webhooks."""

from services.core.modules import Module

# Declarations, event types and demo seeders register on import.
from services.fulfillment import (  # noqa: F401
    auth,
    batches,
    carrier_api,
    demo,
    events,
    labels,
    orders,
    return_labels,
    returns,
    settings,
    shipping,
    slips,
    walk,
    webhooks,
)

MODULE = Module(
    name="fulfillment",
    depends=("inventory",),  # its pick walks propose lots first to expire (services.inventory.lots)
    events=(
        "order.created",
        "order.picked",
        "order.packed",
        "order.shipped",
        "order.delivered",
        "order.cancelled",
        "order.updated",
        "return.authorised",
        "return.received",
        "batch.created",
        "batch.picked",
        "batch.packed",
        "batch.closed",
        "batch.cancelled",
    ),
    records=("fulfillment.order", "fulfillment.return", "fulfillment.batch"),
    seeders=(demo.seed_fulfillment,),
    position=20,
    title="Fulfillment",
)
