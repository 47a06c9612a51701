"""IMEI on trade-ins over real HTTP: checked when given (15 digits, Luhn), required to submit a phone."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models.upgrade import UpgradeSubmission
from tests.api.upgrade.test_upgrade_routes import B, customer_headers
from tests.conftest import LiveServer, auth_headers

GOOD = "490154203237518"  # the example IMEI of the GSMA's documents


def _submissions(server: LiveServer) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(UpgradeSubmission)).scalar_one())


def test_a_phone_needs_a_valid_imei_to_be_submitted(client: httpx.Client, server: LiveServer) -> None:
    admin = auth_headers(client, "admin@demo.test")
    cust = customer_headers(client)
    v = client.post(f"{B}/admin/valuations", json={"product_id": "PHN-IMEI-1", "product_name": "Test phone",
                                                   "base_value": 300, "is_phone": True}, headers=admin)  # fmt: skip
    assert v.status_code == 201 and v.json()["data"]["is_phone"] is True
    body = {"product_id": "PHN-IMEI-1", "serial_number": "IMEI-SN-1", "condition": "good"}
    draft = client.post(f"{B}/submissions", json=body, headers=cust)
    assert draft.status_code == 201 and draft.json()["data"]["imei"] is None  # a draft may lack it
    sid = draft.json()["data"]["id"]
    refused = client.post(f"{B}/submissions/{sid}", json={}, headers=cust)
    assert refused.status_code == 400 and refused.json()["details"]["reason"] == "imei_required"
    assert client.get(f"{B}/submissions/{sid}", headers=cust).json()["data"]["status"] == "draft"
    for bad in ("4901542032375181234", "490154203237519", "49015420323751", "4901542032375180", "ABCDEFGHIJKLMNO"):
        r = client.put(f"{B}/submissions/{sid}", json={"imei": bad}, headers=cust)
        assert r.status_code == 400 and "imei" in r.text, bad
    assert client.get(f"{B}/submissions/{sid}", headers=cust).json()["data"]["imei"] is None
    # As printed on the box, with dashes: kept as the 15 digits.
    ok = client.put(f"{B}/submissions/{sid}", json={"imei": "49-015420-323751-8"}, headers=cust)
    assert ok.status_code == 200 and ok.json()["data"]["imei"] == GOOD
    done = client.post(f"{B}/submissions/{sid}", json={}, headers=cust)
    assert done.status_code == 200 and done.json()["data"]["status"] == "submitted"


def test_a_bad_imei_is_refused_for_any_product_and_stores_nothing(client: httpx.Client, server: LiveServer) -> None:
    cust = customer_headers(client)
    before = _submissions(server)
    body = {"product_id": "IPH14-128", "serial_number": "IMEI-SN-2", "condition": "good", "imei": "35-209900-176148-2"}
    r = client.post(f"{B}/submissions", json=body, headers=cust)
    assert r.status_code == 400 and r.json()["details"]["fields"][0]["field"] == "imei"
    assert _submissions(server) == before
    # Not a phone: no IMEI is fine.
    del body["imei"]
    r = client.post(f"{B}/submissions", json=body, headers=cust)
    assert r.status_code == 201, r.text
    assert client.post(f"{B}/submissions/{r.json()['data']['id']}", json={}, headers=cust).status_code == 200
