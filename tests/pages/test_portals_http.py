"""The portals' rules seen over HTTP: a form without its CSRF token does nothing, the session
cookie stays on its portal, a German visitor reads German, another module's token opens nothing."""

from __future__ import annotations

import re

import httpx
from sqlalchemy import func, select

from local_db.models.upgrade import UpgradeCustomer
from services.aftersale.pages import STATUS_NAMES
from services.core.demo import DEMO_PASSWORD
from tests.conftest import LiveServer, auth_headers


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


def _signed_in(c: httpx.Client, module: str, email: str) -> dict[str, str]:
    """The customer's API token, also set as the portal's session cookie."""
    r = c.post(f"/demo/{module}/api/auth/login", json={"email": email, "password": DEMO_PASSWORD})
    assert r.status_code == 200, r.text
    token = str(r.json()["data"]["token"])
    c.cookies.set(f"portal_{module}", token, path=f"/demo/{module}/p")
    return {"Authorization": f"Bearer {token}"}


def _api(c: httpx.Client, path: str, h: dict[str, str]) -> list[dict[str, object]]:
    r = c.get(path, params={"limit": 50, "sort": "created_at", "order": "desc"}, headers=h)
    assert r.status_code == 200, r.text
    return list(r.json()["data"])


def test_signed_in_pages_list_what_the_apis_list(pages_server: LiveServer) -> None:
    """The portals' home pages read their rows themselves (issue 33: the list use cases' machinery
    was most of their CPU): they must show the rows, order and figures the APIs answer."""
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        h = _signed_in(c, "upgrade", "customer@demo.test")
        subs = _api(c, "/demo/upgrade/api/submissions", h)
        assert subs, "the demo customer has trade-ins"
        page = c.get("/demo/upgrade/p/").text
        assert re.findall(r"Serial number: ([^ <]+)", page) == [x["serial_number"] for x in subs]
        quotes = [f"{x['declared_value']:.2f} {x['currency']}" for x in subs if x["declared_value"] is not None]
        assert re.findall(r"Quote: ([^<]+)</p>", page) == quotes and quotes

        h = _signed_in(c, "aftersale", "customer@demo.test")
        warranties = _api(c, "/demo/aftersale/api/warranties", h)
        claims = _api(c, "/demo/aftersale/api/claims", h)
        assert warranties and claims, "the demo customer has products and claims"
        page = c.get("/demo/aftersale/p/").text
        shown = re.findall(r"Serial number: ([^ ]+) · Covered until ([\d-]+)", page)
        assert shown == [(w["serial_number"], w["coverage_until"]) for w in warranties]
        assert re.findall(r'<span class="status">([^<]+)</span>', page) == [
            STATUS_NAMES[str(x["status"])] for x in warranties + claims
        ]
        assert re.findall(r"</span> ([^ ]+) · [\d-]+\s*<p>([^<]*)</p>", page) == [
            (x["serial_number"], x["description"]) for x in claims
        ]

        h = _signed_in(c, "rewards", "dealer@demo.test")
        ledger = _api(c, "/demo/rewards/api/points/ledger", h)
        points = c.get("/demo/rewards/api/points", headers=h).json()["data"]
        page = c.get("/demo/rewards/p/").text
        assert f'<p class="big" id="balance">{points["balance"]:,} points</p>' in page
        rows = re.findall(r'<td class="num">(-?[\d,]+)</td><td class="num">([\d,]+)</td></tr>', page)
        assert rows == [(f"{e['points']:,}", f"{e['balance_after']:,}") for e in ledger[:20]] and rows
        r = c.get("/demo/rewards/api/products", params={"limit": 100, "sort": "points", "order": "asc"}, headers=h)
        products = r.json()["data"]
        page = c.get("/demo/rewards/p/catalogue").text
        assert f"You have {points['balance']:,} points." in page
        shown = re.findall(r"<li><strong>([^<]+)</strong> · ([\d,]+) points", page)
        assert shown == [(p["name"], f"{p['points']:,}") for p in products] and shown
        redeemable = re.findall(r'/demo/rewards/p/redeem/([\w-]+)"', page)
        assert redeemable == [p["id"] for p in products if p["stock"] > 0]


def test_the_points_page_follows_changed_rules_and_tiers_at_the_next_visit(pages_server: LiveServer) -> None:
    """The points page keeps the program's settings, earning rules and tiers in the server process
    (issue 33: they were two of its ten round trips); triggers on their tables bump the cache's
    version (migration 0902). Staff adding a rule or changing a tier over the API change the points waiting
    for review at the dealer's very next visit, to what the API answers; its receipts are the
    API's, newest first."""
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        staff = auth_headers(c, "owner@demo.test")
        h = _signed_in(c, "rewards", "dealer@demo.test")

        def shown() -> tuple[int, list[str]]:
            page = c.get("/demo/rewards/p/").text
            waiting = re.search(r"([\d,]+) points waiting for review", page)
            retailers = re.findall(r"<li>([^<]+?) · \d{4}-\d\d-\d\d · ", page)
            return int(waiting.group(1).replace(",", "")) if waiting else 0, retailers

        def answered() -> int:
            r = c.get("/demo/rewards/api/points", headers=h)
            assert r.status_code == 200, r.text
            return int(r.json()["data"]["pending"])

        pending, retailers = shown()
        assert retailers == [x["retailer"] for x in _api(c, "/demo/rewards/api/receipts", h)[:20]] and retailers
        assert pending == answered() > 0, "the demo dealer has receipts waiting"

        r = c.post(
            "/demo/rewards/api/admin/earning-rules", json={"name": "Double points", "multiplier": "2"}, headers=staff
        )
        assert r.status_code == 201, r.text
        rule = r.json()["data"]["id"]
        doubled, _ = shown()
        assert doubled == answered() > pending

        # The dealer's tier multiplies by more.
        tier = c.get("/demo/rewards/api/points", headers=h).json()["data"]["tier"]["tier"]
        body = {k: tier[k] for k in ("name", "threshold", "benefits")}
        r = c.put(f"/demo/rewards/api/admin/tiers/{tier['id']}", json={**body, "multiplier": "3"}, headers=staff)
        assert r.status_code == 200 and float(tier["multiplier"]) < 3, (r.text, tier)
        tiered, _ = shown()
        assert tiered == answered() > doubled

        r = c.delete(f"/demo/rewards/api/admin/earning-rules/{rule}", headers=staff)
        assert r.status_code in (200, 204), r.text
        undoubled, _ = shown()
        assert undoubled == answered() < tiered
