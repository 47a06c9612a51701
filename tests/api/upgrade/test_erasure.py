"""Blacklist and data erasure at the inspection bench, and the erasure certificate, over real HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pypdfium2 as pdfium

from tests.api.upgrade.test_upgrade_routes import FAIR, B, customer_headers
from tests.conftest import auth_headers

GOOD_IMEI = "490154203237518"


def _received(client: httpx.Client, cust: dict[str, str], staff: dict[str, str]) -> str:
    body = {"product_id": "IPH14-128", "serial_number": "ERASE-SN-1", "condition": "fair", "imei": GOOD_IMEI}
    sid = client.post(f"{B}/submissions", json=body, headers=cust).json()["data"]["id"]
    assert client.post(f"{B}/submissions/{sid}", json={}, headers=cust).status_code == 200
    expires = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    offer = client.post(f"{B}/offers", json={"submission_id": sid, "amount": 200, "expires_at": expires},
                        headers=staff)  # fmt: skip
    assert client.post(f"{B}/offers/{offer.json()['data']['id']}", json={"action": "accept"}, headers=cust).is_success
    assert client.post(f"{B}/submissions/{sid}/ship", json={"kind": "kit"}, headers=staff).is_success
    assert client.post(f"{B}/submissions/{sid}/receive", json={}, headers=staff).is_success
    return str(sid)


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_erasure_is_recorded_and_certified(client: httpx.Client) -> None:
    cust = customer_headers(client)
    staff = auth_headers(client, "operator@demo.test")
    sid = _received(client, cust, staff)
    cert = f"{B}/submissions/{sid}/erasure-certificate"
    assert client.get(cert, headers=cust).status_code == 404  # nothing recorded yet

    def complete(**checklist: object) -> httpx.Response:
        body = {"action": "complete", "checklist": {**FAIR, **checklist}}
        return client.post(f"{B}/submissions/{sid}/inspect", json=body, headers=staff)

    stolen = complete(blacklist_status="blacklisted")
    assert stolen.status_code == 400 and "blacklisted" in stolen.text
    unverified = complete(erasure={"method": "nist-800-88-purge", "verified": False})
    assert unverified.status_code == 400 and "not verified" in unverified.text
    assert complete(erasure={"method": "shredded-by-hand", "verified": True}).status_code == 400
    assert complete(blacklist_status="maybe").status_code == 400
    assert client.get(f"{B}/submissions/{sid}", headers=cust).json()["data"]["status"] == "received"
    ok = complete(blacklist_status="clean",
                  erasure={"method": "cryptographic-erase", "tool": "Blancco Mobile 6", "verified": True})  # fmt: skip
    assert ok.status_code == 200, ok.text
    pdf = client.get(cert, headers=cust)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    text = _text(pdf.content)
    for shown in ("Data erasure certificate", "ERASE-SN-1", GOOD_IMEI, "Cryptographic erase", "Blancco Mobile 6"):
        assert shown in text, shown
    assert client.get(f"{B}/admin/submissions/{sid}/erasure-certificate", headers=staff).status_code == 200
    # Another customer's certificate is not theirs to read.
    other = client.post(f"{B}/auth/register", json={"email": "nosy@example.com", "password": "long-enough-1",
                                                    "name": "Nosy"})  # fmt: skip
    nosy = {"Authorization": f"Bearer {other.json()['data']['token']}"}
    assert client.get(cert, headers=nosy).status_code == 404
