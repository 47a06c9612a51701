"""Aftersale: customer accounts, public warranty registration with coverage, claims (docs/aftersale.md)."""

from services.aftersale import demo, events, service  # noqa: F401 - declarations, event types, demo seeders
