"""Tax in the service layer, against a real local shop (tests/shop_server.py): the sync imports
nothing twice and keeps standalone refunds, liability equals an independent recomputation to the
cent, amendments keep every revision, filings move through their table (dirty included) and lock
their period, certificates announce themselves and their expiry once."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from app.settings import Settings
from local_db.models import Event
from local_db.models.tax import TaxFiling, TaxTransaction
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.tax.lookups import nexus_table, period_of
from tests.shop_server import Shop, ShopBehaviour

OWNER = "owner@demo.test"
STATES = ["CA", "NY", "TX", "FL", "WA", "GA"]


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


@pytest.fixture
def settings(settings: Settings) -> Settings:
    settings.connections_allow_private = True  # the shop listens on loopback
    return settings


@pytest.fixture
def shop() -> Iterator[Shop]:
    s = Shop(ShopBehaviour(rate=1000, page_size=400)).start()
    yield s
    s.stop()


def synthetic(shop: Shop, n_orders: int, n_refunds: int, seed: int = 7, year: int = 2025) -> None:
    """Orders and refunds as a shop sends them: money as strings and as numbers, some refunds of
    orders the shop never lists (standalone)."""
    rng = random.Random(seed)
    for i in range(n_orders):
        amount = Decimal(rng.randint(100, 500000)) / 100
        tax = (amount * Decimal(rng.choice(["0.0725", "0.08", "0.0625", "0.06"]))).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        shop.state.orders.append(
            {
                "id": f"O{i}",
                "date": (date(year, 1, 1) + timedelta(days=rng.randint(0, 364))).isoformat(),
                "state": rng.choice(STATES),
                "amount": str(amount) if i % 2 else float(amount),
                "shipping": "4.99" if i % 3 else 0,
                "tax": str(tax),
                "exempt": i % 23 == 0,
            }
        )
    for j in range(n_refunds):
        o = shop.state.orders[rng.randrange(len(shop.state.orders))]
        standalone = j % 10 == 0
        shop.state.refunds.append(
            {
                "id": f"R{j}",
                "order_id": f"GONE{j}" if standalone else o["id"],
                "date": o["date"],
                "state": o["state"],
                "amount": str(Decimal(str(o["amount"])).quantize(Decimal("0.01"))),
                "shipping": 0,
                "tax": o["tax"],
                "exempt": o["exempt"],
            }
        )


def recompute(shop: Shop, start: date, end: date) -> dict[str, dict[str, Decimal]]:
    """Liability by state straight from the shop's rows, with Decimal (the independent figure)."""
    out: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    seen: set[tuple[str, str]] = set()
    for kind, rows in (("order", shop.state.orders), ("refund", shop.state.refunds)):
        for r in rows:
            if (kind, r["id"]) in seen or not (start.isoformat() <= r["date"] <= end.isoformat()):
                continue
            seen.add((kind, r["id"]))
            sign = 1 if kind == "order" else -1
            amount = Decimal(str(r["amount"])).quantize(Decimal("0.01"))
            v = out[r["state"]]
            v["exempt" if r["exempt"] else "taxable"] += sign * amount
            v["collected" if kind == "order" else "refunded"] += Decimal(r["tax"])
            v["count"] += 1
    return out


def connect(ctx: Ctx, shop: Shop) -> None:
    execute(
        ctx,
        "tax.connections.ecommerce.save",
        body={"provider": "generic", "base_url": shop.url, "rate_limit": 100, "credentials": {"api_key": "shop-key-1"}},
    )


