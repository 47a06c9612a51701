"""Catalog routes against a real uvicorn server: products, variants, GTINs, categories, languages,
translations, deletion, strangers and bad input, PDF catalogs read back by pdfium and zxing."""

from __future__ import annotations

import time
from typing import Any

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

BASE = "/demo/catalog/api"


def _product(sku: str = "NEW-1", **extra: Any) -> dict[str, Any]:
    body = {
        "sku": sku,
        "name": "Linen shirt",
        "description": "Washed linen, relaxed fit.",
        "gtin": "6291041500213",
        "attributes": {"material": "linen"},
        "variants": [
            {"sku": f"{sku}-S", "options": {"size": "S"}, "price": "39.90", "gtin": "96385074"},
            {"sku": f"{sku}-M", "options": {"size": "M"}, "price": 41.5},
        ],
    }
    body.update(extra)
    return body


def _fields(r: httpx.Response) -> list[str]:
    return [f["field"] for f in r.json().get("details", {}).get("fields", [])]


def test_products_with_variants_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post(f"{BASE}/products", json=_product(), headers=h)
    assert r.status_code == 201, r.text
    p = r.json()["data"]
    assert p["status"] == "draft" and p["gtin"] == "6291041500213"
    assert [(v["sku"], v["price"]) for v in p["variants"]] == [("NEW-1-S", "39.90"), ("NEW-1-M", "41.50")]
    assert p["completeness"] == {"en": 100, "de": 0, "fr": 0}
    # Found by id, by SKU, and by a variant's SKU in the list's search.
    assert client.get(f"{BASE}/products/{p['id']}", headers=h).json()["data"]["sku"] == "NEW-1"
    assert client.get(f"{BASE}/products/NEW-1", headers=h).json()["data"]["id"] == p["id"]
    listed = client.get(f"{BASE}/products", params={"search": "new-1-m"}, headers=h).json()
    assert [x["id"] for x in listed["data"]] == [p["id"]] and listed["meta"]["total"] == 1
    offset_form = client.get(f"{BASE}/products", params={"offset": 0, "limit": 2, "sort": "-sku"}, headers=h).json()
    assert offset_form["pagination"]["limit"] == 2 and len(offset_form["data"]) == 2

    # Change: variants replaced, status moved by the state table.
    r = client.put(
        f"{BASE}/products/{p['id']}",
        json={"variants": [{"sku": "NEW-1-L", "options": {"size": "L"}, "price": "44.00"}], "status": "active"},
        headers=h,
    )
    assert r.status_code == 200, r.text
    assert r.json()["data"]["status"] == "active" and [v["sku"] for v in r.json()["data"]["variants"]] == ["NEW-1-L"]
    # The old variant SKUs are free again; an active product archives and cannot jump back to active.
    assert client.put(f"{BASE}/products/{p['id']}", json={"status": "archived"}, headers=h).status_code == 200
    wrong = client.put(f"{BASE}/products/{p['id']}", json={"status": "active"}, headers=h)
    assert wrong.status_code == 409 and wrong.json()["details"]["current_state"] == "archived"
    edit = client.put(f"{BASE}/products/{p['id']}", json={"name": "x"}, headers=h)
    assert edit.status_code == 409 and edit.json()["details"]["current_state"] == "archived"
    assert (
        client.put(f"{BASE}/products/{p['id']}", json={"status": "draft"}, headers=h).json()["data"]["status"]
        == "draft"
    )


