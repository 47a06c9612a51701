"""The audit log through the real API: who changed keys, settings and subscriptions, secrets masked."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

A = "/api/tenants/demo/audit"


def test_changes_are_logged_newest_first_masked_filtered_and_kept_to_the_tenant(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")
    made = client.post("/api/tenants/demo/api-keys", json={"name": "erp", "modules": ["support"]}, headers=owner)
    assert made.status_code == 201, made.text
    key = made.json()["data"]
    assert client.delete(f"/api/tenants/demo/api-keys/{key['id']}", headers=owner).status_code == 200
    assert client.put("/demo/events/api/settings", json={"public_publish": True}, headers=owner).status_code == 200
    sub = client.post(
        "/demo/events/api/subscriptions",
        json={
            "event_types": ["order.shipped"],
            "target": "webhook",
            "webhook_url": "https://hooks.example.com/in",
            "secret": "whsec-very-secret-value",
        },
        headers=owner,
    )
    assert sub.status_code == 201, sub.text

    r = client.get(A, headers=owner)
    assert r.status_code == 200, r.text
    body = r.json()
    entries = body["data"]
    assert body["meta"]["page"] == 1 and body["meta"]["total"] == len(entries) == 4
    assert [e["kind"] for e in entries] == [
        "webhook_subscription.created",
        "settings.changed",
        "api_key.revoked",
        "api_key.created",
    ]
    assert [e["at"] for e in entries] == sorted((e["at"] for e in entries), reverse=True)
    first = entries[-1]
    assert first["record_id"] == key["id"] and first["changes"]["name"] == "erp"
    assert first["actor"]["email"] == "owner@demo.test" and first["actor"]["kind"] == "user"
    assert first["ip"] == "127.0.0.1"
    assert entries[1]["changes"] == {"public_publish": True}
    assert entries[0]["record_id"] == sub.json()["data"]["id"]
    assert entries[0]["changes"]["secret"] == "***"
    # Neither the new key's value nor the subscription's secret is anywhere in the log.
    assert key["key"] not in r.text and "whsec-very-secret-value" not in r.text

    def kinds(**params: str) -> list[str]:
        got = client.get(A, params=params, headers=owner)
        assert got.status_code == 200, got.text
        return [e["kind"] for e in got.json()["data"]]

    assert kinds(kind="api_key.revoked") == ["api_key.revoked"]
    assert len(kinds(actor="owner@demo.test")) == 4 and kinds(actor=first["actor"]["id"], kind="x") == []
    assert kinds(actor="admin@demo.test") == []
    today = first["at"][:10]
    assert len(kinds(**{"from": today, "to": today})) == 4
    assert kinds(**{"from": "2001-01-01", "to": "2001-01-02T00:00:00Z"}) == []
    assert kinds(**{"to": first["at"]}) == ["api_key.created"]  # an exact ``to`` is inclusive
    assert kinds(limit="2") == kinds()[:2]
    for bad in ({"from": "yesterday"}, {"to": "2026-13-01"}, {"page": "0"}, {"sort": "actor"}):
        b = client.get(A, params=bad, headers=owner)
        assert b.status_code == 400 and b.json()["code"] == "VALIDATION_ERROR", bad

    # Admins read it; other roles are refused; another tenant never sees these entries.
    assert client.get(A, headers=auth_headers(client, "admin@demo.test")).status_code == 200
    assert client.get(A, headers=auth_headers(client, "operator@demo.test")).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(A, headers=other).status_code in (401, 403)
    mine = client.get("/api/tenants/other/audit", headers=other)
    assert mine.status_code == 200 and mine.json()["data"] == []


def test_a_refused_change_logs_nothing(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")
    bad = client.post("/api/tenants/demo/api-keys", json={"name": "x", "modules": ["teleport"]}, headers=owner)
    assert bad.status_code == 400
    assert client.get(A, headers=owner).json()["data"] == []