def test_sync_twice_imports_nothing_twice_and_liability_is_exact(runtime: Runtime, shop: Shop) -> None:
    ctx = ctx_for(runtime)
    with pytest.raises(Conflict) as no_conn:
        execute(ctx, "tax.transactions.sync", body={})
    assert no_conn.value.details["current_state"] == "not_connected"
    synthetic(shop, 1200, 150)
    shop.state.orders.append(dict(shop.state.orders[5]))  # the shop lists one order twice
    connect(ctx, shop)
    first = execute(ctx, "tax.transactions.sync", body={})
    assert first.imported == 1200 + 150 and first.updated == 0 and first.skipped == 1
    assert first.refunds_without_order == 15
    second = execute(ctx, "tax.transactions.sync", body={})
    assert (second.imported, second.updated, second.skipped) == (0, 0, 1200 + 150 + 1)
    with runtime.db.reading(ctx.tenant_id) as s:
        n = s.execute(
            select(func.count())
            .select_from(TaxTransaction)
            .where(TaxTransaction.kind == "order", TaxTransaction.external_id.not_like("ORD-%"))
        ).scalar_one()
        standalone = s.execute(select(TaxTransaction).where(TaxTransaction.external_id == "R0")).scalar_one()
    assert n == 1200  # 0 duplicates
    assert standalone.order_id is None and standalone.order_external_id == "GONE0"
    conn = execute(ctx, "tax.connections.ecommerce.get")
    assert conn.last_sync_at is not None and conn.account == "Demo Shop" and conn.last_error is None

    start, end = date(2025, 1, 1), date(2025, 12, 31)
    got = execute(ctx, "tax.liability", query={"from": start.isoformat(), "to": end.isoformat()})
    want = recompute(shop, start, end)
    assert {r.state for r in got.states} == set(want)
    for r in got.states:
        w = want[r.state]
        assert Decimal(r.taxable_sales) == w["taxable"] and Decimal(r.exempt_sales) == w["exempt"]
        assert Decimal(r.tax_collected) == w["collected"] and Decimal(r.refunded) == w["refunded"]
        assert Decimal(r.net_liability) == w["collected"] - w["refunded"] and r.transactions == w["count"]
    # One month too, and the money is always two places.
    june = execute(ctx, "tax.liability", query={"from": "2025-06-01", "to": "2025-06-30", "state": "ca"})
    w = recompute(shop, date(2025, 6, 1), date(2025, 6, 30))["CA"]
    assert [r.state for r in june.states] == ["CA"] and Decimal(june.total.net_liability) == w["collected"] - w[
        "refunded"
    ]
    assert all(len(r.tax_collected.split(".")[1]) == 2 for r in got.states)
    with pytest.raises(ValidationFailed):
        execute(ctx, "tax.liability", query={"from": "2025-02-01", "to": "2025-01-01"})

    # The shop changed an order: the next sync writes revision 2 and keeps revision 1.
    shop.state.orders[0]["tax"] = "0.01"
    # A refund for an order the shop lists later: standalone first, linked once its order arrives.
    shop.state.refunds.append({**shop.state.refunds[1], "id": "RLATE", "order_id": "OLATE"})
    third = execute(ctx, "tax.transactions.sync", body={})
    assert third.updated == 1 and third.imported == 1 and third.refunds_without_order == 1
    shop.state.orders.append({**shop.state.orders[1], "id": "OLATE"})
    assert execute(ctx, "tax.transactions.sync", body={}).imported == 1
    with runtime.db.reading(ctx.tenant_id) as s:
        late = s.execute(select(TaxTransaction).where(TaxTransaction.external_id == "RLATE")).scalar_one()
        o0 = s.execute(select(TaxTransaction).where(TaxTransaction.external_id == "O0")).scalar_one()
        assert late.order_id is not None
    detail = execute(ctx, "tax.transactions.get", id=o0.id)
    assert detail.revision == 2 and [r.revision for r in detail.revisions] == [1, 2]
    assert detail.revisions[0].data["tax_collected"] != detail.revisions[1].data["tax_collected"] == "0.01"
    with runtime.db.reading(ctx.tenant_id) as s:
        events = s.execute(select(Event.data).where(Event.type == "tax.transactions_synced")).scalars().all()
    assert len(events) == 4


