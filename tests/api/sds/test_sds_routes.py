"""SDS over HTTP on a real server: every spec route at its address, the PDFs as files, the import
as CSV and JSON bodies, wrong tenant, wrong role, wrong state, bad and oversized input, a double
submit."""

from __future__ import annotations

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

BASE = "/demo/sds/api"


def test_formulas_allergens_certificate_and_sds(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    allergens = client.get(f"{BASE}/allergens", headers=h).json()["data"]
    assert len(allergens["fragrance"]) >= 26 and len(allergens["food"]) == 14
    assert allergens["thresholds"]["leave_on"] == "0.001" and allergens["thresholds"]["rinse_off"] == "0.01"
    found = client.post(f"{BASE}/allergens/detect", json={"text": "Parfum (Linalool, 97-53-0)"}, headers=h).json()
    assert [f["name"] for f in found["data"]["found"]] == ["Linalool", "Eugenol"]
    assert client.post(f"{BASE}/allergens/detect", json={"text": ""}, headers=h).status_code == 400

    bad_cas = client.post(f"{BASE}/ingredients", json={"name": "Water", "cas": "7732-18-4"}, headers=h)
    assert bad_cas.status_code == 400 and bad_cas.json()["details"]["fields"][0]["field"] == "cas"
    ing = client.post(
        f"{BASE}/ingredients",
        json={
            "name": "Rose oil",
            "cas": "8007-01-0",
            "hazards": ["h317"],
            "allergens": [{"allergen": "Geraniol", "percent": 20}],
        },
        headers={**h, "Idempotency-Key": "sds-ing-1"},
    )
    same = client.post(
        f"{BASE}/ingredients",
        json={
            "name": "Rose oil",
            "cas": "8007-01-0",
            "hazards": ["h317"],
            "allergens": [{"allergen": "Geraniol", "percent": 20}],
        },
        headers={**h, "Idempotency-Key": "sds-ing-1"},
    )
    assert ing.status_code == 201 and same.json()["data"]["id"] == ing.json()["data"]["id"]
    rose = ing.json()["data"]
    assert rose["hazards"] == ["H317"] and rose["allergens"] == [
        {"allergen": "106-24-1", "name": "Geraniol", "percent": 20.0}
    ]
    listed = client.get(f"{BASE}/ingredients", params={"search": "rose oil", "offset": 0}, headers=h).json()
    assert listed["pagination"]["total"] == 1 and listed["meta"]["total"] == 1
    search = client.get(f"{BASE}/ingredients/search", params={"q": "rose oil"}, headers=h).json()["data"]
    assert search["results"][0]["id"] == rose["id"] and search["pubchem"] == "disabled"
    assert client.get(f"{BASE}/ingredients/search", headers=h).status_code == 400

    water = demo_id("sds-ingredient", "demo", "aqua")
    body = {
        "code": "API-1",
        "name": "Rose toner",
        "product_type": "leave_on",
        "lines": [{"ingredient_id": water, "percent": 99.99}, {"ingredient_id": rose["id"], "percent": 0.01}],
    }
    created = client.post(f"{BASE}/formulas", json=body, headers=h)
    assert created.status_code == 201, created.text
    f = created.json()["data"]
    assert f["status"] == "draft" and f["revision"] == 1 and len(f["lines"]) == 2
    not_100 = client.post(f"{BASE}/formulas", json={**body, "code": "API-2", "lines": body["lines"][1:]}, headers=h)
    assert not_100.status_code == 400 and not_100.json()["code"] == "VALIDATION_ERROR"
    assert client.post(f"{BASE}/formulas", json=body, headers=h).status_code == 409  # the code is taken
    both = {"ingredient_id": water, "formula_id": f["id"], "percent": 100}
    assert (
        client.post(f"{BASE}/formulas", json={**body, "code": "API-3", "lines": [both]}, headers=h).status_code == 400
    )
    huge = client.post(f"{BASE}/formulas", json={**body, "name": "x" * (1024 * 1024 + 5)}, headers=h)
    assert huge.status_code == 413

    assert client.get(f"{BASE}/formulas/{f['id']}/detect-allergens", headers=h).status_code == 404
    computed = client.post(f"{BASE}/formulas/{f['id']}/detect-allergens", json={}, headers=h)
    assert computed.status_code == 200
    geraniol = computed.json()["data"]["results"][0]
    assert geraniol == {
        "allergen": "106-24-1",
        "name": "Geraniol",
        "cas": "106-24-1",
        "percent": 0.002,
        "threshold": 0.001,
        "declarable": True,
        "banned": False,
    }
    assert client.get(f"{BASE}/formulas/{f['id']}/detect-allergens", headers=h).json()["data"]["results"] == [geraniol]

    cert = client.post(f"{BASE}/formulas/{f['id']}/certificate", json={}, headers=h)
    assert cert.status_code == 201 and cert.json()["data"]["kind"] == "certificate"
    pdf = client.get(f"{BASE}/formulas/{f['id']}/certificate", params={"format": "pdf"}, headers=h)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    assert client.get(f"{BASE}/formulas/{f['id']}/sds", headers=h).status_code == 404
    sds = client.post(f"{BASE}/formulas/{f['id']}/sds", json={}, headers=h)
    assert sds.status_code == 201 and sds.json()["data"]["download_url"].endswith("/sds?format=pdf")
    got = client.get(f"{BASE}/formulas/{f['id']}/sds", headers=h).json()["data"]
    assert got["id"] == sds.json()["data"]["id"] and got["stale"] is False
    assert client.get(f"{BASE}/formulas/{f['id']}/sds", params={"format": "pdf"}, headers=h).content[:5] == b"%PDF-"
    assert client.get(f"{BASE}/formulas/{f['id']}/sds", params={"format": "docx"}, headers=h).status_code == 400

    # The demo's old formula holds HICC: refused with the failing items.
    old = demo_id("sds-formula", "demo", "OLD-MUG")
    refused = client.post(f"{BASE}/formulas/{old}/certificate", json={}, headers=h)
    assert refused.status_code == 409 and refused.json()["details"]["failing"][0]["cas"] == "31906-04-4"

    # States: wrong state is 409 with the current state; a formula in evaluation keeps its lines.
    assert client.post(f"{BASE}/formulas/{f['id']}/status", json={"action": "release"}, headers=h).status_code == 409
    for action in ("start", "evaluate"):
        assert client.post(f"{BASE}/formulas/{f['id']}/status", json={"action": action}, headers=h).status_code == 200
    locked = client.put(
        f"{BASE}/formulas/{f['id']}", json={"lines": [{"ingredient_id": water, "percent": 100}]}, headers=h
    )
    assert locked.status_code == 409 and locked.json()["details"]["current_state"] == "evaluation"

    # Import: the template back as CSV, and a JSON array.
    template = client.get(f"{BASE}/formulas/import", headers=h)
    assert template.status_code == 200 and template.headers["content-type"].startswith("text/csv")
    csv_body = "formula_code,formula_name,product_type,ingredient,percent\r\nAPI-CSV,From CSV,rinse_off,Aqua,100\r\nAPI-CSV2,Bad,leave_on,Aqua,7\r\n"
    imp = client.post(f"{BASE}/formulas/import", content=csv_body, headers={**h, "Content-Type": "text/csv"})
    assert imp.status_code == 200, imp.text
    assert imp.json()["data"]["imported"] == 1 and imp.json()["data"]["errors"][0]["row"] == 2
    js = [{"code": "API-JSON", "name": "From JSON", "lines": [{"ingredient_id": water, "percent": "100"}]}]
    imp2 = client.post(f"{BASE}/formulas/import", json=js, headers=h)
    assert imp2.status_code == 200 and imp2.json()["data"] == {"imported": 1, "errors": []}
    listed_f = client.get(f"{BASE}/formulas", params={"search": "API-", "product_type": "rinse_off"}, headers=h).json()
    assert [x["code"] for x in listed_f["data"]] == ["API-CSV"]


def test_strangers_and_wrong_roles(client: httpx.Client) -> None:
    assert client.get(f"{BASE}/formulas").status_code == 401
    assert client.get(f"{BASE}/formulas", headers=auth_headers(client, "operator@demo.test")).status_code == 403
    assert (
        client.post(
            f"{BASE}/ingredients", json={"name": "x"}, headers=auth_headers(client, "device@demo.test")
        ).status_code
        == 403
    )
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"{BASE}/formulas", headers=other).status_code in (401, 403)
    demo_formula = demo_id("sds-formula", "demo", "CR-DAY")
    assert client.get(f"/other/sds/api/formulas/{demo_formula}", headers=other).status_code == 404
    assert client.post(f"/other/sds/api/formulas/{demo_formula}/sds", json={}, headers=other).status_code == 404
    assert client.get("/other/sds/api/formulas", headers=other).json()["meta"]["total"] == 0
