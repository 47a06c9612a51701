"""Carriers over real HTTP, with the EasyPost-speaking stand-in on loopback (tests/carrier_server.py):
settings never answering the key, address verified before buying (422 naming the field), the rate
picked by the tenant's rule, customs abroad, and a buy answered 500 or never answered: bought once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.settings import Settings
from local_db.models import Tenant
from local_db.models.fulfillment_carriers import CarrierPurchase
from tests.carrier_server import CarrierBehaviour, CarrierServer
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/fulfillment/api"
KEY = "EZTK-test-key"
SHOP = {"name": "Demo Shop", "address1": "1 Dock Rd", "city": "Springfield", "zip": "12345", "country": "US"}
US = {"name": "Bea Buyer", "address1": "12 Main St", "city": "Springfield", "zip": "12345", "country": "US"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    settings.connections_allow_private = True  # the carrier stand-in listens on loopback
    return settings


@pytest.fixture
def carrier() -> Iterator[CarrierServer]:
    c = CarrierServer(CarrierBehaviour(api_key=KEY)).start()
    yield c
    c.stop()


def _setup(client: httpx.Client, h: dict[str, str], carrier: CarrierServer, **extra: Any) -> None:
    body = {"base_url": carrier.url, "api_key": KEY, "rule": "cheapest", "from_address": SHOP, **extra}
    r = client.put(f"{BASE}/settings/carrier", json=body, headers=h)
    assert r.status_code == 200, r.text


def _packed(client: httpx.Client, h: dict[str, str], address: dict[str, str], sku: str = "MUG-CER-01") -> str:
    body = {"customer_name": address["name"], "shipping_address": address, "lines": [{"sku": sku, "quantity": 2}]}
    oid = str(client.post(f"{BASE}/orders", json=body, headers=h).json()["data"]["id"])
    for op in ({"operation": "pick", "items": [{"code": sku, "quantity": 2}]},
               {"operation": "pack", "box": "M", "weight_grams": 900}):  # fmt: skip
        assert client.post(f"{BASE}/orders/{oid}/operations", json=op, headers=h).status_code == 200
    return oid


def _purchases(server: LiveServer) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(CarrierPurchase)).scalar_one())


def test_settings_rates_rule_address_and_customs(
    client: httpx.Client, server: LiveServer, carrier: CarrierServer
) -> None:
    h = auth_headers(client, "owner@demo.test")
    assert client.get(f"{BASE}/settings/carrier", headers=h).json()["data"]["configured"] is False
    bad = {"base_url": "ftp://example.com", "api_key": KEY, "from_address": SHOP}
    assert client.put(f"{BASE}/settings/carrier", json=bad, headers=h).status_code == 400
    no_country = {"base_url": carrier.url, "api_key": KEY, "from_address": {**SHOP, "country": "USA"}}
    assert client.put(f"{BASE}/settings/carrier", json=no_country, headers=h).status_code == 400
    _setup(client, h, carrier)
    got = client.get(f"{BASE}/settings/carrier", headers=h)
    assert got.json()["data"]["base_url"] == carrier.url and KEY not in got.text
    with server.runtime.db.reading(None) as s:
        assert KEY not in str(s.execute(select(Tenant.settings)).all())  # sealed at rest
    # An address the carrier cannot deliver to: 422 naming the field, nothing bought or stored.
    nowhere = _packed(client, h, {**US, "address1": "Main Street"})
    r = client.post(f"{BASE}/orders/{nowhere}/label", json={}, headers=h)
    assert r.status_code == 422 and r.json()["code"] == "ADDRESS_INVALID", r.text
    assert r.json()["details"]["field"] == "shipping_address.address1"
    assert _purchases(server) == 0 and not carrier.state.shipments
    # Cheapest by the tenant's rule; the order ships under the carrier's tracking number.
    oid = _packed(client, h, US)
    r = client.post(f"{BASE}/orders/{oid}/label", json={}, headers=h)
    assert r.status_code == 200, r.text
    label = r.json()["data"]
    assert (label["service"], label["amount"], label["rule"], label["customs"]) == (
        "USPS First",
        "4.50",
        "cheapest",
        None,
    )
    assert len(label["rates"]) == 3 and label["order"]["status"] == "shipped"
    (sid,) = carrier.state.shipments
    assert (
        label["tracking_number"] == carrier.state.shipments[sid]["tracking_code"] == label["order"]["tracking_number"]
    )
    assert carrier.state.shipments[sid]["parcel"] == {"weight": 31.7}  # 900 g in ounces
    again = client.post(f"{BASE}/orders/{oid}/label", json={}, headers=h)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "shipped"
    # Fastest when asked; abroad with its customs form.
    abroad = _packed(client, h, {**US, "city": "Berlin", "zip": "10115", "country": "DE"})
    body = {"rule": "fastest", "declared_values": {"MUG-CER-01": "12.50"}}
    fast = client.post(f"{BASE}/orders/{abroad}/label", json=body, headers=h).json()["data"]
    assert fast["service"] == "UPS NextDayAir" and fast["amount"] == "24.00"
    items = fast["customs"]["customs_items"]
    assert [(i["code"], i["quantity"], i["value"], i["origin_country"]) for i in items] == [
        ("MUG-CER-01", 2, "12.50", "US")
    ]
    sent = next(s for s in carrier.state.shipments.values() if s["reference"] != label["order"]["order_number"])
    assert sent["customs_info"]["customs_items"][0]["value"] == "12.50"
    assert set(carrier.state.purchases.values()) == {1}
    bad_value = client.post(f"{BASE}/orders/{abroad}/label", json={"declared_values": {"X": "lots"}}, headers=h)
    assert bad_value.status_code == 400
    # The built-in carrier checks what a label needs: 422 naming the missing field.
    local = _packed(client, h, {k: v for k, v in US.items() if k != "zip"})
    r = client.post(f"{BASE}/orders/{local}/label", json={"carrier": "local"}, headers=h)
    assert r.status_code == 422 and r.json()["details"]["field"] == "shipping_address.zip"
    assert all(KEY not in a for a in carrier.state.authorizations)  # Basic auth: the key only base64'd


def test_a_buy_answered_500_or_never_is_bought_once(
    client: httpx.Client, server: LiveServer, carrier: CarrierServer
) -> None:
    h = auth_headers(client, "owner@demo.test")
    _setup(client, h, carrier, timeout_seconds=3)
    oid = _packed(client, h, US)
    carrier.behaviour.buy_then_500 = 1  # bought at the carrier, answered 500
    r = client.post(f"{BASE}/orders/{oid}/label", json={}, headers=h)
    assert r.status_code == 502 and r.json()["details"]["reason"] == "unconfirmed", r.text
    assert KEY not in r.text
    assert client.get(f"{BASE}/orders/{oid}", headers=h).json()["data"]["status"] == "packed"
    retry = client.post(f"{BASE}/orders/{oid}/label", json={}, headers=h)
    assert retry.status_code == 200 and retry.json()["data"]["reconciled"] is True, retry.text
    (sid,) = carrier.state.shipments
    assert carrier.state.purchases == {sid: 1}
    assert retry.json()["data"]["tracking_number"] == carrier.state.shipments[sid]["tracking_code"]
    # A buy that never answers: the same, after the timeout.
    other = _packed(client, h, US)
    carrier.behaviour.buy_hangs = 1
    r = client.post(f"{BASE}/orders/{other}/label", json={}, headers=h)
    assert r.status_code == 502 and r.json()["details"]["reason"] == "unconfirmed"
    retry = client.post(f"{BASE}/orders/{other}/label", json={}, headers=h)
    assert retry.status_code == 200 and retry.json()["data"]["order"]["status"] == "shipped", retry.text
    assert sorted(carrier.state.purchases.values()) == [1, 1] and _purchases(server) == 2
