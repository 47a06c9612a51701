"""Demo content of Rewards (CONTRACT.md): an approved dealer with points, receipts pending and
reviewed, a pending registration request, a catalog and a redemption order. Deterministic ids."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path
from typing import Any

from local_db.models.rewards import (
    RewardsDealer,
    RewardsEarningRule,
    RewardsFile,
    RewardsOrder,
    RewardsProduct,
    RewardsReceipt,
    RewardsTier,
)
from services.core import auth
from services.core.commands import next_value
from services.core.context import Ctx
from services.core.demo import DEMO_PASSWORD, demo_id, demo_seeder
from services.core.storage import store_blob
from services.rewards import points as ledger

DEALERS = (
    # key, email, name, company, status
    ("north", "dealer@demo.test", "Dana North", "North Side Tools", "approved"),
    ("east", "east@demo.test", "Eli East", "Eastgate Supply", "approved"),
    ("new", "newdealer@demo.test", "Noor New", "New Leaf Hardware", "pending"),
)
PRODUCTS = (
    ("mug", "Branded mug", "Stoneware, 350 ml", 500, 40),
    ("jacket", "Work jacket", "Waterproof, sizes S-XXL", 6000, 12),
    ("drill", "Cordless drill", "18 V with two batteries", 15000, 5),
    ("gift", "Gift card $25", "Sent by e-mail", 2500, 100),
)
RECEIPTS = (
    # key, dealer, retailer, days ago, total cents, approve with points (None: pending)
    ("r1", "north", "BuildMart Main St", 20, 48900, 4890),
    ("r2", "north", "ProHardware Depot", 9, 125000, 12500),
    ("r3", "north", "BuildMart Main St", 2, 23450, None),
    ("r4", "east", "Eastgate Counter", 3, 8999, None),
    ("r5", "east", "ToolTown", 1, 310000, None),
)


def receipt_image(lines: list[str]) -> bytes:
    """A small receipt picture (so the review screen has something to zoom)."""
    from PIL import Image, ImageDraw, ImageFont

    import resources

    img = Image.new("RGB", (360, 520), "white")
    draw = ImageDraw.Draw(img)
    try:
        font: Any = ImageFont.truetype(str(Path(resources.__file__).parent / "fonts" / "DejaVuSans.ttf"), 20)
    except OSError:
        font = ImageFont.load_default()
    y = 24
    for line in lines:
        draw.text((24, y), line, fill="black", font=font)
        y += 34
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


TIERS = (
    # key, name, points earned over the tier period, multiplier, benefits
    ("bronze", "Bronze", 0, "1", "Points on every approved receipt"),
    ("silver", "Silver", 20000, "1.25", "25 % more points; free shipping on redemptions"),
    ("gold", "Gold", 50000, "1.5", "50 % more points; a named account manager"),
)


@demo_seeder
def seed_rewards(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    pw: str | None = None
    with ctx.write() as s:
        for key, email, name, company, status in DEALERS:
            did = demo_id("rewards-dealer", key)
            if s.get(RewardsDealer, did) is None:
                pw = pw or auth.hash_password(DEMO_PASSWORD)
                s.add(
                    RewardsDealer(
                        id=did,
                        email=email,
                        name=name,
                        company=company,
                        status=status,
                        password_hash=pw,
                        address={
                            "line1": "1 Demo Street",
                            "city": "Springfield",
                            "state": "IL",
                            "postal_code": "62701",
                            "country": "US",
                        },
                        balance=0,
                        token_version=0,
                        created_at=now - timedelta(days=40),
                        updated_at=now,
                        decided_at=now - timedelta(days=39) if status == "approved" else None,
                    )
                )
        for key, name, desc, pts, stock in PRODUCTS:
            pid = demo_id("rewards-product", key)
            if s.get(RewardsProduct, pid) is None:
                s.add(
                    RewardsProduct(
                        id=pid,
                        name=name,
                        description=desc,
                        points=pts,
                        stock=stock,
                        active=True,
                        # The gift card issues a code per unit at checkout (docs/rewards.md).
                        kind="gift_card" if key == "gift" else "goods",
                        face_value_cents=2500 if key == "gift" else None,
                        created_at=now,
                        updated_at=now,
                    )
                )
        # Tiers above North's 17,390 points of the last year (it stays at Bronze: x1), and a
        # standing rule for the drill's product code (receipts with lines earn it).
        for key, name, threshold, mult, benefits in TIERS:
            tid = demo_id("rewards-tier", key)
            if s.get(RewardsTier, tid) is None:
                s.add(
                    RewardsTier(
                        id=tid,
                        name=name,
                        threshold=threshold,
                        multiplier=mult,
                        benefits=benefits,
                        created_at=now,
                        updated_at=now,
                    )
                )
        rid = demo_id("rewards-rule", "drills")
        if s.get(RewardsEarningRule, rid) is None:
            s.add(
                RewardsEarningRule(
                    id=rid,
                    name="Cordless drills",
                    product_code="DRL-18",
                    points_per_dollar=20,
                    created_at=now,
                    updated_at=now,
                )
            )
        s.flush()
        for key, dealer, retailer, days, cents, _pts in RECEIPTS:
            rid = demo_id("rewards-receipt", key)
            if s.get(RewardsReceipt, rid) is not None:
                continue
            day = (now - timedelta(days=days)).date()
            blob = store_blob(
                ctx, receipt_image([retailer, str(day), "", "Item   Qty   Amount", f"TOTAL  ${cents / 100:.2f}"])
            )
            fid = demo_id("rewards-file", key)
            s.add(
                RewardsFile(
                    id=fid,
                    dealer_id=demo_id("rewards-dealer", dealer),
                    filename=f"{key}.png",
                    content_type=blob.content_type,
                    size=blob.size,
                    sha256=blob.sha256,
                    created_at=now,
                )
            )
            s.add(
                RewardsReceipt(
                    id=rid,
                    dealer_id=demo_id("rewards-dealer", dealer),
                    file_id=fid,
                    retailer=retailer,
                    purchase_date=day,
                    total_cents=cents,
                    status="pending",
                    created_at=now - timedelta(days=days),
                    updated_at=now,
                )
            )
    # Reviews and a redemption written through the ledger directly (no events: the demo's event
    # history stays the modules' own), the same rows the use cases write.
    with ctx.write() as s:
        for key, dealer, retailer, _d, _c, award in RECEIPTS:
            r = s.get(RewardsReceipt, demo_id("rewards-receipt", key))
            if award is None or r is None or r.status != "pending":
                continue
            d = ledger.lock_dealer(s, demo_id("rewards-dealer", dealer))
            r.status, r.points, r.reviewed_at, r.updated_at = "approved", award, now, now
            ledger.award(
                ctx,
                s,
                d,
                award,
                kind="earn",
                source="receipt",
                source_id=r.id,
                description=f"receipt {retailer} {r.purchase_date}",
                expires_in_days=None,
            )
        oid = demo_id("rewards-order", "north-1")
        mug = s.get(RewardsProduct, demo_id("rewards-product", "mug"))
        if s.get(RewardsOrder, oid) is None and mug is not None:
            d = ledger.lock_dealer(s, demo_id("rewards-dealer", "north"))
            number = f"RD-{now.year}-{next_value(ctx, ctx.tenant_id, 'rewards.order'):06d}"
            total = mug.points * 2
            e = ledger.spend(ctx, s, d, total, kind="redeem", source="order", source_id=oid, description=number)
            mug.stock -= 2
            s.add(
                RewardsOrder(
                    id=oid,
                    number=number,
                    dealer_id=d.id,
                    status="ordered",
                    lines=[{"product_id": mug.id, "name": mug.name, "points": mug.points, "quantity": 2}],
                    total_points=total,
                    value_cents=ledger.value_cents(total, ledger.settings(s, ctx.tenant_id).point_value),
                    shipping_address={"line1": "1 Demo Street", "city": "Springfield", "country": "US"},
                    redeem_entry_id=e.id,
                    created_at=now,
                    updated_at=now,
                )
            )
