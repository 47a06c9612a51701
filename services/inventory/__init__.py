"""Inventory: items, locations, stock per location, movements, transfers, alert rules and alerts."""

from services.core.modules import Module
from services.inventory import alerts, demo, events, items, locations, movements, stock, stock_levels, transfers  # noqa: F401 - declarations and event types

MODULE = Module(
    name="inventory",
    reactions=(("order.shipped", stock.take_out_shipped_order),),
    events=(
        "stock.low",
        "stock.adjusted",
        "transfer.completed",
        "transfer.shipped",
        "transfer.cancelled",
        "stock.shipped",
        "stock.recovered",
    ),
    records=("inventory.location", "inventory.transfer", "inventory.alert"),
    seeders=(demo.seed_inventory,),
    position=60,
)
