"""Rewards: dealers earn points from reviewed receipts and redeem them from a catalog (docs/rewards.md)."""

from services.core.modules import Module
from services.rewards import (  # noqa: F401 - declarations, event types, jobs and demo seeders register on import
    accounts,
    balances,
    cart,
    codes,
    demo,
    earning,
    events,
    expiry,
    files,
    orders,
    pages,
    products,
    receipts,
    tiers,
    w9,
)

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
        "sale.reversed",
        "dealer.tier_changed",
        "points.reminded",
        "points.expired",
        "reward_code.redeemed",
    ),
    records=("rewards.dealer", "rewards.receipt", "rewards.order", "rewards.product", "rewards.w9"),
    seeders=(demo.seed_rewards,),
    customer_auth=accounts.authenticate,
    position=30,
    title="Rewards",
)
