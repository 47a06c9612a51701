"""Tenant settings: owners and admins enable or disable modules; access follows at once."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

S = "/api/tenants/demo/settings"


def test_modules_are_enabled_and_disabled_by_managers_and_access_follows(client: httpx.Client) -> None:
    admin = auth_headers(client, "admin@demo.test")
    operator = auth_headers(client, "operator@demo.test")
    now = client.get(S, headers=admin).json()["data"]
    assert "upgrade" in now["modules"] and now["slug"] == "demo"
    assert client.get("/demo/upgrade/api/admin/stats", headers=operator).status_code == 200
    off = sorted(set(now["modules"]) - {"upgrade"})
    r = client.put(S + "/modules", json={"modules": off}, headers=admin)
    assert r.status_code == 200 and "upgrade" not in r.json()["data"]["modules"]
    blocked = client.get("/demo/upgrade/api/admin/stats", headers=operator)
    assert blocked.status_code == 403 and blocked.json()["code"] == "FORBIDDEN"
    # Turned on again, the operator's own module list was kept: access comes back as it was.
    assert client.put(S + "/modules", json={"modules": now["modules"]}, headers=admin).status_code == 200
    assert client.get("/demo/upgrade/api/admin/stats", headers=operator).status_code == 200


def test_settings_refuse_the_wrong_role_tenant_and_input(client: httpx.Client) -> None:
    operator = auth_headers(client, "operator@demo.test")
    assert client.get(S, headers=operator).status_code == 403
    assert client.put(S + "/modules", json={"modules": ["support"]}, headers=operator).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.put(S + "/modules", json={"modules": ["support"]}, headers=other).status_code in (401, 403)
    admin = auth_headers(client, "admin@demo.test")
    bad = client.put(S + "/modules", json={"modules": ["teleport"]}, headers=admin)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert client.put(S + "/modules", json={}, headers=admin).status_code == 400
    assert "support" in client.get(S, headers=admin).json()["data"]["modules"]  # nothing was written
