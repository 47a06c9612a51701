"""pk_test_ keys act on the tenant's sandbox, never on live data (issue 13, item 12)."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models import Tenant
from tests.conftest import LiveServer, auth_headers
from tests.services.fulfillment.fulfillment_helpers import order_in

TICKETS = "/api/tenants/demo/support/tickets"
ORDERS = "/demo/fulfillment/api/orders"


def _key(client: httpx.Client, environment: str) -> dict[str, str]:
    body = {"name": environment, "modules": ["fulfillment", "support", "events"], "environment": environment}
    r = client.post("/api/tenants/demo/api-keys", json=body, headers=auth_headers(client, "owner@demo.test"))
    assert r.status_code == 201, r.text
    return {"X-API-Key": str(r.json()["data"]["key"])}


def test_a_test_key_cannot_see_or_cancel_a_live_order(client: httpx.Client, server: LiveServer) -> None:
    live_order = order_in(server.runtime, "pending")
    test, live = _key(client, "test"), _key(client, "live")
    assert client.get(f"{ORDERS}/{live_order.id}", headers=live).status_code == 200
    # The request: a test key cancelling a live order.
    r = client.post(f"{ORDERS}/{live_order.id}/operations", json={"operation": "cancel", "reason": "test"},
                    headers=test)  # fmt: skip
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
    seen = client.get(f"{ORDERS}/{live_order.id}", headers=live).json()["data"]
    assert seen["status"] == "pending" and seen["cancelled_at"] is None
    listed = client.get(ORDERS, headers=test)
    assert listed.status_code == 200 and listed.json()["data"] == []  # the sandbox is empty until used


def test_what_a_test_key_makes_stays_in_the_sandbox_until_reset(client: httpx.Client, server: LiveServer) -> None:
    test, live = _key(client, "test"), _key(client, "live")
    owner = auth_headers(client, "owner@demo.test")
    body = {"subject": "sandbox ticket", "description": "d", "email": "t@example.test", "name": "T"}
    made = client.post(TICKETS, json=body, headers=test)
    assert made.status_code == 201, made.text
    tid = made.json()["data"]["id"]
    assert [t["id"] for t in client.get(TICKETS, headers=test).json()["data"]] == [tid]
    for who in (live, owner):  # invisible to live keys and to the signed-in session
        assert tid not in [t["id"] for t in client.get(TICKETS, headers=who, params={"per_page": 100}).json()["data"]]
        assert client.get(f"{TICKETS}/{tid}", headers=who).status_code == 404
    # The sandbox is no tenant of its own: not reachable by a slug, not among the owner's tenants.
    me = client.get("/api/auth/me", headers=owner).json()["data"]
    assert [t["slug"] for t in me["tenants"]] == ["demo"]
    assert client.get("/api/tenants/demo~sandbox/support/tickets", headers=owner).status_code == 404

    # Reset: owner only; it empties the sandbox.
    admin = auth_headers(client, "admin@demo.test")
    for who in (admin, test, live):
        r = client.post("/api/tenants/demo/sandbox/reset", headers=who)
        assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    r = client.post("/api/tenants/demo/sandbox/reset", headers=owner)
    assert r.status_code == 200 and r.json()["data"]["emptied"] is True and r.json()["data"]["tenant"] == "demo"
    assert client.get(TICKETS, headers=test).json()["data"] == []
    assert client.get(f"{TICKETS}/{tid}", headers=test).status_code == 404
    with server.runtime.db.reading(None) as s:
        assert s.execute(select(func.count()).select_from(Tenant).where(Tenant.sandbox_of.is_not(None))).scalar() == 1
    # Live data untouched by the reset.
    assert client.get(TICKETS, headers=live).json()["data"]
