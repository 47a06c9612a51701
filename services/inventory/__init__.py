"""Inventory: items, locations, stock per location, movements, transfers, alert rules and alerts."""

from services.inventory import (  # noqa: F401 - declarations and event types
    alerts,
    events,
    items,
    locations,
    movements,
    stock_levels,
    transfers,
)
