"""Rewards use cases through ``execute``: the ledger, receipts, checkout, W-9, dealers."""

from __future__ import annotations

import io
import threading
from datetime import timedelta

import pytest
from PIL import Image
from sqlalchemy import func, select

from local_db.models.rewards import RewardsDealer, RewardsLedgerEntry, RewardsW9
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.files import Upload
from tests.conftest import dump_database

ADDRESS = {"shipping_address": {"line1": "1 Main St", "city": "Springfield", "country": "US"}}
W9 = {
    "name": "Dana North",
    "tax_classification": "individual",
    "address": "1 Main St",
    "city": "Springfield",
    "state": "IL",
    "zip": "62701",
    "tin_type": "ssn",
    "tin": "521-73-4869",
    "certify": True,
}


def staff(rt: Runtime, email: str = "owner@demo.test", slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def dealer(rt: Runtime, key: str = "north") -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    p = Principal(
        kind="customer",
        id=demo_id("rewards-dealer", key),
        customer_module="rewards",
        modules=frozenset({"rewards"}),
    )
    return Ctx(rt, tenant, p)


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 20), "white").save(out, "PNG")
    return out.getvalue()


def ledger_sum(rt: Runtime, dealer_id: str) -> tuple[int, int]:
    tenant = auth.load_tenant(rt.db, "demo")
    with rt.db.reading(tenant.id) as s:
        total = s.execute(
            select(func.coalesce(func.sum(RewardsLedgerEntry.points), 0)).where(
                RewardsLedgerEntry.dealer_id == dealer_id
            )
        ).scalar_one()
        d = s.get(RewardsDealer, dealer_id)
        assert d is not None
        return int(total), d.balance


def new_product(rt: Runtime, points: int, stock: int = 1000) -> str:
    p = execute(
        staff(rt), "rewards.admin.products.create", body={"name": f"P{points}", "points": points, "stock": stock}
    )
    return str(p.id)


def test_receipt_review_earns_points_and_checkout_spends_them(runtime: Runtime) -> None:
    rt = runtime
    d = dealer(rt)
    before = execute(d, "rewards.points.get")
    assert before.balance > 0 and before.pending > 0 and before.next_expiries
    f = execute(d, "rewards.files.upload", upload=Upload("r.png", "image/png", png()))
    r = execute(
        d,
        "rewards.receipts.create",
        body={"file_id": f.id, "retailer": "Shop", "purchase_date": "2026-01-02", "total": "12.50"},
    )
    assert r.status == "pending" and r.total == "12.50" and r.suggested_points == 120
    with pytest.raises(Conflict):  # the same file twice
        execute(
            d,
            "rewards.receipts.create",
            body={"file_id": f.id, "retailer": "Shop", "purchase_date": "2026-01-02", "total": "12.50"},
        )
    with pytest.raises(ValidationFailed):  # a decline needs a reason
        execute(staff(rt), "rewards.admin.receipts.review", id=r.id, body={"action": "decline"})
    ok = execute(staff(rt), "rewards.admin.receipts.review", id=r.id, body={"action": "approve", "points": 300})
    assert ok.status == "approved" and ok.points == 300
    with pytest.raises(Conflict) as again:
        execute(staff(rt), "rewards.admin.receipts.review", id=r.id, body={"action": "approve", "points": 1})
    assert again.value.details["current_state"] == "approved"
    assert execute(d, "rewards.points.get").balance == before.balance + 300
    # Cart and checkout.
    pid = new_product(rt, 100, stock=3)
    execute(d, "rewards.cart.add", body={"product_id": pid, "quantity": 1})
    cart = execute(d, "rewards.cart.add", body={"product_id": pid, "quantity": 1})
    assert cart.items[0].quantity == 2 and cart.total_points == 200
    assert execute(d, "rewards.cart.set", body={"product_id": pid, "quantity": 3}).total_points == 300
    order = execute(d, "rewards.cart.checkout", body=ADDRESS)
    assert order.status == "ordered" and order.total_points == 300 and order.value == "3.00"
    assert execute(d, "rewards.cart.get").items == []
    with pytest.raises(Conflict):  # empty cart
        execute(d, "rewards.cart.checkout", body=ADDRESS)
    assert execute(staff(rt), "rewards.products.get", id=pid).stock == 0
    # Cancel: points and stock come back.
    bal = execute(d, "rewards.points.get").balance
    execute(staff(rt), "rewards.admin.orders.act", id=order.id, body={"action": "cancel", "reason": "test"})
    assert execute(d, "rewards.points.get").balance == bal + 300
    assert execute(staff(rt), "rewards.products.get", id=pid).stock == 3
    with pytest.raises(Conflict):
        execute(staff(rt), "rewards.admin.orders.act", id=order.id, body={"action": "ship"})
    total, balance = ledger_sum(rt, d.principal.id)
    assert total == balance


def test_points_expire_per_award_and_the_earliest_are_spent_first(runtime: Runtime) -> None:
    clock = FixedClock()
    runtime.clock = clock
    rt = runtime
    did = demo_id("rewards-dealer", "east")
    e = dealer(rt, "east")
    execute(
        staff(rt), "rewards.admin.points.adjust", id=did, body={"points": 100, "reason": "late", "expires_in_days": 30}
    )
    execute(
        staff(rt), "rewards.admin.points.adjust", id=did, body={"points": 50, "reason": "early", "expires_in_days": 10}
    )
    pts = execute(e, "rewards.points.get")
    assert pts.balance == 150 and [x.points for x in pts.next_expiries] == [50, 100]
    pid = new_product(rt, 40)
    execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]})
    # 40 came from the lot expiring first: 10 left there, 100 in the later one.
    assert [x.points for x in execute(e, "rewards.points.get").next_expiries] == [10, 100]
    clock.advance(days=11)
    assert execute(e, "rewards.points.get").balance == 100  # the 10 expired
    execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]})
    kinds = [x.kind for x in execute(e, "rewards.points.ledger", query={"limit": 10}).items]
    assert "expire" in kinds and kinds.count("redeem") == 2
    with pytest.raises(Conflict) as short:
        execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 2}]})
    assert short.value.details["needed"] == 80
    total, balance = ledger_sum(rt, did)
    assert total == balance == 60


