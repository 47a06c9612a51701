"""The e-commerce sync against a real server and a small local shop that throttles and fails on
purpose: every active product reaches the shop once, a 429 is waited out as its Retry-After says,
a write answered 500 is looked up before it is repeated, and a re-run pushes only what changed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.settings import Settings
from local_db.models import Event
from tests.conftest import LiveServer, auth_headers
from tests.shop_server import Shop, ShopBehaviour

BASE = "/demo/catalog/api"
CONN = "/demo/tax/api/connections/ecommerce"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    settings.connections_allow_private = True  # the shop listens on loopback
    return settings


@pytest.fixture
def shop() -> Iterator[Shop]:
    s = Shop(ShopBehaviour(rate=40, retry_after=1, force_429_every=12, apply_then_500_every=7)).start()
    yield s
    s.stop()


def _until_done(client: httpx.Client, h: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while True:
        d = client.get(f"{BASE}/ecommerce/sync/status", headers=h).json()["data"]
        if d["status"] in ("succeeded", "failed", "cancelled") or time.monotonic() > deadline:
            return d
        time.sleep(0.05)


def _active_skus(client: httpx.Client, h: dict[str, str]) -> set[str]:
    skus: set[str] = set()
    page = 1
    while True:
        r = client.get(f"{BASE}/products", params={"status": "active", "limit": 100, "page": page}, headers=h).json()
        skus |= {p["sku"] for p in r["data"]}
        if page * 100 >= r["meta"]["total"]:
            return skus
        page += 1


def test_sync_pushes_every_active_product_once_through_429s_and_failures(
    client: httpx.Client, server: LiveServer, shop: Shop
) -> None:
    h = auth_headers(client, "owner@demo.test")
    # No connection yet: 409.
    assert client.get(f"{BASE}/ecommerce/sync/status", headers=h).json()["data"]["status"] == "never"
    no_conn = client.post(f"{BASE}/ecommerce/sync", json={}, headers=h)
    assert no_conn.status_code == 409 and no_conn.json()["details"]["current_state"] == "not_connected"
    # A wrong key is refused by the shop's check call.
    bad = client.post(
        CONN, json={"provider": "generic", "base_url": shop.url, "credentials": {"api_key": "nope"}}, headers=h
    )
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    saved = client.post(
        CONN,
        json={"provider": "generic", "base_url": shop.url, "rate_limit": 40, "credentials": {"api_key": "shop-key-1"}},
        headers=h,
    )
    assert saved.status_code == 200, saved.text
    conn = client.get(CONN, headers=h).json()["data"]
    assert conn["connected"] and conn["account_name"] == "Demo Shop" and "shop-key-1" not in str(conn)
    assert client.get(CONN, headers=auth_headers(client, "device@demo.test")).status_code == 403

    for i in range(20):
        body = {
            "sku": f"SYNC-{i:03d}",
            "name": f"Synced product {i}",
            "description": "d",
            "status": "active",
            "variants": [{"sku": f"SYNC-{i:03d}-A", "options": {"size": "A"}, "price": "1.00"}],
        }
        assert client.post(f"{BASE}/products", json=body, headers=h).status_code == 201
    expected = _active_skus(client, h)

    r = client.post(f"{BASE}/ecommerce/sync", json={}, headers=h)
    assert r.status_code == 201, r.text
    done = _until_done(client, h)
    assert done["status"] == "succeeded", done
    assert done["pushed"] == len(expected) == done["total"] and done["failed"] == 0
    held = shop.by_sku()
    assert set(held) == expected  # 0 missing, nothing extra
    assert all(len(v) == 1 for v in held.values())  # 0 duplicates
    assert held["TSH"][0]["variants"][0]["sku"] == "TSH-BLK-M" and held["TSH"][0]["translations"]["de"]["name"]
    # The shop did throttle and fail, the client waited as told and never wrote twice for a 500 it could look up.
    assert shop.state.throttled > 0 and shop.state.failed_after_apply > 0 and done["retries"] > 0
    assert shop.state.early == 0
    with server.runtime.db.reading(None) as s:
        events = [e.data for e in s.execute(select(Event).where(Event.type == "ecommerce.sync_completed")).scalars()]
    assert events and events[-1]["pushed"] == len(expected) and events[-1]["job_id"] == done["job_id"]

    # Re-running pushes nothing that did not change; a changed product goes again, still once.
    puts = shop.state.puts
    assert client.post(f"{BASE}/ecommerce/sync", json={}, headers=h).status_code == 201
    again = _until_done(client, h)
    assert again["status"] == "succeeded" and again["pushed"] == 0 and again["unchanged"] == len(expected)
    assert shop.state.puts == puts
    client.put(f"{BASE}/products/SYNC-007", json={"name": "Renamed"}, headers=h)
    assert client.post(f"{BASE}/ecommerce/sync", json={}, headers=h).status_code == 201
    third = _until_done(client, h)
    assert third["pushed"] == 1 and shop.by_sku()["SYNC-007"][0]["name"] == "Renamed"
    assert all(len(v) == 1 for v in shop.by_sku().values())
    # A full sync pushes everything again, and still makes no duplicate.
    assert client.post(f"{BASE}/ecommerce/sync", json={"full": True}, headers=h).status_code == 201
    assert _until_done(client, h)["pushed"] == len(expected)
    assert len(shop.state.records) == len(expected)

    # A synced product has history: deleting it archives it. Removing the connection stops syncs.
    assert client.delete(f"{BASE}/products/SYNC-001", headers=h).json()["data"]["status"] == "archived"
    assert client.delete(CONN, headers=h).json()["data"]["connected"] is False
    assert client.post(f"{BASE}/ecommerce/sync", json={}, headers=h).status_code == 409


def test_connection_input_and_strangers(client: httpx.Client, shop: Shop) -> None:
    h = auth_headers(client, "owner@demo.test")
    for body in (
        {"base_url": shop.url, "credentials": {}},
        {"base_url": shop.url, "credentials": {"api_key": "k", "secret": "s"}},
        {"base_url": "ftp://example.com", "credentials": {"api_key": "k"}},
        {"base_url": "http://user:pw@127.0.0.1:1", "credentials": {"api_key": "k"}},
        {"provider": "shopify", "base_url": shop.url, "credentials": {"api_key": "k"}},
        {"base_url": shop.url, "credentials": {"api_key": "k"}, "rate_limit": 0},
    ):
        r = client.post(CONN, json=body, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", body
    operator = auth_headers(client, "operator@demo.test")
    assert client.post(f"{BASE}/ecommerce/sync", json={}, headers=operator).status_code == 403
    assert client.post(
        CONN,
        json={"base_url": shop.url, "credentials": {"api_key": "shop-key-1"}},
        headers=auth_headers(client, "owner@other.test"),
    ).status_code in (401, 403)
    assert client.post(f"{BASE}/ecommerce/sync", json={"full": "yes please"}, headers=h).status_code == 400
