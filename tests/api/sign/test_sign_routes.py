"""Sign routes against a real uvicorn server: the example note over HTTP."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

BASE = "/demo/sign/api"


def test_notes_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post(f"{BASE}/notes", json={"title": "Route note"}, headers=h)
    assert r.status_code == 201, r.text
    note = r.json()["data"]
    listed = client.get(f"{BASE}/notes", params={"search": "Route note"}, headers=h)
    assert listed.status_code == 200, listed.text
    assert [n["id"] for n in listed.json()["data"]] == [note["id"]]
    assert listed.json()["meta"]["total"] == 1 and listed.json()["pagination"]["total"] == 1
    assert client.get(f"{BASE}/notes/{note['id']}", headers=h).json()["data"]["title"] == "Route note"
    archived = client.post(f"{BASE}/notes/{note['id']}/archive", headers=h)
    assert archived.status_code == 200 and archived.json()["data"]["status"] == "archived"
    again = client.post(f"{BASE}/notes/{note['id']}/archive", headers=h)
    assert again.status_code == 409 and again.json()["code"] == "CONFLICT"


def test_errors_answer_in_the_envelope(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    bad = client.post(f"{BASE}/notes", json={"title": ""}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert client.get(f"{BASE}/notes/no-such-note", headers=h).status_code == 404
    assert client.get(f"{BASE}/notes").status_code == 401
    assert client.get(f"{BASE}/notes", headers=auth_headers(client, "device@demo.test")).status_code == 403