def test_gtins_skus_and_bad_input_are_refused_with_the_field(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    bad_check = client.post(f"{BASE}/products", json=_product(gtin="6291041500214"), headers=h)
    assert bad_check.status_code == 400 and bad_check.json()["code"] == "VALIDATION_ERROR"
    assert _fields(bad_check) == ["gtin"] and "check digit" in bad_check.text
    variant_gtin = _product(variants=[{"sku": "V-1", "gtin": "12345678"}])
    assert _fields(client.post(f"{BASE}/products", json=variant_gtin, headers=h)) == ["variants.0.gtin"]
    for gtin in ("123456789", "62910415002a3", "6291041500213 "):
        r = client.post(f"{BASE}/products", json=_product(sku="G-1", gtin=gtin.strip() + "x"), headers=h)
        assert r.status_code == 400, gtin
    # SKUs are unique per tenant across products and variants (the demo's T-shirt has TSH-BLK-M).
    dup = client.post(f"{BASE}/products", json=_product(sku="TSH-BLK-M"), headers=h)
    assert dup.status_code == 409 and dup.json()["details"]["skus"] == ["TSH-BLK-M"]
    dup_variant = client.post(f"{BASE}/products", json=_product(sku="X-1", variants=[{"sku": "MUG-CER-01"}]), headers=h)
    assert dup_variant.status_code == 409
    same_options = _product(
        sku="X-2", variants=[{"sku": "X-2-A", "options": {"size": "S"}}, {"sku": "X-2-B", "options": {"size": "S"}}]
    )
    assert client.post(f"{BASE}/products", json=same_options, headers=h).status_code == 400
    assert _fields(client.post(f"{BASE}/products", json=_product(sku="has space", variants=[]), headers=h)) == ["sku"]
    assert _fields(client.post(f"{BASE}/products", json=_product(colour="red"), headers=h)) == ["colour"]
    assert _fields(
        client.post(f"{BASE}/products", json=_product(variants=[{"sku": "P-1", "price": "1.234"}]), headers=h)
    ) == ["variants.0.price"]
    assert client.post(f"{BASE}/products", json=_product(category_ids=["nope"]), headers=h).status_code == 400
    long = client.post(f"{BASE}/products", json=_product(description="x" * 20_001), headers=h)
    assert long.status_code == 400 and _fields(long) == ["description"]
    huge = client.post(f"{BASE}/products", json=_product(description="x" * (1024 * 1024 + 10)), headers=h)
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"
    assert (
        client.post(f"{BASE}/products", content=b"[1,2", headers={**h, "Content-Type": "application/json"}).status_code
        == 400
    )
    assert client.get(f"{BASE}/products/no-such-product", headers=h).status_code == 404
    assert client.get(f"{BASE}/products", params={"page": 0}, headers=h).status_code == 400
    assert client.get(f"{BASE}/products", params={"sort": "price"}, headers=h).status_code == 400


def test_strangers_wrong_roles_and_tenants(client: httpx.Client) -> None:
    assert client.get(f"{BASE}/products").status_code == 401
    device = auth_headers(client, "device@demo.test")
    assert client.get(f"{BASE}/products", headers=device).status_code == 403
    operator = auth_headers(client, "operator@demo.test")  # no catalog among the operator's modules
    assert client.post(f"{BASE}/products", json=_product(), headers=operator).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"{BASE}/products", headers=other).status_code in (401, 403)
    # The other tenant's own catalog does not see the demo's products.
    demo_product = demo_id("catalog-product", "demo", "TSH")
    assert client.get(f"/other/catalog/api/products/{demo_product}", headers=other).status_code == 404
    assert client.get("/other/catalog/api/products", headers=other).json()["meta"]["total"] == 0
    # Languages and deletion are for owners and admins.
    admin = auth_headers(client, "admin@demo.test")
    assert client.put(f"{BASE}/languages", json={"languages": ["en"]}, headers=device).status_code == 403
    assert client.put(f"{BASE}/languages", json={"languages": ["en", "de"]}, headers=admin).status_code == 200


