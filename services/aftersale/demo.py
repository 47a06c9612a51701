"""Demo content of Aftersale (CONTRACT.md): a customer account, warranties (active and expired)
and claims in each state. Deterministic ids, so it is idempotent."""

from __future__ import annotations

from datetime import timedelta

from local_db.models.aftersale import AftersaleClaim, AftersaleCustomer, AftersaleWarranty
from services.aftersale.coverage import add_months
from services.aftersale.warranties import serial_key
from services.core import auth
from services.core.context import Ctx
from services.core.demo import DEMO_PASSWORD, demo_id, demo_seeder

CUSTOMER = ("customer@demo.test", "Casey Customer")
# key, serial, sku, product name, months, days since purchase, e-mail, name
WARRANTIES = (
    ("w1", "SN-TSH-000101", "TSH-BLK-M", "Organic cotton T-shirt", 12, 40, CUSTOMER[0], CUSTOMER[1]),
    ("w2", "SN-MUG-000202", "MUG-CER-01", "Ceramic mug", 24, 200, CUSTOMER[0], CUSTOMER[1]),
    ("w3", "SN-MUG-000303", "MUG-CER-01", "Ceramic mug", 24, 800, CUSTOMER[0], CUSTOMER[1]),
    ("w4", "SN-TSH-000404", "TSH-WHT-L", "Organic cotton T-shirt", 12, 90, "robin@example.com", "Robin Reed"),
    ("w5", "SN-MUG-000505", "MUG-CER-01", "Ceramic mug", 24, 15, "sam@example.com", "Sam Stone"),
)
# key, warranty, description, status, resolution
CLAIMS = (
    ("c1", "w1", "Seam came apart after the second wash.", "open", None),
    ("c2", "w2", "Glaze cracked near the handle.", "in_progress", None),
    ("c3", "w4", "Colour faded unevenly.", "closed", "Replacement sent."),
    ("c4", "w5", "Arrived chipped (filed by mistake, return instead).", "cancelled", None),
)


@demo_seeder
def seed_aftersale(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    with ctx.write() as s:
        cid = demo_id("aftersale-customer", CUSTOMER[0])
        if s.get(AftersaleCustomer, cid) is None:
            s.add(
                AftersaleCustomer(
                    id=cid,
                    email=CUSTOMER[0],
                    name=CUSTOMER[1],
                    password_hash=auth.hash_password(DEMO_PASSWORD),
                    token_version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
        for key, serial, sku, pname, months, days, email, name in WARRANTIES:
            wid = demo_id("aftersale-warranty", key)
            if s.get(AftersaleWarranty, wid) is not None:
                continue
            bought = (now - timedelta(days=days)).date()
            until = add_months(bought, months)
            active = until >= now.date()
            s.add(
                AftersaleWarranty(
                    id=wid,
                    serial_number=serial,
                    active_serial=serial_key(serial) if active else None,
                    product_sku=sku,
                    product_name=pname,
                    warranty_months=months,
                    purchase_date=bought,
                    coverage_until=until,
                    status="active" if active else "expired",
                    email=email,
                    name=name,
                    retailer="Demo Store",
                    created_at=now - timedelta(days=max(days - 3, 0)),
                )
            )
        s.flush()
        for key, wkey, desc, status, resolution in CLAIMS:
            clid = demo_id("aftersale-claim", key)
            if s.get(AftersaleClaim, clid) is not None:
                continue
            w = s.get(AftersaleWarranty, demo_id("aftersale-warranty", wkey))
            assert w is not None
            s.add(
                AftersaleClaim(
                    id=clid,
                    warranty_id=w.id,
                    customer_id=cid if w.email == CUSTOMER[0] else None,
                    email=w.email,
                    description=desc,
                    status=status,
                    resolution=resolution,
                    created_at=now - timedelta(days=2),
                    updated_at=now,
                )
            )
