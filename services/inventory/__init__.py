"""Inventory: items, locations, stock per location, movements, transfers, alert rules and alerts."""

from services.core.declaring import declare_defaults
from services.core.roles import ANYONE

# Stock is counted, moved and scanned by everyone with the module, warehouse devices included.
declare_defaults("inventory", roles=ANYONE)

from services.inventory import (  # noqa: E402, F401 - after the defaults its declarations read
    alerts,
    events,
    items,
    locations,
    movements,
    stock_levels,
    transfers,
)
