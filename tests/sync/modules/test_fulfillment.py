"""Fulfillment syncs: orders packed and shipped and the device settings changed offline; an order
shipped on one station and cancelled on the other."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Move, Platform, applied_once, conflict, ids_where, offline, row


def test_fulfillment(platform: Platform, pair: Any) -> None:
    a, b = pair
    picked = ids_where(a, "fulfillment_orders", 1, status="picked")[0]
    packed, contested = ids_where(a, "fulfillment_orders", 2, status="packed")
    with offline(a):
        a.do("fulfillment.orders.operate", id=picked, body={"operation": "pack", "box": "M", "weight_grams": 900})
        a.do("fulfillment.orders.operate", id=packed, body={"operation": "ship"})
        a.do("fulfillment.settings.device.put", body={"printer": "dock-2", "sounds": False})
    applied_once(platform, a, b, [
        row("fulfillment_orders", picked, status="packed", box="M"),
        row("fulfillment_orders", packed, status="shipped"),
    ], also=("fulfillment_labels",))  # fmt: skip
    conflict(
        platform, a, b,
        theirs=Move("fulfillment.orders.operate", {"id": contested}, {"operation": "cancel"}),
        mine=Move("fulfillment.orders.operate", {"id": contested}, {"operation": "ship"}),
        state=row("fulfillment_orders", contested, status="cancelled"),
        current="cancelled",
        behind=lambda s: row("fulfillment_orders", picked, status="packed"),
    )  # fmt: skip
