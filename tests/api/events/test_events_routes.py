"""Events routes against a real server: publish, list, subscriptions, permissions and bad input."""

from __future__ import annotations

import httpx
import pytest

from app.settings import Settings
from services.core.context import Runtime
from tests.api.events.conftest import events_server, publish, shipped, subscribe
from tests.api.events.receiver import Certs, Receiver
from tests.conftest import auth_headers

SUBS = "/demo/events/api/subscriptions"


def test_publish_and_list_with_filters_and_both_pagination_forms(
    ev_client: httpx.Client, owner: dict[str, str]
) -> None:
    for i in range(3):
        publish(ev_client, owner, data=shipped(order_id=f"o{i}"))
    other = ev_client.post(
        "/demo/events/api/events",
        headers=owner,
        json={"type": "order.shipped", "source": "warehouse", "data": shipped()},
    )
    assert other.status_code == 201
    ev = other.json()["data"]
    assert set(ev) == {"id", "type", "source", "tenant_id", "data", "created_at", "deliveries"}
    assert ev["data"]["shipped_at"] == "2026-01-06T09:00:00Z"
    r = ev_client.get("/demo/events/api/events?type=order.shipped&source=fulfillment&limit=2", headers=owner)
    body = r.json()
    assert r.status_code == 200 and len(body["data"]) == 2 and body["meta"] == {"page": 1, "limit": 2, "total": 3}
    r = ev_client.get("/demo/events/api/events?source=warehouse&offset=0", headers=owner)
    assert r.json()["pagination"] == {"total": 1, "limit": 50, "offset": 0} and r.json()["data"][0]["id"] == ev["id"]
    day = ev["created_at"][:10]
    r = ev_client.get(f"/demo/events/api/events?type=order.shipped&from={day}&to={day}", headers=owner)
    assert r.json()["meta"]["total"] == 4
    r = ev_client.get("/demo/events/api/events?type=order.shipped&to=2000-01-01", headers=owner)
    assert r.json()["meta"]["total"] == 0
    assert ev_client.get("/demo/events/api/events?from=not-a-date", headers=owner).status_code == 400
    assert ev_client.get("/demo/events/api/events?sort=secret", headers=owner).status_code == 400
    assert ev_client.get(f"/demo/events/api/events/{ev['id']}", headers=owner).json()["data"]["id"] == ev["id"]
    # search: a part of the type, any case, or the id; % and _ are text.
    assert ev_client.get("/demo/events/api/events?search=ORDER.SHIP", headers=owner).json()["meta"]["total"] == 4
    assert ev_client.get(f"/demo/events/api/events?search={ev['id']}", headers=owner).json()["meta"]["total"] == 1
    assert ev_client.get("/demo/events/api/events?search=%25", headers=owner).json()["meta"]["total"] == 0
    assert ev_client.get("/demo/events/api/events?search=order_shipped", headers=owner).json()["meta"]["total"] == 0
    # Another tenant sees none of it.
    other_owner = auth_headers(ev_client, "owner@other.test")
    assert ev_client.get("/other/events/api/events", headers=other_owner).json()["meta"]["total"] == 0
    assert ev_client.get(f"/other/events/api/events/{ev['id']}", headers=other_owner).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "no.such.type", "data": {}}, "unknown event type"),
        ({"type": "order.shipped", "data": {"order_id": "x"}}, "schema of order.shipped"),
        ({"type": "order.shipped", "data": [1, 2]}, "validation"),
        ({"type": "order.shipped", "source": "Bad Source!", "data": shipped()}, "validation"),
        ({"type": "order.shipped", "data": shipped(), "extra": 1}, "validation"),
    ],
)
def test_publish_bad_input(ev_client: httpx.Client, owner: dict[str, str], body: dict[str, object], field: str) -> None:
    r = ev_client.post("/demo/events/api/events", json=body, headers=owner)
    assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR"
    assert field in r.text
    assert ev_client.get("/demo/events/api/events", headers=owner).json()["meta"]["total"] == 0


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"webhook_url": "http://hooks.example.com/x"}, "https"),
        ({"webhook_url": "https://user:pw@hooks.example.com/x"}, "credentials"),
        ({"webhook_url": "not a url"}, "https"),
        ({"secret": ""}, "secret"),
        ({"secret": "   "}, "secret"),
        ({"filter": ["carrier", "UPS"]}, "filter"),
        ({"filter": "carrier=UPS"}, "filter"),
        ({"filter": {"bad key!": 1}}, "filter"),
        ({"event_types": ["no.such"]}, "unknown event type"),
        ({"event_types": []}, "event_types"),
        ({"event_type": "order.shipped"}, "either event_types"),
        ({"target": "email"}, "target"),
        ({"target_module": "external"}, "either target"),
        ({"payload_format": "xml"}, "payload_format"),
    ],
)
def test_subscription_bad_input(
    ev_client: httpx.Client, owner: dict[str, str], change: dict[str, object], needle: str
) -> None:
    body: dict[str, object] = {
        "event_types": ["order.shipped"],
        "target": "webhook",
        "webhook_url": "https://hooks.example.com/x",
        "secret": "s",
    }
    body.update(change)
    r = ev_client.post(SUBS, json=body, headers=owner)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "VALIDATION_ERROR" and needle in r.text
    assert ev_client.get(SUBS, headers=owner).json()["meta"]["total"] == 0


