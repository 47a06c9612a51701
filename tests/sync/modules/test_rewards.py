"""Rewards syncs: a product made and changed, points given and a dealer decided offline; an order
cancelled on one station and shipped on the other."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Move, Platform, applied_once, conflict, ids_where, offline, row


def test_rewards(platform: Platform, pair: Any) -> None:
    a, b = pair
    dealer = ids_where(a, "rewards_dealers", 1, status="approved")[0]
    [request] = ids_where(a, "rewards_dealers", 1, status="pending")
    [order] = ids_where(a, "rewards_orders", 1, status="ordered")
    with offline(a):
        p = a.do("rewards.admin.products.create", body={"name": "Sync mug", "points": 300, "stock": 4})
        a.do("rewards.admin.products.update", id=p.id, body={"name": "Sync mug XL", "points": 350, "stock": 4})
        a.do("rewards.admin.points.adjust", id=dealer, body={"points": 120, "reason": "fair", "expires_in_days": 30})
        a.do("rewards.admin.register_requests.decide", id=request, body={"action": "approve"})
    applied_once(platform, a, b, [
        row("rewards_products", p.id, name="Sync mug XL", points=350),
        row("rewards_dealers", request, status="approved"),
    ], also=("rewards_ledger", "rewards_lots", "rewards_allocations"))  # fmt: skip
    conflict(
        platform, a, b,
        theirs=Move("rewards.admin.orders.act", {"id": order}, {"action": "cancel", "reason": "out of stock"}),
        mine=Move("rewards.admin.orders.act", {"id": order}, {"action": "ship"}),
        state=row("rewards_orders", order, status="cancelled"),
        current="cancelled",
        behind=lambda s: row("rewards_products", p.id, name="Sync mug XL"),
    )  # fmt: skip
