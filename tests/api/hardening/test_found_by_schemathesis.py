"""Inputs a long schemathesis run found that gave a 500 or were misread; each is checked here
with the exact value it sent. One server for all of them: they share nothing."""

from __future__ import annotations

from urllib.parse import unquote

import httpx

from tests.conftest import auth_headers

AGT = "/api/tenants/demo/support"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def test_inputs_found_by_schemathesis_get_clear_answers(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")

    # A download whose name is beyond Latin-1: headers are Latin-1, so the name travels in an
    # RFC 5987 filename* beside an ASCII stand-in (it was a 500).
    name = "quittung-\U0001762d-\u00fc.png"
    up = client.post(
        AGT + "/attachments", content=PNG, headers={**owner, "Content-Type": "image/png"}, params={"filename": name}
    )
    assert up.status_code == 201, up.text
    got = client.get(f"{AGT}/attachments/{up.json()['data']['id']}", headers=owner)
    assert got.status_code == 200 and got.content == PNG
    disposition = got.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="quittung-_-_.png"')
    assert unquote(disposition.split("filename*=UTF-8''")[1]) == name

    # An order range bound that is a bare number was read as Unix seconds.
    r = client.get("/demo/fulfillment/api/orders", params={"to": "0.5"}, headers=owner)
    assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", r.text
    ok = client.get(
        "/demo/fulfillment/api/orders", params={"from": "2020-01-01", "to": "2100-01-01T00:00:00Z"}, headers=owner
    )
    assert ok.status_code == 200

    # A station timestamp that parses as a float but is no time: inf was a 500, nan passed the clock check.
    for stamp in ("Inf", "-inf", "nan", "1e999"):
        headers = {"X-Station-Id": "st-1", "X-Station-Timestamp": stamp, "X-Station-Signature": "sha256=00"}
        r = client.get("/api/tenants/demo/sync/pull", headers=headers)
        assert r.status_code == 401 and r.json()["details"]["reason"] == "bad_timestamp", (stamp, r.text)

    # A category name beyond ASCII is taken whatever its case (SQLite's lower() folds ASCII only,
    # so a second "Ärger" reached the unique constraint: a 500).
    first = client.post(AGT + "/categories", json={"name": "Ärger"}, headers=owner)
    assert first.status_code == 201, first.text
    for taken in ("Ärger", "ärger", "ÄRGER"):
        again = client.post(AGT + "/categories", json={"name": taken}, headers=owner)
        assert again.status_code == 409 and again.json()["code"] == "CONFLICT", taken
    other = client.post(AGT + "/categories", json={"name": "Ärgernis"}, headers=owner).json()["data"]
    assert client.patch(f"{AGT}/categories/{other['id']}", json={"name": "ärger"}, headers=owner).status_code == 409
    own = client.patch(f"{AGT}/categories/{first.json()['data']['id']}", json={"name": "ÄRGER"}, headers=owner)
    assert own.status_code == 200, own.text
