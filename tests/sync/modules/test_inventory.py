"""Inventory syncs: an item, a stock count, a transfer shipped and a lot received offline; a transfer moved twice."""

from __future__ import annotations

from typing import Any

from services.core.demo import demo_id
from tests.sync.modules.kit import Move, Platform, applied_once, conflict, offline, row, sync_a_then_b

MAIN = demo_id("inventory-location", "demo", "MAIN")
STORE = demo_id("inventory-location", "demo", "STORE")


def _transfer(s: Any, sku: str) -> Any:
    body = {"from_location_id": MAIN, "to_location_id": STORE, "lines": [{"sku": sku, "quantity": 1}]}
    return s.do("inventory.transfers.create", body=body)


def test_inventory(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        item = a.do("inventory.items.create", body={"sku": "SYNC-INV-1", "name": "Sync crate"})
        counted = a.do("inventory.stock.adjust", body={"sku": "SYNC-INV-1", "location_id": MAIN, "counted": 40})
        a.do("inventory.stock.adjust", body={"sku": "SYNC-INV-1", "location_id": MAIN, "delta": -2})
        t = _transfer(a, "SYNC-INV-1")
        a.do("inventory.transfers.update", id=t.id, body={"status": "in_transit"})
        a.do("inventory.items.create", body={"sku": "SYNC-LOT-1", "tracking": "lot"})
        lot = a.do("inventory.lots.receive", body={"sku": "SYNC-LOT-1", "code": "B-7", "expires_on": "2027-01-31",
                                                   "location_id": MAIN, "quantity": 5})  # fmt: skip
    applied_once(platform, a, b, [
        row("inventory_items", item.id, sku="SYNC-INV-1", name="Sync crate"),
        row("inventory_lots", lot.id, code="B7", sku="SYNC-LOT-1"),
        row("inventory_movements", counted.movement_id, quantity=40),
        row("inventory_transfers", t.id, status="in_transit"),
    ], also=("inventory_movements", "inventory_stock", "inventory_lot_stock", "inventory_items"))  # fmt: skip
    t2 = _transfer(a, "SYNC-INV-1")
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("inventory.transfers.update", {"id": t2.id}, {"status": "cancelled"}),
        mine=Move("inventory.transfers.update", {"id": t2.id}, {"status": "in_transit"}),
        state=row("inventory_transfers", t2.id, status="cancelled"),
        current="cancelled",
        behind=lambda s: row("inventory_items", s.do("inventory.items.create", body={"sku": "SYNC-INV-2"}).id),
    )  # fmt: skip
