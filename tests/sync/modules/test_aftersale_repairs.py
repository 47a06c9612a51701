"""A repair order made offline reaches the platform once, with the parts it took from stock:
the same movements on the platform (by the station's ids), none added when the queue is sent again."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Platform, applied_once, ids_where, offline, row


def test_a_repair_made_offline(platform: Platform, pair: Any) -> None:
    a, b = pair
    [opened] = ids_where(a, "aftersale_claims", 1, status="open")
    with offline(a):
        ro = a.do("aftersale.repairs.create", id=opened, body={"note": "by post"})
        a.do("aftersale.repairs.act", id=ro.id, body={"action": "diagnose", "diagnosis": "seam open"})
        done = a.do("aftersale.repairs.act", id=ro.id, body={
            "action": "repair", "parts": [{"sku": "PEN-GEL-BLU", "quantity": 2}], "location": "MAIN"})  # fmt: skip
    [part] = done.parts
    applied_once(platform, a, b, [
        row("aftersale_repairs", ro.id, status="repaired", number=ro.number),
        row("aftersale_claims", opened, status="in_progress"),
        row("inventory_movements", part.movement_id, sku="PEN-GEL-BLU", quantity=2),
    ], also=("inventory_stock",))  # fmt: skip