def test_refund_amend_filings_and_locks(runtime: Runtime, shop: Shop) -> None:
    ctx = ctx_for(runtime)
    shop.state.orders += [
        {"id": "A1", "date": "2025-03-03", "state": "CA", "amount": "100.00", "shipping": "5.00", "tax": "7.25"},
        {"id": "A2", "date": "2025-03-09", "state": "CA", "amount": "33.33", "shipping": 0, "tax": "2.42"},
        {"id": "A3", "date": "2025-04-09", "state": "CA", "amount": "10.00", "shipping": 0, "tax": "0.73"},
    ]
    connect(ctx, shop)
    execute(ctx, "tax.transactions.sync", body={})
    ids = {
        t.external_id: t.id for t in execute(ctx, "tax.transactions.list", query={"state": "CA", "limit": 100}).items
    }

    # Partial refund: tax in proportion, rounded half up; then the rest, to the cent.
    part = execute(ctx, "tax.transactions.refund", id=ids["A2"], body={"amount": "11.11", "reason": "one of three"})
    assert part.kind == "refund" and part.order_id == ids["A2"] and part.tax_collected == "0.81"
    rest = execute(ctx, "tax.transactions.refund", id=ids["A2"], body={"reason": "the rest"})
    assert rest.amount == "22.22" and rest.tax_collected == "1.61"
    with pytest.raises(ValidationFailed):  # nothing left to refund
        execute(ctx, "tax.transactions.refund", id=ids["A2"], body={"reason": "again"})
    with pytest.raises(ValidationFailed):  # three decimals
        execute(ctx, "tax.transactions.refund", id=ids["A1"], body={"amount": "1.005", "reason": "x"})
    with pytest.raises(Conflict):  # a refund is not refunded
        execute(ctx, "tax.transactions.refund", id=part.id, body={"reason": "x"})
    with pytest.raises(NotFound):
        execute(ctx, "tax.transactions.refund", id=demo_id("nope"), body={"reason": "x"})

    filing = execute(ctx, "tax.filings.create", body={"state": "ca", "period_start": "2025-03-01"})
    assert filing.status == "ready" and filing.period_end == date(2025, 3, 31) and filing.live_liability == "9.67"
    with pytest.raises(ValidationFailed):
        execute(ctx, "tax.filings.create", body={"state": "CA", "period_start": "2025-03-02"})
    with pytest.raises(Conflict):
        execute(ctx, "tax.filings.create", body={"state": "CA", "period_start": "2025-01-01", "frequency": "quarterly"})
    with pytest.raises(Conflict) as wrong:
        execute(ctx, "tax.filings.act", id=filing.id, body={"action": "file"})
    assert wrong.value.details["current_state"] == "ready"
    approved = execute(ctx, "tax.filings.act", id=filing.id, body={"action": "approve"})
    assert approved.status == "approved" and approved.liability == "9.67"

    # An amendment inside the approved period: revision 2, both kept, the filing is dirty.
    amended = execute(ctx, "tax.transactions.amend", id=ids["A1"], body={"tax_collected": "7.00", "reason": "coupon"})
    assert amended.revision == 2 and [r.data["tax_collected"] for r in amended.revisions] == ["7.25", "7.00"]
    dirty = execute(ctx, "tax.filings.get", id=filing.id)
    assert dirty.status == "dirty" and dirty.live_liability == "9.42"
    # Sent back for approval, it keeps the figure approved (what would be filed) beside the live one.
    assert dirty.liability == "9.67"
    with pytest.raises(ValidationFailed) as nowhere:  # no such state: refused, nothing stored
        execute(ctx, "tax.transactions.amend", id=ids["A1"], body={"state": "ZZ", "reason": "typo"})
    assert "ZZ" in str(nowhere.value.details)
    assert execute(ctx, "tax.transactions.get", id=ids["A1"]).revision == 2
    with pytest.raises(ValidationFailed):
        execute(ctx, "tax.transactions.amend", id=ids["A1"], body={"reason": "nothing"})
    again = execute(ctx, "tax.filings.act", id=filing.id, body={"action": "approve"})
    assert again.liability == "9.42"
    filed = execute(ctx, "tax.filings.act", id=filing.id, body={"action": "file"})
    assert filed.status == "filed" and filed.allowed_actions == ["accept", "reject"]

    # Filed: its transactions are locked; amending one, or moving one into it, is 409.
    a1 = execute(ctx, "tax.transactions.get", id=ids["A1"])
    assert a1.locked
    with pytest.raises(Conflict) as locked:
        execute(ctx, "tax.transactions.amend", id=ids["A1"], body={"amount": "1.00", "reason": "late"})
    assert locked.value.details["current_state"] == "locked"
    with pytest.raises(Conflict):
        execute(ctx, "tax.transactions.amend", id=ids["A3"], body={"date": "2025-03-31", "reason": "move"})
    # The shop changes a filed order, and lists a new one in the filed month: both left alone.
    shop.state.orders[0]["tax"] = "1.00"
    shop.state.orders.append({"id": "A4", "date": "2025-03-20", "state": "CA", "amount": "1", "tax": "0.07"})
    res = execute(ctx, "tax.transactions.sync", body={})
    assert res.locked_skipped == 2 and res.imported == 0 and res.updated == 0
    assert execute(ctx, "tax.transactions.get", id=ids["A1"]).tax_collected == "7.00"

    # Rejected: unlocked for the correction, approved and filed again, accepted.
    rejected = execute(ctx, "tax.filings.act", id=filing.id, body={"action": "reject", "note": "wrong total"})
    assert rejected.status == "rejected" and not execute(ctx, "tax.transactions.get", id=ids["A1"]).locked
    for action in ("approve", "file", "accept"):
        last = execute(ctx, "tax.filings.act", id=filing.id, body={"action": action})
    assert last.status == "accepted" and last.allowed_actions == []
    with pytest.raises(Conflict):
        execute(ctx, "tax.filings.act", id=filing.id, body={"action": "reject"})
    with runtime.db.reading(ctx.tenant_id) as s:
        types = [e for (e,) in s.execute(select(Event.type).where(Event.type.like("filing.%"))).all()]
    assert types.count("filing.dirty") == 1 and types.count("filing.filed") == 2 and "filing.accepted" in types

    # Who may: the operator has no Tax module; the other tenant cannot see ours.
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "operator@demo.test"), "tax.transactions.list", query={})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime, "owner@other.test", "other"), "tax.transactions.get", id=ids["A1"])


