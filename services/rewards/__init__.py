"""Rewards: dealers earn points from reviewed receipts and redeem them from a catalog (docs/rewards.md)."""

from services.rewards import accounts, balances, cart, demo, events, files, orders, products, receipts, w9  # noqa: F401 - declarations, event types, demo seeders
