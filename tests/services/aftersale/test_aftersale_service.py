"""Aftersale use cases through ``execute``: coverage arithmetic, registration, claims."""

from __future__ import annotations

from datetime import date

import pytest

from services.aftersale.coverage import add_months
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed

PUBLIC = Principal(kind="public", id="ip:127.0.0.1")


def ctx(rt: Runtime, who: str | Principal = "owner@demo.test", slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    if isinstance(who, Principal):
        return Ctx(rt, tenant, who)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", who), tenant))


def customer(email: str = "customer@demo.test") -> Principal:
    return Principal(
        kind="customer",
        id=demo_id("aftersale-customer", email),
        customer_module="aftersale",
        email=email,
        modules=frozenset({"aftersale"}),
    )


def test_month_arithmetic_handles_month_ends() -> None:
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2028, 1, 31), 1) == date(2028, 2, 29)
    assert add_months(date(2028, 2, 29), 12) == date(2029, 2, 28)
    assert add_months(date(2026, 11, 30), 3) == date(2027, 2, 28)
    assert add_months(date(2026, 12, 15), 24) == date(2028, 12, 15)
    assert add_months(date(2026, 5, 31), 0) == date(2026, 5, 31)


def test_public_registration_coverage_duplicates_and_bad_input(runtime: Runtime) -> None:
    pub = ctx(runtime, PUBLIC)
    body = {
        "serial_number": "ab 1234",
        "product_sku": "MUG-CER-01",
        "purchase_date": "2026-01-31",
        "email": "Pat@Example.com",
        "name": "Pat",
    }
    w = execute(pub, "aftersale.warranties.register", body=body)
    assert (w.status, w.coverage_until) == ("active", date(2028, 1, 31))  # the mug's 24 months
    variant = execute(
        pub, "aftersale.warranties.register", body={**body, "serial_number": "V-1", "product_sku": "TSH-BLK-M"}
    )
    assert variant.coverage_until == date(2027, 1, 31)  # a variant SKU: its product's default 12 months
    with pytest.raises(Conflict):  # the same serial, spaced and cased differently
        execute(pub, "aftersale.warranties.register", body={**body, "serial_number": "AB1234"})
    with pytest.raises(ValidationFailed):
        execute(
            pub, "aftersale.warranties.register", body={**body, "serial_number": "X-2", "purchase_date": "2999-01-01"}
        )
    with pytest.raises(ValidationFailed):  # the tenant has a catalog: an unknown SKU is refused
        execute(pub, "aftersale.warranties.register", body={**body, "serial_number": "X-3", "product_sku": "NOPE"})
    with pytest.raises(ValidationFailed):
        execute(pub, "aftersale.warranties.register", body={**body, "serial_number": "X-4", "colour": "red"})
    # Tenant "other" has no catalog: any SKU, 12 months.
    other = execute(ctx(runtime, PUBLIC, "other"), "aftersale.warranties.register", body={**body, "product_sku": "ANY"})
    assert other.coverage_until == date(2027, 1, 31)
    staff = execute(ctx(runtime), "aftersale.warranties.list", query={"search": "ab 1234"})
    assert [x.id for x in staff.items] == [w.id] and staff.items[0].email == "pat@example.com"


def test_claims_move_through_their_states(runtime: Runtime) -> None:
    me = ctx(runtime, customer())
    mine = execute(me, "aftersale.warranties.list", query={})
    assert mine.total == 3 and {x.status for x in mine.items} == {"active", "expired"}
    expired = next(x for x in mine.items if x.status == "expired")
    with pytest.raises(Conflict):
        execute(me, "aftersale.claims.create", body={"warranty_id": expired.id, "description": "broken"})
    with pytest.raises(Conflict):  # w1 has an open claim already
        execute(
            me, "aftersale.claims.create", body={"warranty_id": demo_id("aftersale-warranty", "w1"), "description": "x"}
        )
    robin = demo_id("aftersale-warranty", "w4")
    with pytest.raises(NotFound):  # someone else's warranty
        execute(me, "aftersale.claims.create", body={"warranty_id": robin, "description": "x"})
    open_claim = execute(me, "aftersale.claims.list", query={"status": "open"}).items[0]
    with pytest.raises(Forbidden):  # a customer does not start work
        execute(me, "aftersale.claims.act", id=open_claim.id, body={"action": "start"})
    staff = ctx(runtime)
    started = execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "start"})
    assert started.status == "in_progress"
    with pytest.raises(ValidationFailed):
        execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "close"})
    closed = execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "close", "resolution": "Fixed"})
    assert closed.status == "closed"
    with pytest.raises(Conflict) as again:
        execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "cancel"})
    assert again.value.details["current_state"] == "closed"
    new = execute(me, "aftersale.claims.create", body={"warranty_id": open_claim.warranty_id, "description": "again"})
    assert new.status == "open"
    assert execute(me, "aftersale.claims.act", id=new.id, body={"action": "cancel"}).status == "cancelled"
    with pytest.raises(Forbidden):
        execute(ctx(runtime, "operator@demo.test"), "aftersale.claims.list", query={})
    with pytest.raises(NotFound):
        execute(ctx(runtime, "owner@other.test", "other"), "aftersale.claims.get", id=new.id)


def test_a_claim_carries_the_actions_its_state_allows_to_the_caller(runtime: Runtime) -> None:
    me, staff = ctx(runtime, customer()), ctx(runtime)
    open_claim = execute(me, "aftersale.claims.list", query={"status": "open"}).items[0]
    assert open_claim.allowed_actions == ["cancel"]  # a customer cancels; starting work is staff's
    assert execute(staff, "aftersale.claims.get", id=open_claim.id).allowed_actions == ["start", "cancel"]
    started = execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "start"})
    assert started.allowed_actions == ["close", "cancel"]
    assert execute(me, "aftersale.claims.get", id=open_claim.id).allowed_actions == []
    cancelled = execute(staff, "aftersale.claims.act", id=open_claim.id, body={"action": "cancel"})
    assert cancelled.status == "cancelled" and cancelled.allowed_actions == []
    listed = execute(staff, "aftersale.claims.list", query={"status": "cancelled"}).items
    assert listed and all("start" not in c.allowed_actions for c in listed)
