"""A product's version history (every save a version, list, read, restore) and mass edit of a
selection (all or nothing, per product), against a real uvicorn server."""

from __future__ import annotations

from typing import Any

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

BASE = "/demo/catalog/api"
HOME = demo_id("catalog-category", "demo", "home")


def _versions(client: httpx.Client, h: dict[str, str], pid: str) -> list[dict[str, Any]]:
    r = client.get(f"{BASE}/products/{pid}/versions", headers=h)
    assert r.status_code == 200, r.text
    return list(r.json()["data"])


def test_every_save_is_a_version_and_a_version_restores(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    body = {"sku": "H-1", "name": "Lamp", "description": "Brass.", "variants": [{"sku": "H-1-S", "price": "10.00"}]}
    p = client.post(f"{BASE}/products", json=body, headers=h).json()["data"]
    pid = p["id"]
    client.put(f"{BASE}/products/{pid}", json={"name": "Desk lamp", "variants": []}, headers=h)
    client.post(f"{BASE}/products/{pid}/translations", json={"language": "de", "name": "Tischlampe"}, headers=h)
    client.put(f"{BASE}/products/{pid}", json={"name": "Desk lamp"}, headers=h)  # no change: no version
    client.put(f"{BASE}/products/{pid}", json={"status": "active"}, headers=h)  # a state move: no version
    versions = _versions(client, h, pid)
    assert [(v["number"], v["source"]) for v in versions] == [(3, "translate"), (2, "update"), (1, "create")]
    assert versions[0]["author"] and versions[0]["restored_from"] is None
    second = client.get(f"{BASE}/products/{pid}/versions/{versions[1]['id']}", headers=h).json()["data"]
    assert second["changed"] == ["name", "variants"] and second["snapshot"]["name"] == "Desk lamp"

    # Restore version 1: name and variant back, the German text (made later) gone; a new version 4.
    r = client.post(f"{BASE}/products/{pid}/versions/{versions[2]['id']}/restore", headers=h)
    assert r.status_code == 200, r.text
    back = r.json()["data"]
    assert back["name"] == "Lamp" and [v["sku"] for v in back["variants"]] == ["H-1-S"]
    assert back["translations"] == {} and back["status"] == "active"  # the state is not content
    assert [(v["number"], v["source"], v["restored_from"]) for v in _versions(client, h, pid)][0] == (4, "restore", 1)
    events = client.get("/demo/events/api/events", params={"type": "catalog.product_restored"}, headers=h).json()
    assert [e["data"]["version"] for e in events["data"]] == [1]

    # Bad restores: a version that is not there or another product's (404), a SKU now taken (409).
    assert client.post(f"{BASE}/products/{pid}/versions/nope/restore", headers=h).status_code == 404
    other = client.post(f"{BASE}/products", json={"sku": "H-9", "name": "Other"}, headers=h).json()["data"]
    other_v = _versions(client, h, other["id"])[0]["id"]
    assert client.post(f"{BASE}/products/{pid}/versions/{other_v}/restore", headers=h).status_code == 404
    client.put(f"{BASE}/products/{pid}", json={"sku": "H-2", "variants": []}, headers=h)
    client.put(f"{BASE}/products/{other['id']}", json={"sku": "H-1"}, headers=h)
    r = client.post(f"{BASE}/products/{pid}/versions/{versions[2]['id']}/restore", headers=h)
    assert r.status_code == 409 and r.json()["details"]["skus"] == ["H-1"]
    assert client.get(f"{BASE}/products/{pid}", headers=h).json()["data"]["sku"] == "H-2"
    assert len(_versions(client, h, pid)) == 5
    assert client.get(
        f"{BASE}/products/{pid}/versions", headers=auth_headers(client, "owner@other.test")
    ).status_code in (
        403,
        404,
    )


def test_mass_edit_is_all_or_nothing_and_reported_per_product(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    ids = [
        client.post(f"{BASE}/products", json={"sku": f"M-{i}", "name": f"Mass {i}"}, headers=h).json()["data"]["id"]
        for i in range(3)
    ]
    change = {"product_ids": [*ids, "MUG-CER-01"], "set_attributes": {"eco": True}, "add_category_ids": [HOME]}
    r = client.post(f"{BASE}/products/mass-edit", json=change, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["data"]["applied"] is True and all(x["ok"] for x in r.json()["data"]["results"])
    mug = client.get(f"{BASE}/products/MUG-CER-01", headers=h).json()["data"]
    assert mug["attributes"]["eco"] is True and mug["attributes"]["capacity_ml"] == 330
    assert _versions(client, h, ids[0])[0]["source"] == "mass_edit"

    # One product refuses (archived), one is not there: nothing changes anywhere, each one said.
    archived = next(
        p["id"] for p in client.get(f"{BASE}/products", params={"status": "archived"}, headers=h).json()["data"]
    )
    bad = {"product_ids": [ids[0], archived, "NOPE"], "status": "active", "remove_attributes": ["eco"]}
    r = client.post(f"{BASE}/products/mass-edit", json=bad, headers=h)
    assert r.status_code == 400, r.text
    results = r.json()["details"]["results"]
    assert [(x["ok"], x["message"] is None) for x in results] == [(True, True), (False, False), (False, False)]
    assert "archived" in results[1]["message"] and results[2]["message"] == "no product NOPE"
    first = client.get(f"{BASE}/products/{ids[0]}", headers=h).json()["data"]
    assert first["status"] == "draft" and first["attributes"] == {"eco": True}

    # A family whose types a product's values do not fit: refused for that product, by attribute.
    fam = {"code": "eco", "name": "Eco", "attributes": [{"code": "eco", "type": "choice", "choices": ["yes", "no"]}]}
    assert client.post(f"{BASE}/families", json=fam, headers=h).status_code == 201
    r = client.post(f"{BASE}/products/mass-edit", json={"product_ids": ids[:2], "family_id": "eco"}, headers=h)
    assert r.status_code == 400 and "attributes.eco" in r.json()["details"]["results"][0]["message"]
    fix = {"product_ids": ids[:2], "family_id": "eco", "set_attributes": {"eco": "yes"}}
    assert client.post(f"{BASE}/products/mass-edit", json=fix, headers=h).status_code == 200
    assert client.post(f"{BASE}/products/mass-edit", json={"product_ids": ids}, headers=h).status_code == 400
    too_many = {"product_ids": [f"x{i}" for i in range(1001)], "status": "draft"}
    assert client.post(f"{BASE}/products/mass-edit", json=too_many, headers=h).status_code == 400
    unknown_cat = {"product_ids": ids, "add_category_ids": ["nope"]}
    assert client.post(f"{BASE}/products/mass-edit", json=unknown_cat, headers=h).status_code == 400
