"""The demo data set of CONTRACT.md, with deterministic identifiers.

A seeded station and a seeded platform hold the same records under the same
ids. Module packages add their demo content with ``demo_seeder``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from sqlalchemy import select

from local_db.base import IdPlan, id_plan
from local_db.models import Membership, Tenant, User
from services.core.auth import hash_password, tenant_info
from services.core.checkdigits import with_check_digit
from services.core.context import MODULES, SYSTEM, Ctx, Runtime

DEMO_PASSWORD = "demo-password"
_NS = uuid.UUID("6f1c1b9e-5d1a-4b53-9d55-2f7f4f5b8a10")


def demo_id(*parts: str) -> str:
    return str(uuid.uuid5(_NS, "/".join(parts)))


# The demo shop's products, which the orders (fulfillment) and the stock (inventory) both hold.
# Their barcodes are EAN-13 in the GS1 restricted-circulation range 20-29 (for in-store use).
PRODUCTS: list[tuple[str, str]] = [
    ("TSH-BLK-M", "T-shirt black M"),
    ("TSH-WHT-L", "T-shirt white L"),
    ("MUG-CER-01", "Ceramic mug"),
    ("CAP-NVY", "Baseball cap navy"),
    ("SCK-GRY-3P", "Socks grey 3-pack"),
    ("BTL-STL-750", "Steel bottle 750 ml"),
    ("NTB-A5-DOT", "Notebook A5 dotted"),
    ("PEN-GEL-BLU", "Gel pen blue"),
    ("BAG-TOTE", "Canvas tote bag"),
    ("HDP-USB-C", "USB-C headphones"),
]


def product_barcode(i: int) -> str:
    return with_check_digit(f"20000000{i + 1:04d}")


class DemoIds(IdPlan):
    """Every identifier a seeder makes without naming it (an audit entry, a ledger line written by
    the module's own code) derived from the seeder and its place in the seeder's order: a station
    and a platform seeded alike make the same rows under the same ids."""

    __slots__ = ("prefix",)

    def __init__(self, *prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def next(self) -> str:
        self.pos += 1
        return demo_id(*self.prefix, "derived", str(self.pos))


DEMO_USERS: list[tuple[str, str, str, str, list[str]]] = [
    # email, name, tenant, role, userModules
    ("owner@demo.test", "Olivia Owner", "demo", "owner", list(MODULES)),
    ("admin@demo.test", "Adam Admin", "demo", "admin", list(MODULES)),
    ("operator@demo.test", "Omar Operator", "demo", "operator", ["upgrade", "support", "inventory"]),
    ("device@demo.test", "Packing Station 1", "demo", "warehouse-device", ["fulfillment"]),
    ("owner@other.test", "Otto Other", "other", "owner", list(MODULES)),
]
DEMO_TENANTS = [("demo", "Demo Retail Co."), ("other", "Other Holdings Ltd.")]

# (ctx of the demo tenant) -> None; each must be idempotent.
SEEDERS: list[Callable[[Ctx], None]] = []


def demo_seeder(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    SEEDERS.append(fn)
    return fn


def seed_demo(rt: Runtime) -> None:
    """Write the demo data set (idempotent)."""
    # One hash for all demo users: argon2 costs ~50 ms each.
    pw_hash: str | None = None
    with rt.db.transaction(None) as s:
        for slug, name in DEMO_TENANTS:
            if s.get(Tenant, demo_id("tenant", slug)) is None:
                s.add(
                    Tenant(
                        id=demo_id("tenant", slug),
                        slug=slug,
                        name=name,
                        modules=list(MODULES),
                        status="active",
                        created_at=rt.clock.now(),
                    )
                )
        s.flush()
        for email, uname, slug, role, modules in DEMO_USERS:
            uid = demo_id("user", email)
            if s.get(User, uid) is None:
                pw_hash = pw_hash or hash_password(DEMO_PASSWORD)
                s.add(
                    User(
                        id=uid,
                        email=email,
                        name=uname,
                        password_hash=pw_hash,
                        created_at=rt.clock.now(),
                        updated_at=rt.clock.now(),
                    )
                )
                s.flush()
            tid = demo_id("tenant", slug)
            exists = s.execute(
                select(Membership.id).where(Membership.user_id == uid, Membership.tenant_id == tid)
            ).first()
            if not exists:
                s.add(
                    Membership(
                        id=demo_id("membership", email, slug),
                        tenant_id=tid,
                        user_id=uid,
                        role=role,
                        user_modules=modules,
                        created_at=rt.clock.now(),
                    )
                )
    for slug, _name in DEMO_TENANTS:
        with rt.db.reading(None) as s:
            tenant = s.get(Tenant, demo_id("tenant", slug))
            assert tenant is not None
            info = tenant_info(tenant)
        ctx = Ctx(rt, info, SYSTEM)
        for seeder in SEEDERS:
            with id_plan(DemoIds(slug, seeder.__module__, seeder.__qualname__)):
                seeder(ctx)
