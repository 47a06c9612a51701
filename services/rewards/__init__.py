"""Rewards: dealers earn points from reviewed receipts and redeem them from a catalog (docs/rewards.md)."""

from services.rewards import accounts, demo, events, service  # noqa: F401 - declarations, event types, demo seeders