def test_languages_translations_and_completeness(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    langs = client.get(f"{BASE}/languages", headers=h).json()["data"]
    assert langs["default"] == "en" and [x["tag"] for x in langs["languages"]] == ["en", "de", "fr"]
    de_before = next(x for x in langs["languages"] if x["tag"] == "de")["complete_products"]
    p = client.post(f"{BASE}/products", json=_product(sku="TR-1"), headers=h).json()["data"]
    r = client.post(
        f"{BASE}/products/{p['id']}/translations",
        json={"language": "DE", "name": "Leinenhemd", "description": "Gewaschenes Leinen."},
        headers=h,
    )
    assert r.status_code == 201, r.text
    out = r.json()["data"]
    assert out["translations"]["de"]["name"] == "Leinenhemd" and out["completeness"]["de"] == 100
    languages = client.get(f"{BASE}/languages", headers=h).json()["data"]["languages"]
    assert next(x for x in languages if x["tag"] == "de")["complete_products"] == de_before + 1
    # The translator's work list: products not complete in French.
    todo = client.get(f"{BASE}/products", params={"incomplete": "fr", "search": "TR-1"}, headers=h).json()
    assert [x["id"] for x in todo["data"]] == [p["id"]]
    # Changing the source text makes the translation stale: it no longer counts.
    changed = client.put(f"{BASE}/products/{p['id']}", json={"description": "Washed linen."}, headers=h).json()["data"]
    assert changed["translations"]["de"]["stale"] is True and changed["completeness"]["de"] == 0
    # A language not enabled, a malformed tag, the default language, an unknown field.
    not_enabled = client.post(
        f"{BASE}/products/{p['id']}/translations", json={"language": "es", "name": "x"}, headers=h
    )
    assert not_enabled.status_code == 400 and _fields(not_enabled) == ["language"]
    malformed = client.post(
        f"{BASE}/products/{p['id']}/translations", json={"language": "german!", "name": "x"}, headers=h
    )
    assert malformed.status_code == 400 and _fields(malformed) == ["language"]
    assert (
        client.post(
            f"{BASE}/products/{p['id']}/translations", json={"language": "en", "name": "x"}, headers=h
        ).status_code
        == 400
    )
    assert (
        client.put(f"{BASE}/languages", json={"languages": ["en", "zh_hant_tw"]}, headers=h).json()["data"][
            "languages"
        ][1]["tag"]
        == "zh-Hant-TW"
    )
    assert client.put(f"{BASE}/languages", json={"languages": ["en", "EN"]}, headers=h).status_code == 400
    assert client.put(f"{BASE}/languages", json={"languages": []}, headers=h).status_code == 400


def test_category_tree(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    root = client.post(f"{BASE}/categories", json={"name": "Outdoor"}, headers=h).json()["data"]
    child = client.post(f"{BASE}/categories", json={"name": "Tents", "parent_id": root["id"]}, headers=h)
    assert child.status_code == 201 and child.json()["data"]["path"] == ["Outdoor", "Tents"]
    child_id = child.json()["data"]["id"]
    cycle = client.put(f"{BASE}/categories/{root['id']}", json={"parent_id": child_id}, headers=h)
    assert cycle.status_code == 409 and cycle.json()["details"]["reason"] == "cycle"
    assert client.put(f"{BASE}/categories/{root['id']}", json={"parent_id": root["id"]}, headers=h).status_code == 409
    assert (
        client.post(f"{BASE}/categories", json={"name": "tents", "parent_id": root["id"]}, headers=h).status_code == 409
    )
    assert client.post(f"{BASE}/categories", json={"name": "X", "parent_id": "nope"}, headers=h).status_code == 400
    moved = client.put(
        f"{BASE}/categories/{child_id}", json={"parent_id": None, "name": "Tents and shelters"}, headers=h
    )
    assert moved.status_code == 200 and moved.json()["data"]["path"] == ["Tents and shelters"]
    tree = client.get(f"{BASE}/categories", params={"limit": 100}, headers=h).json()["data"]
    paths = [" / ".join(c["path"]) for c in tree]
    assert paths.index("Apparel") < paths.index("Apparel / T-shirts and tops")
    assert client.put(f"{BASE}/categories/nope", json={"name": "x"}, headers=h).status_code == 404


def test_delete_archives_with_history_and_deletes_without(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    fresh = client.post(f"{BASE}/products", json=_product(sku="DEL-1"), headers=h).json()["data"]
    r = client.delete(f"{BASE}/products/{fresh['id']}", headers=h)
    assert r.status_code == 204
    assert client.get(f"{BASE}/products/{fresh['id']}", headers=h).status_code == 404
    # The demo's active T-shirt has history: it is archived, not deleted.
    tsh = demo_id("catalog-product", "demo", "TSH")
    r = client.delete(f"{BASE}/products/{tsh}", headers=h)
    assert r.status_code == 200 and r.json()["data"]["status"] == "archived"
    again = client.delete(f"{BASE}/products/{tsh}", headers=h)
    assert again.status_code == 200 and again.json()["data"]["status"] == "archived"
    # Deleting is for owners and admins.
    other = client.post(f"{BASE}/products", json=_product(sku="DEL-2"), headers=h).json()["data"]
    assert (
        client.delete(f"{BASE}/products/{other['id']}", headers=auth_headers(client, "device@demo.test")).status_code
        == 403
    )


def test_a_double_submit_makes_one_product(client: httpx.Client) -> None:
    h = {**auth_headers(client, "owner@demo.test"), "Idempotency-Key": "catalog-create-1"}
    a = client.post(f"{BASE}/products", json=_product(sku="IDEM-1"), headers=h)
    b = client.post(f"{BASE}/products", json=_product(sku="IDEM-1"), headers=h)
    assert a.status_code == 201 and b.status_code in (200, 201) and a.json()["data"]["id"] == b.json()["data"]["id"]
    listed = client.get(f"{BASE}/products", params={"search": "IDEM-1"}, headers=h).json()
    assert listed["meta"]["total"] == 1


def _until_done(client: httpx.Client, url: str, h: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        d = client.get(url, headers=h).json()["data"]
        if d["status"] in ("succeeded", "failed", "cancelled") or time.monotonic() > deadline:
            return d
        time.sleep(0.05)


def test_pdf_catalog_job_with_embedded_fonts_and_vector_barcodes(client: httpx.Client) -> None:
    import pypdfium2 as pdfium
    import zxingcpp

    h = auth_headers(client, "owner@demo.test")
    r = client.post(f"{BASE}/catalogs/generate", json={"title": "Autumn 2026", "language": "de"}, headers=h)
    assert r.status_code == 201, r.text
    c = r.json()["data"]
    assert c["status"] in ("queued", "running", "succeeded") and c["job_id"]
    done = _until_done(client, f"{BASE}/catalogs/{c['id']}", h)
    assert done["status"] == "succeeded", done
    # The demo has six active products; the German catalog prints the German name where there is one.
    assert done["product_count"] == 6 and done["pages"] == 2
    f = client.get(f"{BASE}/catalogs/{c['id']}/download", headers=h)
    assert f.status_code == 200 and f.headers["content-type"] == "application/pdf"
    pdf = f.content
    assert pdf.startswith(b"%PDF-") and len(pdf) == done["size"]
    # Fonts embedded: TrueType font programs in the file, and no font used without one.
    assert pdf.count(b"/FontFile2") >= 2
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        text = page.get_textpage().get_text_range()
        assert "Keramikbecher" in text and "Art.-Nr." in text
        # Barcodes are vector paths, not images: the page has no image object but the product pictures'.
        images = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        assert images == []  # the demo products have no pictures
        img = page.render(scale=300 / 72).to_pil().convert("L")
    finally:
        doc.close()
    found = sorted((r.format.name, r.text) for r in zxingcpp.read_barcodes(img))
    # Page 1 by German name: Baseball cap, Canvas tote bag, Keramikbecher, Socks, Steel bottle; GTIN-13s as
    # EAN-13 (check digit as given), no GTIN: Code 128 of the SKU.
    assert found == [
        ("Code128", "BAG-TOTE"),
        ("Code128", "SCK-GRY-3P"),
        ("EAN13", "5901234123457"),
        ("EAN13", "7612345678900"),
        ("EAN13", "8712345678906"),
    ]
    # Listed, with its state; not in another tenant.
    listed = client.get(f"{BASE}/catalogs", headers=h).json()
    assert listed["data"][0]["id"] == c["id"] and listed["data"][0]["download_url"]
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/catalog/api/catalogs/{c['id']}/download", headers=other).status_code == 404
    # A language that is not enabled, a category that does not exist.
    assert client.post(f"{BASE}/catalogs/generate", json={"title": "x", "language": "ja"}, headers=h).status_code == 400
    assert (
        client.post(
            f"{BASE}/catalogs/generate", json={"title": "x", "language": "en", "category_ids": ["no"]}, headers=h
        ).status_code
        == 400
    )
    assert client.post(f"{BASE}/catalogs/generate", json={"language": "en"}, headers=h).status_code == 400
    assert client.get(f"{BASE}/catalogs/nope/download", headers=h).status_code == 404
