"""Demo stock (CONTRACT.md): the fulfillment demo's items in two locations, a transfer in transit,
a draft one and an open low-stock alert.

Rows are written directly with deterministic ids (a seeded station and a seeded
platform agree), each stock row with the receipt movement it came from, so the
movements add up from the start. No events: demo content is a starting point.
"""

from __future__ import annotations

from datetime import timedelta

from local_db.models.inventory import (
    InventoryAlert,
    InventoryAlertRule,
    InventoryItem,
    InventoryLocation,
    InventoryMovement,
    InventoryStock,
    InventoryTransfer,
)
from services.core.context import Ctx
from services.core.demo import PRODUCTS, demo_id, demo_seeder, product_barcode

# code, name, kind
LOCATIONS = [
    ("MAIN", "Main warehouse", "internal"),
    ("STORE", "Shop floor", "internal"),
    ("TRANSIT", "In transit", "transit"),
    ("LOSS", "Damaged and lost", "loss"),
]
# On hand per product (PRODUCTS order) at MAIN and at STORE.
MAIN_QTY = [40, 25, 60, 18, 30, 12, 50, 120, 35, 2]
STORE_QTY = [6, 4, 10, 0, 8, 3, 0, 24, 5, 0]
LOW_SKU = "HDP-USB-C"  # 2 at MAIN, under its threshold of 5: the open alert


def location_id(slug: str, code: str) -> str:
    return demo_id("inventory-location", slug, code)


@demo_seeder
def seed_inventory(ctx: Ctx) -> None:
    assert ctx.tenant is not None
    slug = ctx.tenant.slug
    with ctx.write() as s:
        if s.get(InventoryLocation, location_id(slug, "MAIN")) is not None:
            return
        now = ctx.now()
        start = now - timedelta(days=7)
        locations = LOCATIONS if slug == "demo" else LOCATIONS[:1]
        for i, (code, name, kind) in enumerate(locations):
            # created_at in list order: MAIN is the first internal location (where shipments leave from).
            s.add(
                InventoryLocation(
                    id=location_id(slug, code),
                    code=code,
                    name=name,
                    kind=kind,
                    allow_negative=False,
                    created_at=start + timedelta(seconds=i),
                )
            )
        products = PRODUCTS if slug == "demo" else PRODUCTS[:2]
        for p, (sku, title) in enumerate(products):
            s.add(
                InventoryItem(
                    id=demo_id("inventory-item", slug, sku),
                    sku=sku,
                    barcode=product_barcode(p),
                    name=title,
                    created_at=start,
                )
            )
            for code, qty in (("MAIN", MAIN_QTY[p]), ("STORE", STORE_QTY[p])):
                if code == "STORE" and slug != "demo":
                    continue
                loc = location_id(slug, code)
                s.add(
                    InventoryStock(
                        id=demo_id("inventory-stock", slug, code, sku),
                        sku=sku,
                        location_id=loc,
                        quantity=qty,
                        reserved=0,
                        updated_at=start,
                    )
                )
                if qty:
                    s.add(
                        InventoryMovement(
                            id=demo_id("inventory-movement", slug, code, sku),
                            sku=sku,
                            from_location_id=None,
                            to_location_id=loc,
                            quantity=qty,
                            kind="receipt",
                            reference="opening stock",
                            reason=None,
                            actor=None,
                            at=start,
                        )
                    )
        if slug != "demo":
            return
        main, store, transit = (location_id(slug, c) for c in ("MAIN", "STORE", "TRANSIT"))
        # In transit: 5 mugs left MAIN for the shop floor (MAIN's 60 already net of them).
        moving = [{"sku": "MUG-CER-01", "quantity": 5}]
        shipped = now - timedelta(hours=3)
        s.add(
            InventoryTransfer(
                id=demo_id("inventory-transfer", slug, "1"),
                from_location_id=main,
                to_location_id=store,
                transit_location_id=transit,
                lines=moving,
                status="in_transit",
                note="weekly top-up",
                created_at=shipped - timedelta(hours=1),
                updated_at=shipped,
                shipped_at=shipped,
            )
        )
        s.add(
            InventoryMovement(
                id=demo_id("inventory-movement", slug, "MAIN", "MUG-CER-01", "in"),
                sku="MUG-CER-01",
                from_location_id=None,
                to_location_id=main,
                quantity=5,
                kind="receipt",
                reference="opening stock",
                at=start,
            )
        )
        s.add(
            InventoryMovement(
                id=demo_id("inventory-movement", slug, "transfer-1"),
                sku="MUG-CER-01",
                from_location_id=main,
                to_location_id=transit,
                quantity=5,
                kind="transfer",
                reference=f"transfer {demo_id('inventory-transfer', slug, '1')}",
                at=shipped,
            )
        )
        s.add(
            InventoryStock(
                id=demo_id("inventory-stock", slug, "TRANSIT", "MUG-CER-01"),
                sku="MUG-CER-01",
                location_id=transit,
                quantity=5,
                reserved=0,
                updated_at=shipped,
            )
        )
        s.add(
            InventoryTransfer(
                id=demo_id("inventory-transfer", slug, "2"),
                from_location_id=main,
                to_location_id=store,
                lines=[{"sku": "CAP-NVY", "quantity": 4}, {"sku": "NTB-A5-DOT", "quantity": 10}],
                status="draft",
                note="caps and notebooks for the window display",
                created_at=now - timedelta(hours=1),
                updated_at=now - timedelta(hours=1),
            )
        )
        rule = demo_id("inventory-rule", slug, LOW_SKU)
        s.add(InventoryAlertRule(id=rule, sku=LOW_SKU, location_id=main, threshold=5, origin="rule", created_at=start))
        s.add(
            InventoryAlertRule(
                id=demo_id("inventory-rule", slug, "PEN-GEL-BLU"),
                sku="PEN-GEL-BLU",
                location_id=None,
                threshold=50,
                origin="rule",
                created_at=start,
            )
        )
        s.add(
            InventoryAlert(
                id=demo_id("inventory-alert", slug, LOW_SKU),
                rule_id=rule,
                sku=LOW_SKU,
                location_id=main,
                threshold=5,
                available=2,
                state="open",
                reason="below the threshold",
                opened_at=now - timedelta(hours=5),
            )
        )
