"""Attribute families with typed attributes, channels, and completeness per channel, against a real
uvicorn server: values checked by type (nothing stored when wrong), the score and what is missing,
the list filter, and the refusals (a family change that existing values would not fit, a family in use)."""

from __future__ import annotations

from typing import Any

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

BASE = "/demo/catalog/api"
APPAREL = demo_id("catalog-category", "demo", "apparel")
FAMILY: dict[str, Any] = {
    "code": "apparel",
    "name": "Apparel",
    "attributes": [
        {"code": "material", "label": "Material", "type": "text", "required_in": ["web"]},
        {"code": "weight", "type": "number", "unit": "g", "required_in": ["web", "print"]},
        {"code": "fit", "type": "choice", "choices": ["slim", "regular"]},
        {"code": "organic", "type": "boolean"},
        {"code": "launch", "type": "date"},
        {"code": "photo", "type": "media"},
    ],
}


def _fields(r: httpx.Response) -> list[str]:
    return [f["field"] for f in r.json().get("details", {}).get("fields", [])]


def test_families_type_the_attributes_and_channels_score_completeness(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    web = client.post(
        f"{BASE}/channels", json={"code": "web", "name": "Web shop", "languages": ["en", "de"]}, headers=h
    )
    assert web.status_code == 201, web.text
    pr = {"code": "print", "name": "Print catalogue", "languages": ["en"], "category_ids": [APPAREL]}
    assert client.post(f"{BASE}/channels", json=pr, headers=h).status_code == 201
    fam = client.post(f"{BASE}/families", json=FAMILY, headers=h)
    assert fam.status_code == 201, fam.text
    fid = fam.json()["data"]["id"]
    assert [a["type"] for a in fam.json()["data"]["attributes"]] == [
        "text",
        "number",
        "choice",
        "boolean",
        "date",
        "media",
    ]

    # Values of the wrong type: 400 naming each attribute, nothing stored.
    bad = {"material": 3, "weight": "heavy", "fit": "baggy", "organic": "yes", "launch": "2026-13-01", "photo": "x.png"}
    body = {"sku": "FAM-1", "name": "Shirt", "family_id": "apparel", "attributes": bad}
    r = client.post(f"{BASE}/products", json=body, headers=h)
    assert r.status_code == 400, r.text
    assert sorted(_fields(r)) == [f"attributes.{k}" for k in sorted(bad)]
    assert "a number (in g)" in r.text and "one of slim, regular" in r.text
    assert client.get(f"{BASE}/products/FAM-1", headers=h).status_code == 404
    assert _fields(
        client.post(f"{BASE}/products", json={**body, "family_id": "nope", "attributes": {}}, headers=h)
    ) == ["family_id"]

    good = {
        "material": "linen",
        "fit": "slim",
        "organic": True,
        "launch": "2026-03-01",
        "photo": "https://cdn.example/a.jpg",
    }
    body = {"sku": "FAM-1", "name": "Shirt", "description": "Linen.", "family_id": "apparel", "attributes": good}
    r = client.post(f"{BASE}/products", json=body, headers=h)
    assert r.status_code == 201, r.text
    p = r.json()["data"]
    assert p["family_id"] == fid
    # Web: name and description in en and de, material and weight: 3 of 6. Print receives apparel only.
    assert p["channels"] == {"web": {"completeness": 50, "missing": ["name@de", "description@de", "attributes.weight"]}}
    r = client.put(f"{BASE}/products/{p['id']}", json={"attributes": {**good, "weight": 180.5}}, headers=h)
    assert r.status_code == 200 and r.json()["data"]["channels"]["web"]["completeness"] == 66
    client.post(
        f"{BASE}/products/{p['id']}/translations",
        json={"language": "de", "name": "Hemd", "description": "Leinen."},
        headers=h,
    )
    r = client.put(f"{BASE}/products/{p['id']}", json={"category_ids": [APPAREL]}, headers=h)
    assert r.json()["data"]["channels"] == {
        "print": {"completeness": 100, "missing": []},
        "web": {"completeness": 100, "missing": []},
    }
    # A wrong value on update: 400, the product as it was.
    assert _fields(client.put(f"{BASE}/products/{p['id']}", json={"attributes": {"weight": True}}, headers=h)) == [
        "attributes.weight"
    ]
    assert client.get(f"{BASE}/products/FAM-1", headers=h).json()["data"]["attributes"]["weight"] == 180.5

    # The list filter: products the channel receives, complete or not.
    def listed(**params: Any) -> set[str]:
        return {
            x["sku"] for x in client.get(f"{BASE}/products", params={**params, "limit": 100}, headers=h).json()["data"]
        }

    # The demo's T-shirt and mug have German texts and no family: complete for the web too.
    assert listed(channel="web", complete="true") == {"FAM-1", "TSH", "MUG-CER-01"}
    assert listed(channel="web", complete="false") == {
        "BAG-TOTE", "BTL-STL-750", "CAP-NVY", "HDP-USB-C", "NTB-A5-DOT", "SCK-GRY-3P"
    }  # fmt: skip
    assert listed(channel="print") == {"FAM-1", "TSH", "CAP-NVY", "SCK-GRY-3P", "BAG-TOTE"}  # apparel and below
    assert listed(family_id=fid) == {"FAM-1"}
    assert client.get(f"{BASE}/products", params={"channel": "nope"}, headers=h).status_code == 400
    channels = {c["code"]: c for c in client.get(f"{BASE}/channels", headers=h).json()["data"]}
    assert channels["print"]["products"] == 5 and channels["print"]["complete_products"] == 5
    assert channels["web"]["complete_products"] == 3 and channels["web"]["products"] >= 9

    # A family change the product's values would not fit is refused; a family in use is kept.
    attrs = [a for a in FAMILY["attributes"] if a["code"] != "weight"] + [
        {"code": "weight", "type": "choice", "choices": ["light", "heavy"]}
    ]
    r = client.put(f"{BASE}/families/apparel", json={"attributes": attrs}, headers=h)
    assert r.status_code == 409 and r.json()["details"]["products"][0]["sku"] == "FAM-1"
    assert client.delete(f"{BASE}/families/apparel", headers=h).status_code == 409
    assert client.get(f"{BASE}/families", headers=h).json()["data"][0]["product_count"] == 1
    r = client.put(f"{BASE}/products/{p['id']}", json={"family_id": None}, headers=h)
    assert r.status_code == 200 and r.json()["data"]["family_id"] is None
    assert client.delete(f"{BASE}/families/apparel", headers=h).status_code == 204


def test_bad_families_and_channels_are_refused(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    for attr in (
        {"code": "w", "type": "number"},  # no unit
        {"code": "c", "type": "choice"},  # no choices
        {"code": "t", "type": "text", "unit": "g"},
        {"code": "c", "type": "choice", "choices": ["a", "a"]},
        {"code": "Bad Code", "type": "text"},
        {"code": "x", "type": "colour"},
    ):
        r = client.post(f"{BASE}/families", json={"code": "f", "name": "F", "attributes": [attr]}, headers=h)
        assert r.status_code == 400, (attr, r.text)
    twice = [{"code": "a", "type": "text"}, {"code": "a", "type": "boolean"}]
    assert (
        client.post(f"{BASE}/families", json={"code": "f", "name": "F", "attributes": twice}, headers=h).status_code
        == 400
    )
    assert client.post(f"{BASE}/families", json={"code": "f", "name": "F"}, headers=h).status_code == 201
    assert client.post(f"{BASE}/families", json={"code": "f", "name": "F"}, headers=h).status_code == 409
    assert client.get(f"{BASE}/families", headers=h).json()["meta"]["total"] == 1
    assert (
        client.post(f"{BASE}/channels", json={"code": "c", "name": "C", "languages": ["ja"]}, headers=h).status_code
        == 400
    )
    assert (
        client.post(f"{BASE}/channels", json={"code": "c", "name": "C", "category_ids": ["no"]}, headers=h).status_code
        == 400
    )
    assert client.get(f"{BASE}/channels", headers=h).json()["meta"]["total"] == 0
    # Only managers with the module shape them (the demo's operator has no catalog).
    op = auth_headers(client, "operator@demo.test")
    assert client.post(f"{BASE}/channels", json={"code": "c", "name": "C"}, headers=op).status_code == 403
