"""Inventory: items, locations, stock per location, movements, transfers, alert rules and alerts."""

from services.core.declaring import declare_defaults
from services.core.modules import Module
from services.core.roles import ANYONE

# Stock is counted, moved and scanned by everyone with the module, warehouse devices included.
declare_defaults("inventory", roles=ANYONE)

from services.inventory import (  # noqa: E402, F401 - after the defaults its declarations read
    alerts,
    demo,
    events,
    items,
    locations,
    lots,
    movements,
    production,
    purchasing,
    receipts,
    reservations,
    returns,
    serials,
    shipments,
    stock,
    stock_levels,
    transfers,
    valuation,
)

MODULE = Module(
    name="inventory",
    # After-sale asks whether a serial shipped (serials.has_shipped) when the tenant requires it.
    # MES checks a production run's location (production.check_location).
    # Fulfillment's pick walks propose lots first to expire and check a scanned lot (lots.fefo, held_at).
    public=("serials", "production", "lots"),
    reactions=(
        ("order.created", reservations.on_order_created),
        ("order.updated", reservations.on_order_updated),
        ("order.cancelled", reservations.on_order_cancelled),
        # The held units are let go before the shipped ones leave the row.
        ("order.shipped", reservations.on_order_shipped),
        ("order.shipped", shipments.take_out_shipped_order),
        ("return.received", returns.on_return_received),
        # A completed MES run's parts out, its good units in (the run's bill of materials).
        ("production.run_completed", production.on_run_completed),
    ),
    events=(
        "stock.low",
        "stock.adjusted",
        "transfer.completed",
        "transfer.shipped",
        "transfer.cancelled",
        "stock.shipped",
        "stock.recovered",
        "stock.reserved",
        "stock.released",
        "stock.returned",
        "stock.consumed",
        "stock.produced",
        "lot.received",
        "lot.moved",
        "lot.counted",
        "lot.shipped",
        "reorder.proposed",
        "purchase_order.sent",
        "purchase_order.receipt",
        "purchase_order.received",
        "purchase_order.cancelled",
    ),
    records=(
        "inventory.location",
        "inventory.transfer",
        "inventory.alert",
        "inventory.serial",
        "inventory.lot",
        "inventory.purchase_order",
    ),
    seeders=(demo.seed_inventory,),
    position=60,
    title="Inventory",
)
