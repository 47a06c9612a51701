"""Inventory: items, locations, stock per location, movements, transfers, alert rules and alerts."""

from services.inventory import events, service  # noqa: F401 - declarations and event types
