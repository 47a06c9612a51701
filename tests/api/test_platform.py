"""The platform front door against a real uvicorn server: auth, keys, users, errors, limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
import pytest
from sqlalchemy import select

from app.settings import Settings
from local_db.models import Tenant
from services.core import auth
from services.core.commands import REGISTRY, use_case
from services.core.context import Ctx
from services.core.pagination import ListQuery
from services.core.roles import ANYONE
from tests.conftest import LiveServer, auth_headers, dump_database, login, start_server


@use_case("test.probe", "GET /_probe", tx="read", module="docs", roles=ANYONE)
def _probe(ctx: Ctx, query: ListQuery) -> dict[str, Any]:
    return {"tenant": ctx.tenant.slug if ctx.tenant else None, "principal": ctx.principal.kind}


# A read-only module route for checking module access (mounted on servers built after import).
PROBE = REGISTRY["test.probe"]


def _key(client: httpx.Client, modules: list[str], **extra: Any) -> str:
    h = auth_headers(client, "owner@demo.test")
    r = client.post("/api/tenants/demo/api-keys", json={"name": "k", "modules": modules, **extra}, headers=h)
    assert r.status_code == 201, r.text
    return str(r.json()["data"]["key"])


def test_login_sets_the_spec_cookie(client: httpx.Client, server: LiveServer) -> None:
    r = client.post("/api/auth/login", json={"email": "owner@demo.test", "password": "demo-password"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    attrs = {a.strip().split("=")[0].lower() for a in cookie.split(";")}
    assert {"httponly", "secure", "max-age", "path"} <= attrs and "samesite=lax" in cookie.lower()
    assert "max-age=86400" in cookie.lower()
    token = cookie.split(";")[0].split("=", 1)[1]
    claims = jwt.decode(token, server.runtime.secret_key, algorithms=["HS256"], audience=auth.AUDIENCE,
                        issuer=auth.ISSUER)  # fmt: skip
    assert claims["exp"] - claims["iat"] == 86400
    assert claims["email"] == "owner@demo.test" and claims["name"] == "Olivia Owner"
    assert claims["tenants"][0]["userModules"] and claims["tenants"][0]["modules"]
    # The cookie authenticates later calls.
    me = client.get("/api/auth/me", headers={"Cookie": f"service_token={token}"})
    assert me.status_code == 200 and me.json()["data"]["email"] == "owner@demo.test"
    assert client.get("/api/tenants/demo/me", headers={"Cookie": f"service_token={token}"}).status_code == 200
    out = client.post("/api/auth/logout")
    assert out.status_code == 204 and "service_token=" in out.headers["set-cookie"]


def test_login_failures(client: httpx.Client) -> None:
    bad = client.post("/api/auth/login", json={"email": "owner@demo.test", "password": "nope"})
    ghost = client.post("/api/auth/login", json={"email": "ghost@demo.test", "password": "nope"})
    assert bad.status_code == ghost.status_code == 401
    assert bad.json() == ghost.json() == {"error": "e-mail or password is not correct", "code": "UNAUTHORIZED"}
    assert client.post("/api/auth/login", json={"email": "not-an-email", "password": "x"}).status_code == 400


def test_api_key_flow_on_a_module_route(client: httpx.Client) -> None:
    key = _key(client, ["docs"])
    for headers in ({"X-API-Key": key}, {"Authorization": f"Bearer {key}"}):
        r = client.get("/demo/docs/api/_probe", headers=headers)
        assert r.status_code == 200 and r.json()["data"] == {"tenant": "demo", "principal": "api_key"}
    # Outside its module scope: 403; another tenant: 403; tenant settings: 403.
    scoped = _key(client, ["qr"])
    assert client.get("/demo/docs/api/_probe", headers={"X-API-Key": scoped}).json()["code"] == "FORBIDDEN"
    assert client.get("/other/docs/api/_probe", headers={"X-API-Key": key}).status_code == 403
    assert client.get("/api/tenants/demo/users", headers={"X-API-Key": key}).status_code == 403
    # Revoked and unknown keys: 401.
    h = auth_headers(client, "owner@demo.test")
    kid = client.get("/api/tenants/demo/api-keys", headers=h).json()["data"][0]["id"]
    listed = client.get("/api/tenants/demo/api-keys", headers=h).json()["data"]
    assert all("key" not in k for k in listed)
    revoked_key = next(k for k in [key, scoped] if k[:12] == next(x for x in listed if x["id"] == kid)["prefix"])
    assert client.delete(f"/api/tenants/demo/api-keys/{kid}", headers=h).json()["data"]["status"] == "revoked"
    assert client.get("/demo/docs/api/_probe", headers={"X-API-Key": revoked_key}).status_code == 401
    assert client.get("/demo/docs/api/_probe", headers={"X-API-Key": "pk_live_nothing"}).status_code == 401


def test_expired_key_is_401(client: httpx.Client, server: LiveServer) -> None:
    from services.core.clock import FixedClock

    later = datetime.now(UTC) + timedelta(hours=1)
    key = _key(client, ["docs"], expires_at=later.isoformat())
    assert client.get("/demo/docs/api/_probe", headers={"X-API-Key": key}).status_code == 200
    # The platform's clock moves past the expiry (a real wait made the test depend on the load).
    clock, server.runtime.clock = server.runtime.clock, FixedClock(later + timedelta(seconds=1))
    try:
        r = client.get("/demo/docs/api/_probe", headers={"X-API-Key": key})
    finally:
        server.runtime.clock = clock
    assert r.status_code == 401 and r.json() == {"error": "API key expired", "code": "UNAUTHORIZED"}


def test_credentials_and_tokens(client: httpx.Client, server: LiveServer) -> None:
    assert client.get("/demo/docs/api/_probe").status_code == 401
    token = login(client, "owner@demo.test")
    claims = jwt.decode(token, options={"verify_signature": False})
    secret = server.runtime.secret_key
    cases = {
        "bad signature": jwt.encode(claims, "x" * 40, algorithm="HS256"),
        "wrong audience": jwt.encode({**claims, "aud": "other"}, secret, algorithm="HS256"),
        "expired": jwt.encode({**claims, "iat": claims["iat"] - 90000, "exp": claims["iat"] - 3600}, secret,
                              algorithm="HS256"),
    }  # fmt: skip
    for name, bad in cases.items():
        r = client.get("/demo/docs/api/_probe", headers={"Authorization": f"Bearer {bad}"})
        assert r.status_code == 401, name
        assert r.json()["code"] == "UNAUTHORIZED"
        assert bad not in r.text


def test_roles_and_module_access(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")  # upgrade, support, inventory only
    assert client.get("/demo/docs/api/_probe", headers=op).status_code == 403
    assert client.get("/api/tenants/demo/users", headers=op).status_code == 403
    assert client.post("/api/tenants/demo/api-keys", json={"name": "k", "modules": ["qr"]},
                       headers=auth_headers(client, "admin@demo.test")).status_code == 403  # fmt: skip
    owner = auth_headers(client, "owner@demo.test")
    assert client.get("/api/tenants/other/users", headers=owner).status_code == 403
    assert client.get("/demo/nosuchmodule/api/_probe", headers=owner).status_code == 404
    assert client.get("/nosuchtenant/docs/api/_probe", headers=owner).json()["code"] == "NOT_FOUND"


def test_module_not_enabled_and_suspended_tenant(client: httpx.Client, server: LiveServer) -> None:
    owner = auth_headers(client, "owner@demo.test")
    with server.runtime.db.transaction(None) as s:
        t = s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one()
        t.modules = [m for m in t.modules if m != "docs"]
    assert client.get("/demo/docs/api/_probe", headers=owner).status_code == 403
    with server.runtime.db.transaction(None) as s:
        s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one().status = "suspended"
    r = client.get("/api/tenants/demo/users", headers=owner)
    assert r.status_code == 403 and r.json()["code"] == "TENANT_INACTIVE"


def test_bad_input(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    url = "/api/tenants/demo/users"
    good = {"email": "n@demo.test", "name": "N", "password": "long-enough", "role": "operator", "userModules": []}
    malformed = client.post(url, content=b'{"email": ', headers={**h, "Content-Type": "application/json"})
    assert malformed.status_code == 400 and malformed.json()["code"] == "VALIDATION_ERROR"
    wrong_type = client.post(
        url, content=b"email=x", headers={**h, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert wrong_type.status_code == 400 and "Content-Type" in wrong_type.json()["error"]
    missing = client.post(url, json={"email": "n@demo.test"}, headers=h)
    assert missing.status_code == 400 and {f["field"] for f in missing.json()["details"]["fields"]} >= {
        "name",
        "password",
    }
    assert client.post(url, json={**good, "is_root": True}, headers=h).status_code == 400
    assert client.post(url, json={**good, "role": 7}, headers=h).status_code == 400
    assert client.post(url, json=[good], headers=h).status_code == 400
    assert client.post(url, json={**good, "userModules": ["teleport"]}, headers=h).status_code == 400
    big = client.post(url, content=b'{"name":"' + b"x" * (1024 * 1024 + 10) + b'"}',
                      headers={**h, "Content-Type": "application/json"})  # fmt: skip
    assert big.status_code == 413 and big.json()["code"] == "PAYLOAD_TOO_LARGE"
    assert client.post(url, json=good, headers=h).status_code == 201
    dup = client.post(url, json={**good, "email": "N@demo.test"}, headers=h)
    assert dup.status_code == 409 and dup.json()["code"] == "CONFLICT"
    users = client.get(url, headers=h).json()
    assert users["meta"]["total"] == 5  # nothing half-written by the failures above


def test_pagination_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    url = "/api/tenants/demo/users"
    a = client.get(url, params={"page": 2, "limit": 3, "sort": "email"}, headers=h).json()
    assert a["meta"] == {"page": 2, "limit": 3, "total": 4} and a["pagination"]["offset"] == 3
    assert [u["email"] for u in a["data"]] == ["owner@demo.test"]
    b = client.get(url, params={"offset": 1, "limit": 2, "sort": "-email"}, headers=h).json()
    assert [u["email"] for u in b["data"]] == ["operator@demo.test", "device@demo.test"]
    assert b["pagination"] == {"total": 4, "limit": 2, "offset": 1}
    assert client.get(url, params={"limit": 1000}, headers=h).json()["meta"]["limit"] == 100
    for params in ({"limit": 0}, {"page": -1}, {"page": "x"}, {"offset": -1}, {"sort": "password_hash"}):
        r = client.get(url, params=params, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", params


def test_openapi_and_unknown_routes(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    assert "/api/tenants/{tenant}/api-keys" in doc["paths"] and doc["info"]["version"]
    assert "ApiKeyCreate" in str(doc)
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"


@pytest.fixture
def limited(settings: Settings, runtime: Any) -> Any:
    runtime.db.dispose()
    srv = start_server(
        settings, rate_limits="A", allowed_origins="https://app.example.com", cookie_domain="platform.example.test"
    )
    yield srv
    srv.stop()


def test_rate_limits_and_cors(limited: LiveServer) -> None:
    with httpx.Client(base_url=limited.url) as c:
        ok_login = c.post("/api/auth/login", json={"email": "operator@demo.test", "password": "demo-password"})
        assert "domain=platform.example.test" in ok_login.headers["set-cookie"].lower()
        token = ok_login.json()["data"]["token"]
        statuses = [c.post("/api/auth/login", json={"email": "ghost@demo.test", "password": "x"}) for _ in range(5)]
        assert [r.status_code for r in statuses] == [401] * 4 + [429]
        r = statuses[-1]
        assert r.json()["code"] == "RATE_LIMITED" and r.json()["retryAfter"] >= 1
        assert int(r.headers["Retry-After"]) >= 1 and r.headers["X-RateLimit-Remaining"] == "0"
        assert r.headers["X-RateLimit-Limit"] == "5" and int(r.headers["X-RateLimit-Reset"]) > 0
        # A refused call on a limited route still carries the limit headers.
        denied = c.get("/api/tenants/demo/users", headers={"Authorization": f"Bearer {token}"})
        assert denied.status_code == 403 and denied.headers["X-RateLimit-Limit"] == "100"
        assert denied.headers["X-RateLimit-Remaining"] == "99"
        ok = c.options("/api/tenants/demo/users", headers={"Origin": "https://app.example.com",
                                                             "Access-Control-Request-Method": "GET"})  # fmt: skip
        assert ok.headers.get("access-control-allow-origin") == "https://app.example.com"
        bad = c.options("/api/tenants/demo/users", headers={"Origin": "https://evil.example",
                                                              "Access-Control-Request-Method": "GET"})  # fmt: skip
        assert "access-control-allow-origin" not in bad.headers


def test_https_redirect(settings: Settings, runtime: Any) -> None:
    runtime.db.dispose()
    srv = start_server(settings, force_https=True, rate_limits="off")
    try:
        with httpx.Client(base_url=srv.url) as c:
            r = c.get("/api/tenants/demo/users?page=2")
            assert r.status_code == 308
            assert r.headers["location"].startswith("https://127.0.0.1:") and r.headers["location"].endswith("?page=2")
            # Behind a trusted proxy that terminated TLS, the request goes through.
            assert c.get("/api/tenants/demo/users", headers={"X-Forwarded-Proto": "https"}).status_code == 401
            assert c.get("/health").status_code == 200
    finally:
        srv.stop()


def test_duplicate_submit_with_idempotency_key(client: httpx.Client, server: LiveServer) -> None:
    h = {**auth_headers(client, "owner@demo.test"), "Idempotency-Key": "create-erp-key-1"}
    a = client.post("/api/tenants/demo/api-keys", json={"name": "ERP", "modules": ["docs"]}, headers=h)
    b = client.post("/api/tenants/demo/api-keys", json={"name": "ERP", "modules": ["docs"]}, headers=h)
    assert a.status_code == b.status_code == 201
    first = a.json()["data"]
    assert b.json()["data"] == {k: v for k, v in first.items() if k != "key"}
    # The key is shown once: the replay does not carry it, and it is stored nowhere.
    dump = dump_database(server.runtime)
    assert first["name"] in dump and first["key"] not in dump
    listed = client.get("/api/tenants/demo/api-keys", headers=h).json()
    assert listed["meta"]["total"] == 1
    c = client.post("/api/tenants/demo/api-keys", json={"name": "Other", "modules": ["docs"]}, headers=h)
    assert c.status_code == 409 and c.json()["code"] == "CONFLICT"


def test_reserved_slugs_are_never_tenants(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")
    for slug in ("static", "health"):
        r = client.get(f"/{slug}/docs/api/_probe", headers=owner)
        assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
