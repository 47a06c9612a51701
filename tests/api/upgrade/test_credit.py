"""The credit ledger over real HTTP: a completed trade-in credits once; payouts up to the balance, never twice."""

from __future__ import annotations

import csv
import io

import httpx

from tests.api.upgrade.test_erasure import _received
from tests.api.upgrade.test_upgrade_routes import FAIR, B, customer_headers
from tests.conftest import auth_headers


def test_credit_and_payouts(client: httpx.Client) -> None:
    cust = customer_headers(client)
    staff = auth_headers(client, "operator@demo.test")
    admin = auth_headers(client, "admin@demo.test")
    sid = _received(client, cust, staff)
    done = client.post(f"{B}/submissions/{sid}/inspect", json={"action": "complete", "checklist": FAIR}, headers=staff)
    assert done.status_code == 200 and done.json()["data"]["outcome"] == "completed", done.text
    customer_id = done.json()["data"]["customer_id"]
    mine = client.get(f"{B}/credit", headers=cust).json()["data"]
    assert mine["balances"] == {"USD": 200.0}
    assert [(e["kind"], e["amount"], e["submission_id"]) for e in mine["entries"]] == [("credit", 200.0, sid)]
    pay = f"{B}/admin/customers/{customer_id}/payouts"
    # Bad input and the wrong people: nothing paid.
    assert client.post(pay, json={"amount": 10, "method": "cash"}, headers=admin).status_code == 400
    assert client.post(pay, json={"amount": 0, "method": "bank"}, headers=admin).status_code == 400
    assert client.post(pay, json={"amount": 10, "method": "bank"}, headers=staff).status_code == 403  # operators
    assert client.post(pay, json={"amount": 10, "method": "bank"}, headers=cust).status_code in (401, 403)
    assert client.post(f"{B}/admin/customers/nobody/payouts", json={"amount": 1, "method": "bank"},
                       headers=admin).status_code == 404  # fmt: skip
    first = client.post(pay, json={"amount": 150, "method": "bank", "reference": "TRF-1"}, headers=admin)
    assert first.status_code == 201 and first.json()["data"]["amount"] == -150.0, first.text
    # The same credit twice: refused, the balance tells what is left.
    twice = client.post(pay, json={"amount": 150, "method": "bank"}, headers=admin)
    assert twice.status_code == 409 and twice.json()["details"]["reason"] == "insufficient_credit"
    assert twice.json()["details"]["balance"] == 50.0
    assert (
        client.post(pay, json={"amount": 50, "currency": "EUR", "method": "paypal"}, headers=admin).status_code == 409
    )
    assert client.post(pay, json={"amount": 50, "method": "paypal"}, headers=admin).status_code == 201
    ledger = client.get(f"{B}/admin/customers/{customer_id}/credit", headers=staff).json()["data"]
    assert ledger["balances"] == {"USD": 0.0} and len(ledger["entries"]) == 3
    exported = client.get(f"{B}/admin/payouts/export", params={"method": "bank"}, headers=admin)
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert [(r["amount"], r["reference"]) for r in rows] == [("150.00", "TRF-1")]
    assert client.get(f"{B}/admin/payouts/export", params={"method": "cash"}, headers=admin).status_code == 400