def test_roles_and_tenants(ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver) -> None:
    url = receiver.script("/roles")
    admin = auth_headers(ev_client, "admin@demo.test")
    sub = subscribe(ev_client, admin, url)  # admins may create
    operator = auth_headers(ev_client, "operator@demo.test")  # no events module in userModules
    body = {"event_types": ["order.shipped"], "webhook_url": url, "secret": "s"}
    r = ev_client.post(SUBS, json=body, headers=operator)
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert ev_client.post(SUBS, json=body).status_code == 401
    # An operator with the module may read but not create.
    r = ev_client.patch(
        "/api/tenants/demo/users/" + _user_id(ev_client, owner, "operator@demo.test"),
        json={"userModules": ["events"]},
        headers=owner,
    )
    assert r.status_code == 200, r.text
    operator = auth_headers(ev_client, "operator@demo.test")
    assert ev_client.get(SUBS, headers=operator).status_code == 200
    assert ev_client.post(SUBS, json=body, headers=operator).status_code == 403
    assert ev_client.post(f"{SUBS}/{sub['id']}/test", headers=operator).status_code == 403
    # Another tenant's subscription is 404 everywhere.
    other = auth_headers(ev_client, "owner@other.test")
    base = f"/other/events/api/subscriptions/{sub['id']}"
    for method, path in [
        ("GET", ""),
        ("GET", "/deliveries"),
        ("POST", "/test"),
        ("POST", "/deactivate"),
        ("PATCH", ""),
        ("DELETE", ""),
    ]:
        r = ev_client.request(method, base + path, headers=other, json={} if method == "PATCH" else None)
        assert r.status_code == 404, (method, path, r.text)
    assert ev_client.get(f"{SUBS}/{sub['id']}", headers=owner).status_code == 200
    # Update and delete by the owner.
    r = ev_client.patch(f"{SUBS}/{sub['id']}", json={"filter": {"carrier": "UPS"}}, headers=owner)
    assert r.status_code == 200 and r.json()["data"]["filter"] == {"carrier": "UPS"}
    assert ev_client.patch(f"{SUBS}/{sub['id']}", json={"webhook_url": "http://x"}, headers=owner).status_code == 400
    assert ev_client.delete(f"{SUBS}/{sub['id']}", headers=owner).status_code == 204
    assert ev_client.get(f"{SUBS}/{sub['id']}", headers=owner).status_code == 404


def _user_id(client: httpx.Client, h: dict[str, str], email: str) -> str:
    users = client.get("/api/tenants/demo/users?limit=100", headers=h).json()["data"]
    return str(next(u["id"] for u in users if u["email"] == email))


def test_public_publish_route_is_open_and_rate_limited(
    settings: Settings, runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    srv = events_server(settings, runtime, certs, rate_limits="A")
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            owner = auth_headers(c, "owner@demo.test")
            url = receiver.script("/public")
            subscribe(c, owner, url, event_types=["public.order.shipped"])  # issue #35: its own namespace
            body = {"type": "order.shipped", "source": "fulfillment", "data": shipped()}
            r = c.post("/demo/events/api/p/events", json=body)
            assert r.status_code == 201 and r.json()["data"]["deliveries"] == 1
            assert r.headers["X-RateLimit-Limit"] == "60"
            assert len(receiver.wait_for(1, "/public")) == 1
            bad = c.post("/demo/events/api/p/events", json={"type": "nope", "data": {}})
            assert bad.status_code == 400
            codes = [c.post("/demo/events/api/p/events", json=body).status_code for _ in range(60)]
            assert codes.count(201) == 58 and codes[-1] == 429
            last = c.post("/demo/events/api/p/events", json=body)
            assert last.status_code == 429 and last.json()["code"] == "RATE_LIMITED" and "Retry-After" in last.headers
            # Per tenant: the other tenant still has its own budget.
            assert c.post("/other/events/api/p/events", json=body).status_code == 201
            assert c.post("/nosuch/events/api/p/events", json=body).status_code == 404
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def test_private_targets_refused_at_creation(settings: Settings, runtime: Runtime, certs: Certs) -> None:
    srv = events_server(settings, runtime, certs, webhook_allow_private=False)
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            owner = auth_headers(c, "owner@demo.test")
            for url in [
                "https://127.0.0.1/x",
                "https://localhost/x",
                "https://10.1.2.3/x",
                "https://192.168.1.1/",
                "https://172.16.0.1/",
                "https://169.254.169.254/latest",
                "https://100.64.0.1/",
                "https://224.0.0.1/",
                "https://0.0.0.0/",
                "https://[::1]/",
                "https://[fe80::1]/",
                "https://[fc00::1]/",
                "https://[::ffff:127.0.0.1]/",
                "https://[::ffff:10.0.0.1]/",
                "https://240.0.0.1/",
                "https://[ff02::1]/",
            ]:
                r = c.post(
                    SUBS, json={"event_types": ["order.shipped"], "webhook_url": url, "secret": "s"}, headers=owner
                )
                assert r.status_code == 400, (url, r.text)
                assert r.json()["details"]["fields"][0]["field"] == "webhook_url"
            assert c.get(SUBS, headers=owner).json()["meta"]["total"] == 0
            r = c.post(
                SUBS,
                json={"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/hook", "secret": "s"},
                headers=owner,
            )
            assert r.status_code == 201, r.text
    finally:
        srv.stop()
        srv.runtime.db.dispose()
