"""Demo trade-ins: valuations, two customers and ten submissions across the states (CONTRACT.md).

Deterministic ids (``demo_id``) and fixed kit barcodes (``KIT-DEMO0000NN``), so a
seeded station and a seeded platform agree and the guide can name them.
"""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

from local_db.models.upgrade import (
    UpgradeCustomer,
    UpgradeInspection,
    UpgradeOffer,
    UpgradePhoto,
    UpgradeShipment,
    UpgradeSubmission,
    UpgradeValuation,
)
from services.core.auth import hash_password
from services.core.context import Ctx
from services.core.demo import DEMO_PASSWORD, demo_id, demo_seeder
from services.core.storage import store_blob
from services.upgrade import grading
from services.upgrade.photos import make_thumbnail

VALUATIONS = [
    ("IPH14-128", "iPhone 14 128 GB", 42000),
    ("IPH13-128", "iPhone 13 128 GB", 30000),
    ("SGS23-256", "Galaxy S23 256 GB", 36000),
    ("PIX8-128", "Pixel 8 128 GB", 33000),
    ("IPADAIR5-64", "iPad Air (5th gen) 64 GB", 28000),
    ("MBA-M2-256", "MacBook Air M2 256 GB", 65000),
]
CUSTOMERS: list[tuple[str, str, str | None, dict[str, str]]] = [
    (
        "customer@demo.test",
        "Casey Customer",
        "+1 555 0100",
        {"line1": "12 Harbour Road", "line2": "", "city": "Springfield", "postal_code": "12345", "country": "US"},
    ),
    (
        "dana@demo.test",
        "Dana Devlin",
        "+1 555 0101",
        {"line1": "7 Elm Street", "line2": "Apt 3", "city": "Shelbyville", "postal_code": "12346", "country": "US"},
    ),
]
# n, customer, product, serial, declared, status, graded (inspected/completed)
SUBMISSIONS = [
    (1, 0, "PIX8-128", "PX8DEMO0001", "good", "draft", None),
    (2, 0, "IPH13-128", "IP13DEMO0002", "good", "submitted", None),
    (3, 1, "IPADAIR5-64", "IPADDEMO0003", "poor", "declined", None),
    (4, 0, "IPADAIR5-64", "IPADDEMO0004", "excellent", "offered", None),
    (5, 1, "IPH14-128", "IP14DEMO0005", "good", "accepted", None),
    (6, 0, "MBA-M2-256", "MBADEMO0006", "excellent", "shipped", None),
    (7, 1, "IPH14-128", "IP14DEMO0007", "excellent", "shipped", None),
    (8, 0, "IPH13-128", "IP13DEMO0008", "excellent", "received", None),
    (9, 1, "SGS23-256", "S23DEMO0009", "excellent", "inspected", "fair"),
    (10, 0, "PIX8-128", "PX8DEMO0010", "good", "completed", "good"),
]
ORDER = ("draft", "submitted", "offered", "accepted", "shipped", "received", "inspected", "completed")
GOOD_CHECKLIST: dict[str, Any] = {
    "power_on": True,
    "screen": "light_scratches",
    "body": "light_wear",
    "functions": True,
    "battery_health": 82,
    "account_lock_removed": True,
    "data_wiped": True,
    "accessories": True,
}
FAIR_CHECKLIST: dict[str, Any] = {**GOOD_CHECKLIST, "screen": "deep_scratches", "battery_health": 71}


def kit_barcode(n: int) -> str:
    return f"KIT-DEMO{n:06d}"


def _photo_bytes(label: str, hue: int) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (480, 360), ((hue * 53) % 200 + 40, (hue * 97) % 200 + 40, (hue * 31) % 200 + 40))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((150, 40, 330, 320), radius=24, outline=(20, 20, 20), width=6, fill=(230, 230, 230))
    draw.text((170, 160), label, fill=(0, 0, 0))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def _seed(ctx: Ctx, slug: str) -> None:
    now = ctx.now()
    with ctx.write() as s:
        if s.get(UpgradeCustomer, demo_id("upgrade", slug, "customer", "0")) is not None:
            return
        pw = hash_password(DEMO_PASSWORD)  # one hash for every demo customer (argon2 is slow on purpose)
        vals = {}
        for pid, name, cents in VALUATIONS if slug == "demo" else VALUATIONS[:2]:
            v = UpgradeValuation(
                id=demo_id("upgrade", slug, "valuation", pid),
                product_id=pid,
                product_name=name,
                base_cents=cents,
                currency="USD",
                created_at=now,
                updated_at=now,
            )
            s.add(v)
            vals[pid] = v
        custs = []
        people = CUSTOMERS if slug == "demo" else [("someone@other.test", "Sam Other", None, {})]  # type: ignore[list-item]
        for i, (email, name, phone, addr) in enumerate(people):
            c = UpgradeCustomer(
                id=demo_id("upgrade", slug, "customer", str(i)),
                email=email,
                name=name,
                phone=phone,
                password_hash=pw,
                address=addr,
                token_version=0,
                created_at=now - timedelta(days=40),
                updated_at=now - timedelta(days=40),
            )
            s.add(c)
            custs.append(c)
        s.flush()
        rows = SUBMISSIONS if slug == "demo" else [(1, 0, "IPH14-128", "OTHERSN0001", "good", "submitted", None)]
        for n, ci, pid, serial, declared, status, graded in rows:
            _submission(ctx, s, slug, n, custs[ci], vals[pid], serial, declared, status, graded, now)


