"""Demo orders: 30 in tenant ``demo`` across every state, 3 in ``other`` (CONTRACT.md).

Rows are written directly (no events, no outbox): demo content is a starting
point, not a history of operations. Item barcodes are EAN-13 in the GS1
restricted-circulation range 20-29 (for in-store use), so a newcomer can type
them from the screen.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from local_db.models.fulfillment import FulfillmentOrder, ShippingLabel
from services.core.context import Ctx
from services.core.demo import PRODUCTS, demo_id, demo_seeder, product_barcode
from services.fulfillment import orders, settings
from services.fulfillment.carriers import Package, get_carrier

DEMO_WEBHOOK_SECRET = "demo-webhook-secret-0123456789"

CUSTOMERS: list[tuple[str, str, str, str]] = [
    ("Ada Lovelace", "12 St James's Square", "London", "GB"),
    ("Grace Hopper", "1 Navy Way", "Arlington", "US"),
    ("Alan Turing", "78 High Street", "Wilmslow", "GB"),
    ("Hedy Lamarr", "Stubenring 2", "Wien", "AT"),
    ("Katherine Johnson", "100 NASA Rd", "Hampton", "US"),
    ("Linus Pauling", "2500 Oregon Ave", "Portland", "US"),
]

# (state, count) in tenant demo: 30 orders.
PLAN: list[tuple[str, int]] = [
    ("pending", 14),
    ("picked", 4),
    ("packed", 4),
    ("shipped", 4),
    ("delivered", 2),
    ("cancelled", 2),
]


@demo_seeder
def seed_fulfillment(ctx: Ctx) -> None:
    assert ctx.tenant is not None
    slug = ctx.tenant.slug
    plan = PLAN if slug == "demo" else [("pending", 2), ("shipped", 1)]
    with ctx.write() as s:
        if s.get(FulfillmentOrder, demo_id("fulfillment-order", slug, "0")) is not None:
            return
        if slug == "demo":
            settings.set_webhook_secret(s, ctx.tenant_id, DEMO_WEBHOOK_SECRET, ctx.runtime.secret_key)
        now = ctx.now()
        n = 0
        for state, count in plan:
            for _ in range(count):
                # Oldest first, two hours apart, the newest a few hours ago.
                _seed_order(ctx, s, slug, n, state, now - timedelta(hours=2 * (40 - n)))
                n += 1


def _seed_order(ctx: Ctx, s: Session, slug: str, n: int, state: str, created: datetime) -> None:
    name, street, city, country = CUSTOMERS[n % len(CUSTOMERS)]
    lines = []
    for k in range(1 + n % 3):
        p = (n * 3 + k * 7) % len(PRODUCTS)
        sku, title = PRODUCTS[p]
        lines.append(
            {
                "id": demo_id("fulfillment-line", slug, str(n), str(k)),
                "sku": sku,
                "barcode": product_barcode(p),
                "name": title,
                "quantity": 1 + (n + k) % 2,
            }
        )
    done = state in ("picked", "packed", "shipped", "delivered")
    for ln in lines:
        ln["picked_quantity"] = ln["quantity"] if done else 0
    o = orders.add_order(
        ctx,
        s,
        lines=lines,
        id=demo_id("fulfillment-order", slug, str(n)),
        created_at=created,
        source="demo",
        customer_name=name,
        customer_email=f"{name.split()[0].lower()}@example.com",
        shipping_address={"name": name, "address1": street, "city": city, "country": country},
    )
    step = timedelta(minutes=20)
    o.status = state
    if done:
        o.picked_at = created + step
    if state in ("packed", "shipped", "delivered"):
        o.packed_at, o.box, o.weight_grams = created + 2 * step, "M", 400 + 150 * len(lines)
    if state in ("shipped", "delivered"):
        carrier = get_carrier(None)
        sh = carrier.create_shipment(ctx, Package(o.order_number, o.box, o.weight_grams, o.shipping_address))
        label_id = demo_id("fulfillment-label", slug, str(n))
        s.add(
            ShippingLabel(
                id=label_id,
                order_id=o.id,
                carrier=sh.carrier,
                tracking_number=sh.tracking_number,
                title=carrier.name.upper(),
                lines=orders._label_lines(ctx, o),
                created_at=created + 3 * step,
            )
        )
        o.carrier, o.tracking_number, o.label_id = sh.carrier, sh.tracking_number, label_id
        o.shipped_at = created + 3 * step
    if state == "delivered":
        o.delivered_at, o.carrier_status = created + timedelta(days=1), "delivered"
    if state == "cancelled":
        o.cancelled_at, o.cancel_reason = created + step, "customer asked to cancel"
    o.updated_at = created + 3 * step
    s.flush()