def test_certificates_announce_upload_and_expiry_once(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    today = ctx.now().date()
    soon = execute(
        ctx,
        "tax.certificates.create",
        body={
            "customer_name": "Harbor Resale",
            "state": "wa",
            "exemption_number": "WA-77",
            "expiration_date": (today + timedelta(days=10)).isoformat(),
        },
    )
    later = execute(
        ctx,
        "tax.certificates.create",
        body={"customer_name": "Valley Co-op", "state": "CA", "exemption_number": "CA-1", "reason": "nonprofit"},
    )
    assert soon.status == "active" and soon.state == "WA" and later.expiration_date is None
    assert execute(ctx, "tax.certificates.check_expiry").expiring == 0  # announced already, once
    with runtime.db.reading(ctx.tenant_id) as s:
        data = s.execute(select(Event.type, Event.data).where(Event.type.like("certificate.%"))).all()
    assert sorted(t for t, _ in data).count("certificate.uploaded") == 2
    expiring = [d for t, d in data if t == "certificate.expiring"]
    ids = [d["certificate_id"] for d in expiring]
    assert soon.id in ids and len(ids) == len(set(ids)) == 2  # ours and the demo's, each once
    assert next(d for d in expiring if d["certificate_id"] == soon.id)["days_left"] == 10
    with pytest.raises(ValidationFailed):
        execute(ctx, "tax.certificates.create", body={"customer_name": "X", "state": "C", "exemption_number": "1"})
    with pytest.raises(ValidationFailed):
        execute(
            ctx,
            "tax.certificates.create",
            body={"customer_name": "X", "state": "CA", "exemption_number": "1", "expiration_date": "2001-01-01"},
        )
    revoked = execute(ctx, "tax.certificates.delete", id=later.id)
    assert revoked.status == "revoked"
    with pytest.raises(Conflict):
        execute(ctx, "tax.certificates.delete", id=later.id)
    expired = execute(ctx, "tax.certificates.list", query={"status": "expired"})
    assert [c.exemption_number for c in expired.items] == ["01-339-4421"]  # the demo's
    dash = execute(ctx, "tax.dashboard")
    assert soon.id in {c.id for c in dash.expiring_certificates}


def test_dashboard_nexus_and_the_demo(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    table = nexus_table()
    assert len(table["states"]) == 51 and table["sources"]
    by = {r["state"]: r for r in table["states"]}
    assert by["CA"]["threshold_sales"] == "500000.00" and by["NY"]["rule"] == "and" and not by["OR"]["sales_tax"]
    dash = execute(ctx, "tax.dashboard")
    assert len(dash.nexus) == 51 and dash.year == ctx.now().year
    nexus = {n.state: n for n in dash.nexus}
    assert not nexus["CA"].reached and 0 < nexus["CA"].progress < 1 and nexus["OR"].progress == 0
    assert any(f.status == "approved" for f in dash.upcoming_filings)
    # The demo: a filed filing whose transactions are locked, an amended order with both revisions.
    filed = execute(ctx, "tax.filings.list", query={"status": "filed"}).items
    assert filed and filed[0].state == "CA"
    locked = execute(ctx, "tax.transactions.list", query={"locked": True, "state": "CA"}).items
    assert locked and all(filed[0].period_start <= t.date <= filed[0].period_end for t in locked)
    # The filed figure is the net of the transactions it locked (orders' tax less refunds' tax).
    net = sum((Decimal(t.tax_collected) if t.kind == "order" else -Decimal(t.tax_collected)) for t in locked)
    assert Decimal(filed[0].liability) == net == Decimal(filed[0].live_liability)
    amended = [t for t in execute(ctx, "tax.transactions.list", query={"limit": 100}).items if t.revision == 2]
    assert amended and len(execute(ctx, "tax.transactions.get", id=amended[0].id).revisions) == 2
    assert period_of(date(2025, 11, 15), "quarterly") == (date(2025, 10, 1), date(2025, 12, 31))
    assert period_of(date(2024, 2, 10)) == (date(2024, 2, 1), date(2024, 2, 29))
    with runtime.db.reading(ctx.tenant_id) as s:
        statuses = set(s.execute(select(TaxFiling.status)).scalars())
    assert {"filed", "accepted", "approved", "ready", "dirty", "upcoming", "rejected"} <= statuses


def test_tax_service_connection_is_checked_and_sealed(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    svc = Shop(ShopBehaviour(api_key="tax-key-9", account_name="Tax Service Account")).start()
    try:
        body: dict[str, Any] = {"provider": "generic", "base_url": svc.url, "credentials": {"api_key": "wrong"}}
        with pytest.raises(ValidationFailed):
            execute(ctx, "tax.connections.tax_service.save", body=body)
        body["credentials"] = {"api_key": "tax-key-9"}
        saved = execute(ctx, "tax.connections.tax_service.save", body=body)
        assert saved.connected and saved.account == "Tax Service Account" and saved.key_hint == "…ey-9"
    finally:
        svc.stop()
    from tests.conftest import dump_database

    assert "tax-key-9" not in dump_database(runtime)
    assert execute(ctx, "tax.connections.tax_service.get").connected
    assert not execute(ctx, "tax.connections.ecommerce.get").connected
    assert not execute(ctx, "tax.connections.tax_service.delete").connected