def _submission(
    ctx: Ctx,
    s: Any,
    slug: str,
    n: int,
    c: UpgradeCustomer,
    v: UpgradeValuation,
    serial: str,
    declared: str,
    status: str,
    graded: str | None,
    now: Any,
) -> None:
    def sid(*parts: str) -> str:
        return demo_id("upgrade", slug, "submission", str(n), *parts)

    created = now - timedelta(days=30 - n * 2)
    step = ORDER.index(status) if status in ORDER else 2  # declined: after the offer
    photos = []
    if status != "draft":
        for k, label in enumerate(("front", "back")):
            content = _photo_bytes(f"{v.product_name}\n{label}", n * 2 + k)
            blob = store_blob(ctx, content)
            pid = sid("photo", label)
            s.add(
                UpgradePhoto(
                    id=pid,
                    customer_id=c.id,
                    submission_id=sid(),
                    filename=f"{label}.png",
                    content_type=blob.content_type,
                    size=blob.size,
                    sha256=blob.sha256,
                    thumbnail=make_thumbnail(content),
                    created_at=created,
                )
            )
            photos.append(pid)
    sub = UpgradeSubmission(
        id=sid(),
        customer_id=c.id,
        product_id=v.product_id,
        serial_number=serial,
        condition=declared,
        description=f"My {v.product_name}, {declared} condition.",
        photos=photos,
        status=status,
        created_at=created,
        updated_at=created + timedelta(days=1),
        submitted_at=created if step >= 1 else None,
        currency=v.currency if step >= 2 else None,
    )
    s.add(sub)
    s.flush()
    offered = grading.value_cents(v.base_cents, declared)
    if step >= 2:
        offer_status = {"offered": "pending", "declined": "declined"}.get(status, "accepted")
        s.add(
            UpgradeOffer(
                id=sid("offer"),
                submission_id=sub.id,
                kind="initial",
                amount_cents=offered,
                currency=v.currency,
                notes="Thank you for trading in.",
                reasons=[],
                photos=[],
                expires_at=now + timedelta(days=14),
                status=offer_status,
                created_at=created,
                decided_at=None if offer_status == "pending" else created + timedelta(hours=5),
            )
        )
    if step >= 2 and status not in ("offered", "declined"):
        sub.accepted_at = created + timedelta(hours=5)  # the offer's decided_at
    if status == "declined":
        sub.decline_reason = "the customer declined the initial offer"
    if step >= 4:
        s.add(
            UpgradeShipment(
                id=sid("kit"),
                submission_id=sub.id,
                kind="kit",
                barcode=kit_barcode(n),
                created_at=created + timedelta(days=1),
            )
        )
    if step >= 5:
        sub.received_at = created + timedelta(days=4)
    if graded is not None:
        checklist = FAIR_CHECKLIST if graded == "fair" else GOOD_CHECKLIST
        suggested, reasons = grading.assess(checklist)
        graded_cents = grading.value_cents(v.base_cents, graded)
        why = ([f"graded {graded}, declared {declared}"] if graded != declared else []) + reasons
        sub.graded_condition = graded
        s.add(
            UpgradeInspection(
                id=sid("inspection"),
                submission_id=sub.id,
                status="completed",
                inspector_id=demo_id("user", "operator@demo.test"),
                inspector_name="Omar Operator",
                checklist=checklist,
                suggested_condition=suggested,
                graded_condition=graded,
                graded_cents=graded_cents,
                reasons=why,
                notes="",
                photos=[],
                started_at=created + timedelta(days=5),
                completed_at=created + timedelta(days=5),
            )
        )
        if status == "inspected":
            s.add(
                UpgradeOffer(
                    id=sid("revised"),
                    submission_id=sub.id,
                    kind="revised",
                    amount_cents=graded_cents,
                    currency=v.currency,
                    notes="",
                    reasons=why,
                    photos=[],
                    expires_at=now + timedelta(days=7),
                    status="pending",
                    created_at=created + timedelta(days=5),
                )
            )
        else:
            sub.credit_cents = offered
            sub.completed_at = created + timedelta(days=5)


@demo_seeder
def seed_upgrade(ctx: Ctx) -> None:
    if ctx.tenant is not None:
        _seed(ctx, ctx.tenant.slug)
