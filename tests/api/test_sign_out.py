"""Sign-out ends the session on the server (issue 13, item 11): the token stops working at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import jwt
from sqlalchemy import func, select

from local_db.models.core import RevokedSession
from tests.conftest import LiveServer, login

PROBE = "/api/tenants/demo/support/tickets"


def test_logout_ends_the_session_token_at_once(client: httpx.Client, server: LiveServer) -> None:
    token = login(client, "admin@demo.test")
    other = login(client, "admin@demo.test")  # another sign-in of the same person
    claims = jwt.decode(token, options={"verify_signature": False})
    assert {"sub", "email", "name", "tenants", "iat", "exp", "iss", "aud", "jti"} <= set(claims)
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get(PROBE, headers=bearer).status_code == 200
    assert client.post("/api/auth/logout", headers=bearer).status_code == 204
    for r in (client.get(PROBE, headers=bearer), client.get("/api/auth/me", headers=bearer),
              client.get(PROBE, headers={"Cookie": f"service_token={token}"})):  # fmt: skip
        assert r.status_code == 401 and r.json() == {"error": "signed out, sign in again", "code": "UNAUTHORIZED"}
    # Only that session ended.
    assert client.get(PROBE, headers={"Authorization": f"Bearer {other}"}).status_code == 200


def test_logout_by_cookie_and_pruning(client: httpx.Client, server: LiveServer) -> None:
    token = login(client, "admin@demo.test")
    with server.runtime.db.transaction(None) as s:  # a row of a session that expired long ago
        s.add(RevokedSession(jti="expired-session", expires_at=datetime.now(UTC) - timedelta(days=2)))
    r = client.post("/api/auth/logout", headers={"Cookie": f"service_token={token}"})
    assert r.status_code == 204 and 'service_token=""' in r.headers["set-cookie"]
    assert client.get(PROBE, headers={"Cookie": f"service_token={token}"}).status_code == 401
    with server.runtime.db.reading(None) as s:
        jtis = set(s.execute(select(RevokedSession.jti)).scalars())
    assert "expired-session" not in jtis and len(jtis) == 1
    # Signing out again, or with no or a bad token, is harmless.
    for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": f"Bearer {token}"}):
        assert client.post("/api/auth/logout", headers=headers).status_code == 204
    with server.runtime.db.reading(None) as s:
        assert s.execute(select(func.count()).select_from(RevokedSession)).scalar_one() == 1


def test_device_logout_ends_the_device_session(client: httpx.Client) -> None:
    base = "/demo/fulfillment/api"
    r = client.post(f"{base}/auth/login", json={"email": "device@demo.test", "password": "demo-password"})
    token = r.json()["data"]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get(f"{base}/orders", headers=bearer).status_code == 200
    assert client.post(f"{base}/auth/logout", headers=bearer).status_code in (200, 204)
    gone = client.get(f"{base}/orders", headers=bearer)
    assert gone.status_code == 401 and gone.json()["code"] == "UNAUTHORIZED"
    # The cookie the device got at sign-in is ended the same way.
    r = client.post(f"{base}/auth/login", json={"email": "device@demo.test", "password": "demo-password"})
    cookie = {"Cookie": f"service_token={r.json()['data']['token']}"}
    assert client.post(f"{base}/auth/logout", headers=cookie).status_code in (200, 204)
    assert client.get(f"{base}/orders", headers=cookie).status_code == 401
