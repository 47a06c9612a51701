"""The portals' rules seen over HTTP: a form without its CSRF token does nothing, the session
cookie stays on its portal, a German visitor reads German, another module's token opens nothing."""

from __future__ import annotations

import re

import httpx
from sqlalchemy import func, select

from local_db.models.upgrade import UpgradeCustomer
from tests.conftest import LiveServer


def _accounts(srv: LiveServer) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(UpgradeCustomer)).scalar_one())


def test_portal_csrf_cookie_scope_and_language(pages_server: LiveServer) -> None:
    before = _accounts(pages_server)
    form = {"name": "Mallory", "email": "mallory@example.com", "password": "a-long-password"}
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        # A cross-site POST carries no token: refused, nothing stored.
        r = c.post("/demo/upgrade/p/register", data=form)
        assert r.status_code == 403 and "expired" in r.text
        assert _accounts(pages_server) == before
        page = c.get("/demo/upgrade/p/register")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        r = c.post("/demo/upgrade/p/register", data={**form, "csrf_token": token.group(1)})
        assert r.status_code == 303 and r.headers["location"] == "/demo/upgrade/p/"
        cookie = next(v for k, v in r.headers.multi_items() if k == "set-cookie" and v.startswith("portal_upgrade="))
        assert "HttpOnly" in cookie and "Path=/demo/upgrade/p" in cookie and "SameSite=lax" in cookie
        assert _accounts(pages_server) == before + 1
        assert "Mallory" in c.get("/demo/upgrade/p/").text  # signed in
        # The trade-in token opens nothing in another portal: it is that portal's sign-in page.
        c.cookies.set("portal_rewards", c.cookies["portal_upgrade"], path="/demo/rewards/p")
        other = c.get("/demo/rewards/p/catalogue")
        assert other.status_code == 303 and other.headers["location"].endswith("/demo/rewards/p/signin")
        de = c.get("/demo/upgrade/p/quote", headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert de.headers["content-language"] == "de" and "Preis ermitteln" in de.text
