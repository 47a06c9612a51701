"""Tax over HTTP on a real server, with a real local shop and tax service: connections checked by a
real call and never answered back, the sync twice, liability and dashboard, refund/amend/filings at
the spec's addresses, wrong tenant, wrong role, wrong state, bad and oversized input, a double
submit."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.settings import Settings
from tests.conftest import auth_headers
from tests.shop_server import Shop, ShopBehaviour

BASE = "/demo/tax/api"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    settings.connections_allow_private = True  # the shop and the tax service listen on loopback
    return settings


@pytest.fixture
def shop() -> Iterator[Shop]:
    s = Shop(ShopBehaviour(rate=1000)).start()
    s.state.orders += [
        {"id": "H1", "date": "2025-05-02", "state": "NY", "amount": "250.00", "shipping": "0", "tax": "20.00"},
        {"id": "H2", "date": "2025-05-03", "state": "NY", "amount": 99.99, "shipping": 5, "tax": 8.0},
        {"id": "H3", "date": "2025-05-04", "state": "TX", "amount": "10.00", "tax": "0.63", "exempt": False},
        {"id": "BAD", "date": "yesterday", "state": "TX", "amount": "1", "tax": "0"},
    ]
    s.state.refunds += [
        {"id": "HR1", "order_id": "H1", "date": "2025-05-09", "state": "NY", "amount": "50", "tax": "4"}
    ]
    yield s
    s.stop()


def test_connections_sync_liability_and_filings(client: httpx.Client, shop: Shop) -> None:
    h = auth_headers(client, "owner@demo.test")
    # Connections: a wrong key is refused by the real check call; the key never comes back.
    assert client.post(f"{BASE}/transactions/sync", json={}, headers=h).status_code == 409
    body = {"provider": "generic", "base_url": shop.url, "rate_limit": 100, "credentials": {"api_key": "nope"}}
    bad = client.post(f"{BASE}/connections/ecommerce", json=body, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    body["credentials"] = {"api_key": "shop-key-1"}
    assert client.post(f"{BASE}/connections/ecommerce", json=body, headers=h).status_code == 200
    assert client.post(f"{BASE}/connections/tax-service", json=body, headers=h).status_code == 200
    for name in ("ecommerce", "tax-service"):
        got = client.get(f"{BASE}/connections/{name}", headers=h)
        d = got.json()["data"]
        assert d["connected"] and d["account"] == "Demo Shop" and "shop-key-1" not in got.text
        assert set(d) >= {"connected", "provider", "account", "last_sync_at", "last_error"}
    assert client.post(f"{BASE}/connections/tax-service", json={**body, "extra": 1}, headers=h).status_code == 400
    assert client.delete(f"{BASE}/connections/tax-service", headers=h).json()["data"]["connected"] is False

    # The sync twice: the second imports nothing; the bad row is skipped and said.
    first = client.post(f"{BASE}/transactions/sync", json={}, headers=h)
    assert first.status_code == 200, first.text
    assert first.json()["data"] | {"last_sync_at": None} == {
        "imported": 4,
        "updated": 0,
        "skipped": 1,
        "refunds_without_order": 0,
        "locked_skipped": 0,
        "last_sync_at": None,
    }
    second = client.post(f"{BASE}/transactions/sync", json={"from": "2025-01-01"}, headers=h).json()["data"]
    assert (second["imported"], second["updated"], second["skipped"]) == (0, 0, 5)
    assert "yesterday" in client.get(f"{BASE}/connections/ecommerce", headers=h).json()["data"]["last_error"]
    assert (
        client.post(f"{BASE}/transactions/sync", json={"from": "2025-02-01", "to": "2025-01-01"}, headers=h).status_code
        == 400
    )

    liab = client.get(f"{BASE}/liability", params={"from": "2025-05-01", "to": "2025-05-31"}, headers=h)
    assert liab.status_code == 200
    ny = next(r for r in liab.json()["data"]["states"] if r["state"] == "NY")
    assert ny == {
        "state": "NY",
        "taxable_sales": "299.99",
        "exempt_sales": "0.00",
        "tax_collected": "28.00",
        "refunded": "4.00",
        "net_liability": "24.00",
        "transactions": 3,
    }
    assert client.get(f"{BASE}/liability", params={"from": "May"}, headers=h).status_code == 400
    dash = client.get(f"{BASE}/dashboard", headers=h).json()["data"]
    assert (
        len(dash["nexus"]) == 51
        and dash["last_sync_at"]
        and set(dash["nexus"][0])
        >= {
            "state",
            "threshold_sales",
            "threshold_transactions",
            "sales",
            "transactions",
            "reached",
        }
    )

    txs = client.get(
        f"{BASE}/transactions", params={"state": "NY", "from": "2025-05-01", "to": "2025-05-31", "offset": 0}, headers=h
    ).json()
    assert txs["pagination"]["total"] == 3 and txs["meta"]["total"] == 3
    h1 = next(t for t in txs["data"] if t["external_id"] == "H1")
    assert h1["amount"] == "250.00" and h1["tax_collected"] == "20.00" and h1["revision"] == 1
    refund = client.post(
        f"{BASE}/transactions/{h1['id']}/refund",
        json={"amount": "10.00", "reason": "damaged"},
        headers={**h, "Idempotency-Key": "tax-refund-1"},
    )
    again = client.post(
        f"{BASE}/transactions/{h1['id']}/refund",
        json={"amount": "10.00", "reason": "damaged"},
        headers={**h, "Idempotency-Key": "tax-refund-1"},
    )
    assert refund.status_code == 201 and refund.json()["data"]["tax_collected"] == "0.80"
    assert again.json()["data"]["id"] == refund.json()["data"]["id"]  # a double submit, one refund
    assert (
        client.post(
            f"{BASE}/transactions/{h1['id']}/refund", json={"amount": 1.234, "reason": "x"}, headers=h
        ).status_code
        == 400
    )
    assert client.post(f"{BASE}/transactions/{h1['id']}/refund", json={"amount": "1"}, headers=h).status_code == 400
    huge = client.post(f"{BASE}/transactions/{h1['id']}/refund", json={"reason": "x" * (1024 * 1024 + 5)}, headers=h)
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"

    f = client.post(f"{BASE}/filings", json={"state": "NY", "period_start": "2025-05-01"}, headers=h)
    assert f.status_code == 201 and f.json()["data"]["status"] == "ready"
    fid = f.json()["data"]["id"]
    wrong = client.post(f"{BASE}/filings/{fid}", json={"action": "accept"}, headers=h)
    assert wrong.status_code == 409 and wrong.json()["details"]["current_state"] == "ready"
    assert client.post(f"{BASE}/filings/{fid}", json={"action": "explode"}, headers=h).status_code == 400
    for action in ("approve", "file"):
        r = client.post(f"{BASE}/filings/{fid}", json={"action": action}, headers=h)
        assert r.status_code == 200, r.text
    assert r.json()["data"]["status"] == "filed" and r.json()["data"]["liability"] == "24.00"
    amend = client.put(f"{BASE}/transactions/{h1['id']}/amend", json={"amount": "1.00", "reason": "late"}, headers=h)
    assert amend.status_code == 409 and amend.json()["details"]["current_state"] == "locked"
    tx3 = next(
        t
        for t in client.get(f"{BASE}/transactions", params={"state": "TX"}, headers=h).json()["data"]
        if t["external_id"] == "H3"
    )
    ok = client.put(
        f"{BASE}/transactions/{tx3['id']}/amend", json={"tax_collected": "0.60", "reason": "rate"}, headers=h
    )
    assert ok.status_code == 200 and [r["revision"] for r in ok.json()["data"]["revisions"]] == [1, 2]
    listed = client.get(f"{BASE}/filings", params={"status": "filed"}, headers=h).json()
    assert fid in {x["id"] for x in listed["data"]}

    # Certificates.
    cert = client.post(
        f"{BASE}/certificates",
        json={"customer_name": "Acme", "state": "NY", "exemption_number": "NY-1", "expiration_date": "2099-01-01"},
        headers=h,
    )
    assert cert.status_code == 201 and cert.json()["data"]["status"] == "active"
    assert (
        client.delete(f"{BASE}/certificates/{cert.json()['data']['id']}", headers=h).json()["data"]["status"]
        == "revoked"
    )
    assert client.post(f"{BASE}/certificates", json={"customer_name": "A"}, headers=h).status_code == 400


def test_strangers_and_wrong_roles(client: httpx.Client) -> None:
    assert client.get(f"{BASE}/liability").status_code == 401
    assert client.get(f"{BASE}/dashboard", headers=auth_headers(client, "operator@demo.test")).status_code == 403
    device = auth_headers(client, "device@demo.test")
    assert client.get(f"{BASE}/transactions", headers=device).status_code == 403
    assert client.post(f"{BASE}/connections/ecommerce", json={}, headers=device).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"{BASE}/filings", headers=other).status_code in (401, 403)
    mine = client.get(f"{BASE}/filings", headers=auth_headers(client, "owner@demo.test")).json()["data"][0]["id"]
    assert client.get(f"/other/tax/api/filings/{mine}", headers=other).status_code == 404
    assert client.get("/other/tax/api/transactions", headers=other).json()["meta"]["total"] == 0


def test_calculate_and_rate_table_import_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    to = {"street": "1 Main St", "city": "Los Angeles", "state": "CA", "zip": "90001-2233", "country": "US"}
    body = {
        "ship_from": {**to, "zip": "90012"},
        "ship_to": to,
        "lines": [{"amount": "100.00", "quantity": 1, "product_tax_code": "general"}],
        "shipping": "5.00",
        "date": "2025-06-02",
    }
    r = client.post(f"{BASE}/calculate", json=body, headers=h)
    assert r.status_code == 200, r.text
    d = r.json()["data"]
    assert d["total_tax"] == "9.75" and d["lines"][0]["tax"] == "9.75"
    assert {"name", "kind", "rate", "tax"} <= set(d["lines"][0]["jurisdictions"][0])
    bad = client.post(f"{BASE}/calculate", json={**body, "ship_to": {**to, "state": "ZZ"}}, headers=h)
    assert bad.status_code == 400 and "ZZ" in bad.text
    # A table as a multipart file, in force from a day: 201; a gap after it is 400, nothing stored.
    csv_text = (
        "State,ZipCode,TaxRegionName,EstimatedCombinedRate,StateRate,EstimatedCountyRate,EstimatedCityRate,"
        "EstimatedSpecialRate,RiskLevel\nTX,77002,HOUSTON,0.082500,0.062500,0,0.010000,0.010000,1\n"
    )
    files = {"file": ("tx.csv", csv_text.encode(), "text/csv")}
    made = client.post(f"{BASE}/rate-tables", params={"effective_from": "2027-01-01"}, files=files, headers=h)
    assert made.status_code == 201, made.text
    assert made.json()["data"]["state"] == "TX" and made.json()["data"]["rows"] == 1
    gap = client.post(f"{BASE}/rate-tables", params={"effective_from": "2026-12-01"}, files=files, headers=h)
    assert gap.status_code == 400 and gap.json()["details"]["reason"] == "overlap"
    listed = client.get(f"{BASE}/rate-tables", params={"state": "TX"}, headers=h)
    assert listed.status_code == 200 and len(listed.json()["data"]) == 2
