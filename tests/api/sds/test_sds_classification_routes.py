"""The classification, ingredient editing, where-used, pictograms, supplier block and SDS comparison
over HTTP on a real server, bad input answered 400 with nothing stored."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

BASE = "/demo/sds/api"


def test_classification_routes(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")

    def ingredient(body: dict[str, object]) -> str:
        r = client.post(f"{BASE}/ingredients", json=body, headers=h)
        assert r.status_code == 201, r.text
        return str(r.json()["data"]["id"])

    # An unknown H code, or H300 without its category, is refused and stores nothing.
    for bad in ({"name": "GHS-X1", "hazards": ["H999"]}, {"name": "GHS-X1", "hazards": ["H300"]}):
        r = client.post(f"{BASE}/ingredients", json=bad, headers=h)
        assert r.status_code == 400, r.text
    assert client.get(f"{BASE}/ingredients", params={"search": "GHS-X1"}, headers=h).json()["meta"]["total"] == 0

    tox = ingredient({"name": "GHS toxicant", "hazards": ["H301"], "ate": {"oral": 100}})
    water = ingredient({"name": "GHS water", "cas": "7732-18-5"})
    sub = client.post(
        f"{BASE}/formulas",
        json={
            "code": "GHS-SUB",
            "name": "Sub",
            "lines": [{"ingredient_id": tox, "percent": 50}, {"ingredient_id": water, "percent": 50}],
        },
        headers=h,
    ).json()["data"]["id"]
    top = client.post(
        f"{BASE}/formulas",
        json={
            "code": "GHS-TOP",
            "name": "Top",
            "lines": [{"formula_id": sub, "percent": 40}, {"ingredient_id": water, "percent": 60}],
        },
        headers=h,
    ).json()["data"]["id"]
    # 20 % of an oral ATE of 100 mg/kg: ATEmix 500, Acute Tox. 4 (H302).
    c = client.get(f"{BASE}/formulas/{top}/classification", headers=h)
    assert c.status_code == 200, c.text
    data = c.json()["data"]
    assert [(x["hazard_class"], x["category"], x["h"]) for x in data["hazards"]] == [("Acute Tox.", "4", "H302")]
    assert data["ate"] == {"oral": 500.0}
    assert [p["code"] for p in data["pictograms"]] == ["GHS07"]
    assert data["signal_word"] == {"code": "Warning", "en": "Warning", "de": "Achtung"}
    assert data["h_statements"] == [
        {"code": "H302", "en": "Harmful if swallowed.", "de": "Gesundheitsschädlich bei Verschlucken."}
    ]
    assert data["transport"]["un_number"] is None
    assert client.get(f"{BASE}/formulas/nope/classification", headers=h).status_code == 404

    svg = client.get(f"{BASE}/pictograms/GHS07", headers=h)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert client.get(f"{BASE}/pictograms/GHS99", headers=h).status_code == 404

    # Editing the ingredient: a bad PATCH is 400 and changes nothing; a good one changes the class.
    r = client.patch(f"{BASE}/ingredients/{tox}", json={"ate": {"oral": "abc"}}, headers=h)
    assert r.status_code == 400
    assert client.get(f"{BASE}/ingredients/{tox}", headers=h).json()["data"]["ate"] == {"oral": 100.0}
    r = client.patch(f"{BASE}/ingredients/{tox}", json={"ate": {"oral": 40}}, headers=h)
    assert r.status_code == 200, r.text
    data = client.get(f"{BASE}/formulas/{top}/classification", headers=h).json()["data"]
    assert [(x["category"], x["h"]) for x in data["hazards"]] == [("3", "H301")]  # ATEmix 200 mg/kg
    assert data["transport"]["transport_class"] == "6.1" and data["transport"]["packing_group"] == "III"

    used = client.get(f"{BASE}/ingredients/{tox}/where-used", headers=h).json()["data"]["formulas"]
    assert [(f["code"], f["percent"], f["direct"]) for f in used] == [("GHS-SUB", 50.0, True), ("GHS-TOP", 20.0, False)]

    # An ad-hoc mixture without a concentration: 400 with the method's message.
    r = client.post(f"{BASE}/classify", json={"components": [{"name": "Acid", "hazards": ["H314"]}]}, headers=h)
    assert r.status_code == 400 and "needs its concentration" in r.json()["error"]
    r = client.post(
        f"{BASE}/classify", json={"components": [{"name": "Acid", "percent": 6, "hazards": ["H314"]}]}, headers=h
    )
    assert r.status_code == 200 and r.json()["data"]["signal_word"]["de"] == "Gefahr"

    # Supplier block: owners and admins set it; bad phone is 400.
    body = {"address": "1 Main St", "phone": "+1 555 0100", "email": "sds@demo.test", "emergency_phone": "+1 555 0199"}
    assert client.put(f"{BASE}/supplier", json={**body, "phone": "call me"}, headers=h).status_code == 400
    r = client.put(f"{BASE}/supplier", json=body, headers=h)
    assert r.status_code == 200 and r.json()["data"]["emergency_phone"] == "+1 555 0199"

    # Two SDS versions compared.
    assert client.post(f"{BASE}/formulas/{top}/sds", json={}, headers=h).status_code == 201
    client.patch(f"{BASE}/ingredients/{tox}", json={"ate": {"oral": 100}}, headers=h)
    assert client.post(f"{BASE}/formulas/{top}/sds", json={}, headers=h).status_code == 201
    diff = client.get(f"{BASE}/formulas/{top}/sds/compare", params={"a": 1, "b": 2}, headers=h)
    assert diff.status_code == 200, diff.text
    d = diff.json()["data"]
    assert d["hazards_added"] == ["Acute Tox. 4 (H302)"] and d["hazards_removed"] == ["Acute Tox. 3 (H301)"]
    assert d["pictograms_added"] == ["GHS07"] and d["pictograms_removed"] == ["GHS06"]
    assert d["signal_word"] == {"a": "Danger", "b": "Warning"}
    assert client.get(f"{BASE}/formulas/{top}/sds/compare", params={"a": 1}, headers=h).status_code == 400
