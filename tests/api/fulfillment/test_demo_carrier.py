"""The demo with the carrier stand-in: a demo server started with ``demo_carrier`` runs the EasyPost-speaking
stand-in on loopback, points the demo tenant at it, and buys a label through it; off by default."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.__main__ import main
from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, start_server

BASE = "/demo/fulfillment/api"
US = {"name": "Bea Buyer", "address1": "12 Main St", "city": "Springfield", "zip": "12345", "country": "US"}


@pytest.fixture
def demo_server(settings: Settings, runtime: Runtime) -> Iterator[LiveServer]:
    runtime.db.dispose()
    srv = start_server(settings, seed=False, rate_limits="off", demo_carrier=True)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


def test_a_demo_server_buys_a_label_through_the_stand_in(demo_server: LiveServer) -> None:
    with httpx.Client(base_url=demo_server.url, timeout=60) as client:
        h = auth_headers(client, "owner@demo.test")
        conf = client.get(f"{BASE}/settings/carrier", headers=h).json()["data"]
        assert conf["configured"] and conf["base_url"].startswith("http://127.0.0.1:")
        body = {"customer_name": "Bea Buyer", "shipping_address": US, "lines": [{"sku": "MUG-CER-01", "quantity": 1}]}
        oid = client.post(f"{BASE}/orders", json=body, headers=h).json()["data"]["id"]
        for op in ({"operation": "pick", "items": [{"code": "MUG-CER-01"}]}, {"operation": "pack", "box": "S"}):
            assert client.post(f"{BASE}/orders/{oid}/operations", json=op, headers=h).status_code == 200
        r = client.post(f"{BASE}/orders/{oid}/label", json={}, headers=h)
        assert r.status_code == 200, r.text
        label = r.json()["data"]
        assert label["carrier"] == "easypost" and label["service"] == "USPS First"
        assert label["order"]["status"] == "shipped" and label["tracking_number"].startswith("9400")


def test_the_stand_in_is_opt_in_and_only_with_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert Settings().demo_carrier is False
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--demo-carrier"])
    assert exited.value.code == 2 and "--demo-carrier goes with --demo" in capsys.readouterr().err
