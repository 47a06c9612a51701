"""Catalogue import and export against a real uvicorn server and its job worker: CSV and XLSX round
trips, a per-row report where good rows are stored and bad ones are not, and whole files refused
(unknown column, too many rows, not a spreadsheet, an XLSX bomb) with nothing stored."""

from __future__ import annotations

import csv
import io
import time
import zipfile
from typing import Any

import httpx

from tests.conftest import auth_headers

BASE = "/demo/catalog/api"
JOBS = "/api/tenants/demo/jobs"


def _rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def _csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def _import(client: httpx.Client, h: dict[str, str], content: bytes, name: str = "p.csv") -> httpx.Response:
    return client.post(f"{BASE}/products/import", files={"file": (name, content)}, headers=h)


def _job(client: httpx.Client, h: dict[str, str], job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        d = client.get(f"{JOBS}/{job_id}", headers=h).json()["data"]
        if d["status"] in ("succeeded", "failed", "cancelled") or time.monotonic() > deadline:
            return d
        time.sleep(0.05)


def _product(client: httpx.Client, h: dict[str, str], sku: str) -> dict[str, Any]:
    r = client.get(f"{BASE}/products/{sku}", headers=h)
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_export_edit_and_import_back_as_csv_and_xlsx(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.get(f"{BASE}/products/export", params={"format": "csv"}, headers=h)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = _rows(r.content)
    header = rows[0]
    assert header == [
        "sku", "product_sku", "status", "name", "description", "gtin", "categories", "family", "attributes",
        "options", "price", "name@de", "description@de", "name@fr", "description@fr",
    ]  # fmt: skip
    by_sku = {row[0]: dict(zip(header, row, strict=True)) for row in rows[1:]}
    assert by_sku["TSH"]["name@de"] == "T-Shirt aus Bio-Baumwolle" and by_sku["TSH"]["status"] == "active"
    assert by_sku["TSH-BLK-M"]["product_sku"] == "TSH" and by_sku["TSH-BLK-M"]["price"] == "19.90"
    assert by_sku["TSH-BLK-M"]["options"] == "colour=black|size=M"

    # Edited: a new product with two variants and a German text, a name changed on an existing one.
    rows = [row for row in rows if row[0] in ("TSH", "TSH-BLK-M", "TSH-WHT-L")]
    rows[0][3] = "Organic cotton tee"
    new = [
        "LIN-1",
        "",
        "active",
        "Linen shirt",
        "Washed linen.",
        "6291041500213",
        "",
        "",
        '{"material": "linen"}',
        "",
        "",
    ]
    rows += [
        new + ["Leinenhemd", "Gewaschenes Leinen.", "", ""],
        ["LIN-1-S", "LIN-1", "", "", "", "", "", "", "", "size=S", "39.90", "", "", "", ""],
        ["LIN-1-M", "LIN-1", "", "", "", "96385074", "", "", "", "size=M", "41.5", "", "", "", ""],
    ]
    r = _import(client, h, _csv([header, *rows]))
    assert r.status_code == 202, r.text
    job = _job(client, h, r.json()["data"]["id"])
    assert job["status"] == "succeeded", job
    assert job["result"] == {
        "rows": 6, "created": 1, "updated": 1, "skipped": 0, "report": [], "report_total": 0,
    }  # fmt: skip
    assert job["progress"] == 100 and job["done"] == 6
    lin = _product(client, h, "LIN-1")
    assert lin["status"] == "active" and lin["attributes"] == {"material": "linen"}
    assert [(v["sku"], v["price"], v["gtin"]) for v in lin["variants"]] == [
        ("LIN-1-S", "39.90", None),
        ("LIN-1-M", "41.50", "96385074"),
    ]
    assert lin["translations"]["de"]["name"] == "Leinenhemd" and lin["completeness"]["de"] == 100
    # Every product the import saved has a version made by it.
    versions = client.get(f"{BASE}/products/{lin['id']}/versions", headers=h).json()["data"]
    assert [(v["number"], v["source"]) for v in versions] == [(1, "import")]
    tsh = _product(client, h, "TSH")
    versions = client.get(f"{BASE}/products/{tsh['id']}/versions", headers=h).json()["data"]
    # The demo's product had no version: its state before the import is kept as version 1.
    assert [(v["number"], v["source"]) for v in versions] == [(2, "import"), (1, "earlier")]
    earlier = client.get(f"{BASE}/products/{tsh['id']}/versions/{versions[1]['id']}", headers=h).json()["data"]
    assert earlier["snapshot"]["name"] == "Organic cotton T-shirt" and earlier["author"] == ""
    assert tsh["name"] == "Organic cotton tee" and len(tsh["variants"]) == 2
    # The German text was made from the old English one: stale now (the file repeated it unchanged).
    assert tsh["translations"]["de"]["stale"] is False  # the row gave it again with the new name

    # XLSX: exported and imported back unchanged, every product updated, nothing reported but the
    # archived product (read only until restored).
    x = client.get(f"{BASE}/products/export", params={"format": "xlsx"}, headers=h)
    assert x.status_code == 200 and x.content[:2] == b"PK"
    r = _import(client, h, x.content, "products.xlsx")
    assert r.status_code == 202, r.text
    job = _job(client, h, r.json()["data"]["id"])
    assert job["status"] == "succeeded", job
    res = job["result"]
    assert res["created"] == 0 and res["updated"] == 9 and res["skipped"] == 1, res
    assert [(e["column"], e["message"]) for e in res["report"]] == [
        ("status", "the product is archived: status draft restores it")
    ]
    assert _product(client, h, "LIN-1")["variants"][1]["gtin"] == "96385074"  # digits kept as text
    assert client.get(f"{BASE}/products/export", params={"format": "pdf"}, headers=h).status_code == 400


def test_bad_rows_are_reported_and_skipped_good_rows_stored(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    header = ["sku", "product_sku", "name", "gtin", "categories", "attributes", "options", "price", "name@de"]
    rows = [
        ["OK-1", "", "Good", "", "", "", "", "", ""],  # 2
        ["BAD-GTIN", "", "Bad GTIN", "6291041500214", "", "", "", "", ""],  # 3
        ["BAD-CAT", "", "Bad category", "", "nope", "", "", "", ""],  # 4
        ["BAD-JSON", "", "Bad attributes", "", "", "{oops", "", "", ""],  # 5
        ["BAD-PRICE", "", "Bad variant price", "", "", "", "", "", ""],  # 6
        ["BAD-PRICE-1", "BAD-PRICE", "", "", "", "", "size=S", "1.234", ""],  # 7
        ["ORPHAN-1", "NOPE", "", "", "", "", "size=S", "", ""],  # 8
        ["TSH-BLK-M", "", "Taken by a variant", "", "", "", "", "", ""],  # 9
        ["OK-1", "", "Twice", "", "", "", "", "", ""],  # 10
        ["", "", "No SKU", "", "", "", "", "", ""],  # 11
        ["NO-NAME", "", "", "", "", "", "", "", ""],  # 12
        ["DE-ONLY", "", "Name", "", "", "", "", "", ""],  # 13
        ["OK-2", "", "Also good", "", "", "", "", "", "Auch gut"],  # 14
        ["OK-2-A", "OK-2", "Named variant", "", "", "", "size=A", "", ""],  # 15
        ["OK-3", "", "Good with options", "", "", "", "", "", ""],  # 16
        ["OK-3-A", "OK-3", "", "", "", "", "size", "", ""],  # 17
    ]
    r = _import(client, h, _csv([header, *rows]))
    assert r.status_code == 202, r.text
    job = _job(client, h, r.json()["data"]["id"])
    assert job["status"] == "succeeded", job
    report = [(e["row"], e["column"]) for e in job["result"]["report"]]
    assert report == [
        (3, "gtin"),
        (4, "categories"),
        (5, "attributes"),
        (7, "price"),
        (8, "product_sku"),
        (9, "sku"),
        (10, "sku"),
        (11, "sku"),
        (12, "name"),
        (15, "name"),
        (17, "options"),
    ], job["result"]["report"]
    assert "check digit" in job["result"]["report"][0]["message"]
    # A wrong row takes its product's other rows with it (row 6 with 7, 14 with 15, 16 with 17).
    assert job["result"]["created"] == 2 and job["result"]["skipped"] == 14
    assert _product(client, h, "OK-1")["name"] == "Good"  # the first of two rows with its SKU
    assert _product(client, h, "DE-ONLY")["variants"] == []
    for sku in ("BAD-GTIN", "BAD-CAT", "BAD-JSON", "BAD-PRICE", "BAD-PRICE-1", "NO-NAME", "OK-2", "OK-3", "OK-3-A"):
        assert client.get(f"{BASE}/products/{sku}", headers=h).status_code == 404, sku

    # Families: values checked by type, an unknown family refused; the good row takes its family.
    family = {"code": "mugs", "name": "Mugs", "attributes": [{"code": "ml", "type": "number", "unit": "ml"}]}
    assert client.post(f"{BASE}/families", json=family, headers=h).status_code == 201
    r = _import(
        client,
        h,
        _csv(
            [
                ["sku", "name", "family", "attributes"],
                ["MUG-A", "Mug", "mugs", '{"ml": 330}'],
                ["MUG-B", "Mug", "mugs", '{"ml": "big"}'],
                ["MUG-C", "Mug", "cups", ""],
                ["MUG-CER-01", "Ceramic mug", "mugs", ""],
            ]
        ),
    )
    job = _job(client, h, r.json()["data"]["id"])
    assert [(e["row"], e["column"], e["message"]) for e in job["result"]["report"]] == [
        (3, "attributes", "ml is a number (in ml)"),
        (4, "family", "no attribute family cups"),
    ], job["result"]  # the demo mug has no "ml" value: empty is allowed (completeness counts it)
    assert _product(client, h, "MUG-A")["family_id"] and _product(client, h, "MUG-CER-01")["family_id"]
    assert client.get(f"{BASE}/products/MUG-B", headers=h).status_code == 404


def _xlsx(cells: list[tuple[str, str]], dimension: str | None = None) -> bytes:
    """A minimal workbook written by hand, so that it can say or hold what openpyxl would not."""
    sheet = "".join(f'<row r="{ref[1:]}"><c r="{ref}" t="inlineStr"><is><t>{v}</t></is></c></row>' for ref, v in cells)
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        z.writestr(
            "xl/workbook.xml",
            '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
            '<sheet name="products" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        )
        z.writestr(
            "xl/worksheets/sheet1.xml",
            '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f"{dim}<sheetData>{sheet}</sheetData></worksheet>",
        )
    return out.getvalue()


def test_whole_files_refused_and_nothing_stored(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    before = client.get(JOBS, headers=h).json()["meta"]["total"]

    def refused(content: bytes, name: str = "p.csv") -> str:
        r = _import(client, h, content, name)
        assert r.status_code == 400, (name, r.text)
        return str(r.json()["error"])

    unknown = _import(client, h, b"sku,name,colour\nX-1,Shirt,red\n")
    assert unknown.status_code == 400 and unknown.json()["details"]["unknown"] == ["colour"]
    assert "whole file" in unknown.json()["error"]
    assert "unknown column 'name@ja'" in refused(b"sku,name@ja\nX-1,Shatsu\n")
    assert "twice" in refused(b"sku,name,name\nX-1,a,b\n")
    assert "no 'sku' column" in refused(b"name\nShirt\n")
    assert "100,000" in refused(b"sku\n" + b"".join(b"S-%d\n" % i for i in range(100_001)))
    assert "binary" in refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "p.png")
    assert "UTF-8" in refused("sku,name\nX,Gr\xfcn\n".encode("latin-1"))
    assert ".xls" in refused(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "old.xls")
    assert "empty" in refused(b"")
    # XLSX bombs: a sheet that claims a huge extent, one holding a far-out cell, a ZIP that is no workbook.
    ok = _xlsx([("A1", "sku"), ("A2", "X-1")])
    assert _import(client, h, ok, "ok.xlsx").status_code == 202
    assert "row 1048576" in refused(_xlsx([("A1", "sku")], "A1:XFD1048576"), "dim.xlsx")
    assert "column XFD" in refused(_xlsx([("A1", "sku"), ("XFD2", "x")]), "far.xlsx")
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("readme.txt", "hello")
    assert "not an XLSX" in refused(zipped.getvalue(), "x.zip")
    # Only the good workbook made a job; nobody but staff of the module imports.
    assert client.get(JOBS, headers=h).json()["meta"]["total"] == before + 1
    other = auth_headers(client, "owner@other.test")
    assert _import(client, other, b"sku\nX\n").status_code in (403, 404)
    assert client.post(f"{BASE}/products/import", files={"file": ("p.csv", b"sku\nX\n")}).status_code == 401