def test_concurrent_checkouts_never_overspend(runtime: Runtime) -> None:
    rt = runtime
    did = demo_id("rewards-dealer", "east")
    execute(staff(rt), "rewards.admin.points.adjust", id=did, body={"points": 1000, "reason": "bench"})
    pid = new_product(rt, 100)
    results: list[str] = []

    def buy() -> None:
        try:
            execute(
                dealer(rt, "east"),
                "rewards.cart.checkout",
                body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]},
            )
            results.append("ok")
        except Conflict:
            results.append("409")

    threads = [threading.Thread(target=buy) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 10 and results.count("409") == 6
    total, balance = ledger_sum(rt, did)
    assert total == balance == 0


def test_w9_threshold_tin_rules_and_sealing(runtime: Runtime) -> None:
    rt = runtime
    execute(staff(rt), "rewards.admin.settings.set", body={"w9_threshold": "5.00"})
    assert execute(staff(rt), "rewards.admin.settings.get").w9_threshold == "5.00"
    did = demo_id("rewards-dealer", "east")
    execute(staff(rt), "rewards.admin.points.adjust", id=did, body={"points": 5000, "reason": "w9"})
    e = dealer(rt, "east")
    pid = new_product(rt, 600)
    with pytest.raises(Conflict) as need:
        execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]})
    assert need.value.details["w9"]["status"] == "required" and need.value.details["w9"]["threshold"] == "5.00"
    for bad in ("000-12-3456", "666-12-3456", "123-00-4567", "123-45-0000", "912-34-5678", "12345678"):
        with pytest.raises(ValidationFailed):
            execute(e, "rewards.w9.submit", body={**W9, "tin": bad})
    with pytest.raises(ValidationFailed):
        execute(e, "rewards.w9.submit", body={**W9, "tin_type": "ein", "tin": "07-1234567"})
    with pytest.raises(ValidationFailed):
        execute(e, "rewards.w9.submit", body={**W9, "certify": False})
    out = execute(e, "rewards.w9.submit", body=W9)
    assert out.status == "submitted" and out.form.tin_masked == "***-**-4869"
    with pytest.raises(Conflict):
        execute(e, "rewards.w9.submit", body=W9)
    dump = dump_database(rt)
    assert "521734869" not in dump and "521-73-4869" not in dump
    with rt.db.reading(None) as s:
        assert s.execute(select(RewardsW9.tin_sealed)).scalar_one().startswith("sealed:v1:")
    order = execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]})
    assert order.value == "6.00"
    w = execute(staff(rt), "rewards.admin.w9.list", query={"status": "submitted"}).items[0]
    execute(staff(rt), "rewards.admin.w9.decide", id=w.id, body={"action": "reject", "reason": "name mismatch"})
    assert execute(e, "rewards.w9.get").status == "rejected"
    with pytest.raises(Conflict):
        execute(e, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": pid, "quantity": 1}]})
    itin = execute(e, "rewards.w9.submit", body={**W9, "tin": "912-70-1234"})  # an ITIN is accepted
    assert itin.status == "submitted"


def test_registration_requests_and_strangers(runtime: Runtime) -> None:
    rt = runtime
    pending = demo_id("rewards-dealer", "new")
    page = execute(staff(rt), "rewards.admin.register_requests.list", query={"status": "pending"})
    assert pending in [d.id for d in page.items]
    with pytest.raises(Forbidden):  # an operator without the module
        execute(staff(rt, "operator@demo.test"), "rewards.admin.register_requests.list", query={})
    with pytest.raises(Forbidden):  # a dealer on a staff route
        execute(dealer(rt), "rewards.admin.register_requests.list", query={})
    with pytest.raises(NotFound):  # another tenant
        execute(staff(rt, "owner@other.test", "other"), "rewards.admin.register_requests.get", id=pending)
    ok = execute(staff(rt), "rewards.admin.register_requests.decide", id=pending, body={"action": "approve"})
    assert ok.status == "approved"
    with pytest.raises(Conflict):
        execute(staff(rt), "rewards.admin.register_requests.decide", id=pending, body={"action": "decline"})
    # A dealer reads only their own receipts.
    east_receipt = execute(dealer(rt, "east"), "rewards.receipts.list", query={}).items[0]
    with pytest.raises(NotFound):
        execute(dealer(rt), "rewards.receipts.get", id=east_receipt.id)
    assert execute(staff(rt, "owner@other.test", "other"), "rewards.receipts.list", query={}).total == 0
    staff_view = execute(staff(rt), "rewards.receipts.list", query={"status": "pending"})
    assert staff_view.total >= 3 and all(r.status == "pending" for r in staff_view.items)


def test_a_staff_review_on_a_station_waits_in_the_outbox(station: Runtime) -> None:
    r = execute(staff(station), "rewards.receipts.list", query={"status": "pending"}).items[0]
    execute(staff(station), "rewards.admin.receipts.review", id=r.id, body={"action": "approve", "points": 10})
    from local_db.models import OutboxEntry

    with station.db.reading(None) as s:
        entry = s.execute(
            select(OutboxEntry).where(OutboxEntry.command == "rewards.admin.receipts.review")
        ).scalar_one()
    assert entry.path == f"/demo/rewards/api/admin/receipts/{r.id}"
    _ = timedelta
