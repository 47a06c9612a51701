"""Shared set-up of the trade-in tests: call contexts and a driver that takes a submission to any state."""

from __future__ import annotations

import io
import itertools
from typing import Any

from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.demo import demo_id

CASEY = demo_id("upgrade", "demo", "customer", "0")  # customer@demo.test
DANA = demo_id("upgrade", "demo", "customer", "1")
OTHER_SUBMISSION = demo_id("upgrade", "other", "submission", "1")
PRODUCT = "IPH14-128"  # base value 420.00
GOOD: dict[str, Any] = {"power_on": True, "screen": "flawless", "body": "flawless", "functions": True,
                        "battery_health": 95, "account_lock_removed": True, "data_wiped": True, "accessories": True}  # fmt: skip
FAIR: dict[str, Any] = {**GOOD, "screen": "deep_scratches"}
_serials = itertools.count(1)


def staff(rt: Runtime, email: str = "operator@demo.test", slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def customer(rt: Runtime, cid: str = CASEY) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(
        rt, tenant, Principal(kind="customer", id=cid, customer_module="upgrade", modules=frozenset({"upgrade"}))
    )


def png(size: tuple[int, int] = (64, 48), color: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def new_serial() -> str:
    return f"TESTSN{next(_serials):06d}"


def drive(rt: Runtime, to: str, *, declared: str = "excellent", who: str = CASEY) -> str:
    """A new submission of ``who`` taken along the happy path to state ``to``; returns its id."""
    c, op = customer(rt, who), staff(rt)
    sid = execute(c, "upgrade.submissions.create", body={"product_id": PRODUCT, "serial_number": new_serial(),
                                                         "condition": declared}).id  # fmt: skip
    path = ["submitted", "offered", "accepted", "shipped", "received", "inspected", "completed"]
    if to == "draft":
        return sid
    execute(c, "upgrade.submissions.submit", id=sid, body={})
    if to == "declined":
        execute(op, "upgrade.submissions.reject", id=sid, body={"reason": "not a device we buy"})
        return sid
    for state in path[1 : path.index(to) + 1]:
        if state == "offered":
            execute(op, "upgrade.offers.create", body={"submission_id": sid, "amount": 420})
        elif state == "accepted":
            offer = execute(c, "upgrade.submissions.get", id=sid).current_offer
            execute(c, "upgrade.offers.respond", id=offer.id, body={"action": "accept"})
        elif state == "shipped":
            execute(op, "upgrade.submissions.ship", id=sid, body={"kind": "kit"})
        elif state == "received":
            execute(op, "upgrade.submissions.receive", id=sid, body={})
        elif state == "inspected":
            # Graded fair (252.00) below the accepted 420.00: a revised offer keeps it inspected.
            execute(op, "upgrade.submissions.inspect", id=sid, body={"action": "complete", "checklist": FAIR})
        elif state == "completed":
            offer = execute(c, "upgrade.submissions.get", id=sid).current_offer
            execute(c, "upgrade.offers.respond", id=offer.id, body={"action": "accept"})
    return sid


def status(rt: Runtime, sid: str) -> str:
    return str(execute(staff(rt), "upgrade.admin.submissions.get", id=sid).status)
