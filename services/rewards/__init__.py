"""Rewards: dealers earn points from reviewed receipts and redeem them from a catalog (docs/rewards.md)."""

from services.core.modules import Module
from services.rewards import accounts, balances, cart, demo, events, files, orders, pages, products, receipts, w9  # noqa: F401 - declarations, event types and demo seeders register on import

MODULE = Module(
    name="rewards",
    events=(
        "sale.recorded",
        "sale.approved",
        "redemption.created",
        "sale.declined",
        "dealer.requested",
        "dealer.approved",
        "redemption.shipped",
        "redemption.delivered",
        "redemption.cancelled",
    ),
    records=("rewards.dealer", "rewards.receipt", "rewards.order", "rewards.product", "rewards.w9"),
    seeders=(demo.seed_rewards,),
    customer_auth=accounts.authenticate,
    position=30,
)
