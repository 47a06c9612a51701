"""Return labels over real HTTP: Local Post offline, and the EasyPost stand-in with ``is_return``; bought
once through a carrier 500 and a carrier that never answers; no address is 422 naming the field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.api.fulfillment.test_carrier_routes import KEY, SHOP, US, _packed, _setup
from tests.carrier_server import CarrierBehaviour, CarrierServer
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/fulfillment/api"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    settings.connections_allow_private = True  # the carrier stand-in listens on loopback
    return settings


@pytest.fixture
def carrier() -> Iterator[CarrierServer]:
    c = CarrierServer(CarrierBehaviour(api_key=KEY)).start()
    yield c
    c.stop()


def _shipped_return(client: httpx.Client, h: dict[str, str], address: dict[str, str]) -> str:
    oid = _packed(client, h, address)
    assert client.post(f"{BASE}/orders/{oid}/operations", json={"operation": "ship", "carrier": "local"},
                       headers=h).status_code == 200  # fmt: skip
    body = {"lines": [{"sku": "MUG-CER-01", "quantity": 1}], "reason": "chipped"}
    r = client.post(f"{BASE}/orders/{oid}/returns", json=body, headers=h)
    assert r.status_code == 201, r.text
    return str(r.json()["data"]["id"])


def _label(client: httpx.Client, h: dict[str, str], rid: str, **body: Any) -> httpx.Response:
    return client.post(f"{BASE}/returns/{rid}/label", json=body, headers=h)


def test_a_local_post_return_label_is_made_once_and_printed(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    rid = _shipped_return(client, h, US)
    assert client.get(f"{BASE}/returns/{rid}/label", headers=h).status_code == 404  # none yet
    first = _label(client, h, rid)
    assert first.status_code == 200, first.text
    got = first.json()["data"]
    assert got["carrier"] == "local" and got["tracking_number"].startswith("LP") and got["label_id"]
    again = _label(client, h, rid).json()["data"]
    assert again["tracking_number"] == got["tracking_number"]  # made once
    pdf = client.get(f"{BASE}/returns/{got['rma_number']}/label", headers=h)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    # No address to come from: 422 naming the field, no label.
    nowhere = _shipped_return(client, h, {k: v for k, v in US.items() if k != "address1"})
    r = _label(client, h, nowhere)
    assert r.status_code == 422 and r.json()["details"]["field"] == "shipping_address.address1", r.text
    assert client.get(f"{BASE}/returns/{nowhere}", headers=h).json()["data"]["label_id"] is None
    assert _label(client, h, nowhere, carrier="pigeon").status_code == 400


def test_an_easypost_return_label_is_a_return_shipment_bought_once(
    client: httpx.Client, server: LiveServer, carrier: CarrierServer
) -> None:
    h = auth_headers(client, "owner@demo.test")
    _setup(client, h, carrier, timeout_seconds=3)
    rid = _shipped_return(client, h, US)
    carrier.behaviour.buy_then_500 = 1  # bought at the carrier, answered 500
    r = _label(client, h, rid)
    assert r.status_code == 502 and r.json()["details"]["reason"] == "unconfirmed", r.text
    assert client.get(f"{BASE}/returns/{rid}", headers=h).json()["data"]["label_id"] is None
    retry = _label(client, h, rid)
    assert retry.status_code == 200, retry.text
    (sid,) = carrier.state.shipments
    sent = carrier.state.shipments[sid]
    # A return: the customer's parcel goes to the shop (EasyPost switches the addresses it was sent).
    assert sent["is_return"] is True and sent["to_address"]["street1"] == SHOP["address1"]
    assert retry.json()["data"]["tracking_number"] == sent["tracking_code"] and carrier.state.purchases == {sid: 1}
    assert _label(client, h, rid).json()["data"]["tracking_number"] == sent["tracking_code"]
    assert carrier.state.purchases == {sid: 1}
    # A buy that never answers: unconfirmed after the timeout, then read back, still bought once.
    order = client.get(f"{BASE}/returns/{rid}", headers=h).json()["data"]["order_id"]
    more = {"lines": [{"sku": "MUG-CER-01", "quantity": 1}]}
    second = client.post(f"{BASE}/orders/{order}/returns", json=more, headers=h).json()["data"]["id"]
    carrier.behaviour.buy_hangs = 1
    assert _label(client, h, second).json()["details"]["reason"] == "unconfirmed"
    assert _label(client, h, second).status_code == 200
    assert sorted(carrier.state.purchases.values()) == [1, 1]
    pdf = client.get(f"{BASE}/returns/{second}/label", headers=h)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF") and KEY.encode() not in pdf.content
