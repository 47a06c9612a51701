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


def test_a_batch_picked_offline(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        batch = a.do("fulfillment.batches.create", body={"next": 2})
        for ln in batch.lines:
            for _ in range(ln.quantity):
                body = {"operation": "pick", "location": ln.location_code, "code": ln.sku}
                if ln.location_code is None:
                    body.pop("location")
                last = a.do("fulfillment.batches.operate", id=batch.id, body=body)
    assert last.status == "picked"
    applied_once(platform, a, b, [
        row("fulfillment_batches", batch.id, status="picked", batch_number=batch.batch_number),
        *(row("fulfillment_batch_lines", ln.id, position=ln.position) for ln in batch.lines),
    ], also=("fulfillment_batch_orders", "fulfillment_orders", "inventory_stock"))  # fmt: skip


def test_a_serial_shipped_offline_on_a_single_order(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        got = a.do("inventory.serials.receive", body={"sku": "HDP-USB-C", "location_id": "MAIN", "serials": ["OFF-1"]})
        o = a.do(
            "fulfillment.orders.create", body={"customer_name": "Ann", "lines": [{"sku": "HDP-USB-C", "quantity": 1}]}
        )
        a.do("fulfillment.orders.operate", id=o.id,
             body={"operation": "pick", "items": [{"code": "HDP-USB-C"}]})  # fmt: skip
        a.do("fulfillment.orders.operate", id=o.id, body={"operation": "pack", "box": "S"})
        a.do("fulfillment.orders.operate", id=o.id,
             body={"operation": "ship", "units": [{"code": "HDP-USB-C", "serial": "off-1"}]})  # fmt: skip
    # The platform's replay ships the same unit: the serial is shipped under the order there too.
    applied_once(platform, a, b, [
        row("fulfillment_orders", o.id, status="shipped"),
        row("inventory_serials", got.serials[0].id, status="shipped", reference=o.order_number),
    ], also=("inventory_movements", "inventory_stock", "fulfillment_order_lines", "fulfillment_labels"))  # fmt: skip
