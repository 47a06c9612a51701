"""Operations in depth sync: a return authorised and received offline reaches the platform once."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Platform, applied_once, ids_where, offline, row


def test_a_return_made_offline(platform: Platform, pair: Any) -> None:
    a, b = pair
    shipped = ids_where(a, "fulfillment_orders", 1, status="shipped")[0]
    order = a.do("fulfillment.orders.get", id=shipped)
    line = order.lines[0]
    with offline(a):
        ret = a.do("fulfillment.returns.create", id=shipped,
                   body={"lines": [{"sku": line.sku, "quantity": 1}], "reason": "too small"})  # fmt: skip
        a.do("fulfillment.returns.receive", id=ret.id,
             body={"items": [{"code": line.sku, "condition": "damaged"}]})  # fmt: skip
    applied_once(platform, a, b, [
        row("fulfillment_returns", ret.id, status="received", rma_number=ret.rma_number),
    ], also=("inventory_movements", "inventory_stock", "inventory_locations"))  # fmt: skip
