"""Documentation routes against a real uvicorn server: documents, trash, categories, search, media."""

from __future__ import annotations

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

B = "/demo/docs/api"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)


def test_documents_trash_and_search(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    made = client.post(
        f"{B}/documents",
        json={"title": "Kettle descaling", "body": "# Descale\n\nUse citric acid.", "tags": ["kettle"]},
        headers={**h, "Idempotency-Key": "doc-1"},
    )
    assert made.status_code == 201, made.text
    doc = made.json()["data"]
    again = client.post(
        f"{B}/documents",
        json={"title": "Kettle descaling", "body": "# Descale\n\nUse citric acid.", "tags": ["kettle"]},
        headers={**h, "Idempotency-Key": "doc-1"},
    )
    assert again.json()["data"]["id"] == doc["id"]
    assert doc["status"] == "draft" and doc["tags"] == ["kettle"]
    # Drafts stay out of the search until published.
    assert client.get(f"{B}/documents/search", params={"q": "descal"}, headers=h).json()["meta"]["total"] == 0
    pub = client.put(f"{B}/documents/{doc['id']}", json={"status": "published"}, headers=h)
    assert pub.status_code == 200 and pub.json()["data"]["status"] == "published"
    found = client.get(f"{B}/documents/search", params={"q": "escal"}, headers=h).json()
    assert found["data"][0]["id"] == doc["id"] and set(found["data"][0]) == {
        "id",
        "title",
        "snippet",
        "score",
        "category_id",
        "status",
    }
    assert found["pagination"]["total"] == 1 and found["meta"]["total_capped"] is False  # an exact count
    assert client.get(f"{B}/documents/search", headers=h).status_code == 400  # q is required
    assert client.get(f"{B}/documents/search", params={"q": "x", "status": "gone"}, headers=h).status_code == 400
    listed = client.get(f"{B}/documents", params={"tag": "kettle"}, headers=h).json()
    assert [d["id"] for d in listed["data"]] == [doc["id"]]
    assert client.delete(f"{B}/documents/{doc['id']}", headers=h).status_code == 204
    assert client.get(f"{B}/documents/{doc['id']}", headers=h).status_code == 404
    trash = client.get(f"{B}/documents", params={"trashed": "true"}, headers=h).json()["data"]
    assert doc["id"] in {d["id"] for d in trash}
    restored = client.post(f"{B}/documents/{doc['id']}/restore", headers=h)
    assert restored.status_code == 200 and restored.json()["data"]["status"] == "published"
    assert client.delete(f"{B}/documents/{doc['id']}", params={"permanent": "true"}, headers=h).status_code == 204
    assert client.post(f"{B}/documents/{doc['id']}/restore", headers=h).status_code == 404
    sug = client.get(f"{B}/documents/suggest", params={"text": "my refund has not arrived"}, headers=h).json()
    assert sug["data"][0]["id"] == demo_id("docs-document", "refunds")
    bad = client.post(f"{B}/documents", json={"title": "", "extra": 1}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"


def test_categories_media_and_strangers(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    cats = client.get(f"{B}/doc-categories", headers=h).json()
    assert cats["meta"]["total"] >= 6 and all("parent_id" in c for c in cats["data"])
    root = demo_id("docs-category", "floor")
    made = client.post(f"{B}/doc-categories", json={"name": "Presses", "parent_id": root}, headers=h)
    assert made.status_code == 201 and made.json()["data"]["parent_id"] == root
    assert client.post(f"{B}/doc-categories", json={"name": "x", "parent_id": "nope"}, headers=h).status_code == 400
    did = demo_id("docs-document", "press-e42")
    up = client.post(f"{B}/documents/{did}/media", files={"file": ("die.png", PNG, "image/png")}, headers=h)
    assert up.status_code == 201, up.text
    media = up.json()["data"]
    assert set(media) >= {"id", "filename", "content_type", "size", "url"} and media["size"] == len(PNG)
    got = client.get(media["url"], headers=h)
    assert got.status_code == 200 and got.content == PNG and got.headers["content-type"] == "image/png"
    assert client.get(f"{B}/documents/{did}/media", headers=h).json()["meta"]["total"] == 1
    exe = client.post(
        f"{B}/documents/{did}/media", files={"file": ("x.bin", b"\x00\x01\x02\x03", "application/x")}, headers=h
    )
    assert exe.status_code == 400
    big = client.post(
        f"{B}/documents/{did}/media", files={"file": ("big.txt", b"a" * (21 * 1024 * 1024), "text/plain")}, headers=h
    )
    assert big.status_code == 413 and big.json()["code"] == "PAYLOAD_TOO_LARGE"
    assert client.get(f"{B}/documents").status_code == 401
    assert client.get(f"{B}/documents", headers=auth_headers(client, "device@demo.test")).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/docs/api/documents/{did}", headers=other).status_code == 404
    assert (
        client.get("/other/docs/api/documents/search", params={"q": "press"}, headers=other).json()["meta"]["total"]
        == 0
    )


def test_revisions_restore_and_export_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    made = client.post(f"{B}/documents", json={"title": "Warranty", "body": "Two years."}, headers=h)
    did = made.json()["data"]["id"]
    client.put(f"{B}/documents/{did}", json={"body": "Three years."}, headers=h)
    revs = client.get(f"{B}/documents/{did}/revisions", headers=h).json()["data"]
    assert [set(r) >= {"id", "title", "author", "at"} for r in revs] == [True, True]
    first = revs[-1]["id"]
    one = client.get(f"{B}/documents/{did}/revisions/{revs[0]['id']}", headers=h).json()["data"]
    assert "-Two years." in one["diff"] and "+Three years." in one["diff"]
    back = client.post(f"{B}/documents/{did}/revisions/{first}/restore", headers=h)
    assert back.status_code == 200 and back.json()["data"]["body"] == "Two years."
    gone = client.post(f"{B}/documents/{did}/revisions/{demo_id('nope')}/restore", headers=h)
    assert gone.status_code == 404
    md = client.get(f"{B}/documents/{did}/export", params={"format": "md"}, headers=h)
    assert md.status_code == 200 and md.text == "# Warranty\n\nTwo years." and "markdown" in md.headers["content-type"]
    pdf = client.get(f"{B}/documents/{did}/export", params={"format": "pdf"}, headers=h)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(f"{B}/documents/{did}/export", params={"format": "doc"}, headers=h).status_code == 400


def test_templates_and_category_export_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    made = client.post(f"{B}/templates", json={"name": "Fault", "title": "Fault on {{machine}}"}, headers=h)
    assert made.status_code == 201 and made.json()["data"]["placeholders"] == ["machine"]
    listed = client.get(f"{B}/templates", headers=h).json()["data"]
    assert made.json()["data"]["id"] in {t["id"] for t in listed}
    tid = made.json()["data"]["id"]
    doc = client.post(f"{B}/documents", json={"from_template": tid, "values": {"machine": "P1"}}, headers=h)
    assert doc.status_code == 201 and doc.json()["data"]["title"] == "Fault on P1"
    bad = client.post(f"{B}/documents", json={"from_template": tid, "values": {"press": "P1"}}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    cat = demo_id("docs-category", "floor")
    md = client.get(f"{B}/doc-categories/{cat}/export", params={"format": "md"}, headers=h)
    assert md.status_code == 200 and md.headers["content-type"] == "application/zip" and md.content[:2] == b"PK"
    pdf = client.get(f"{B}/doc-categories/{cat}/export", params={"format": "pdf"}, headers=h)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(f"{B}/doc-categories/{cat}/export", params={"format": "odt"}, headers=h).status_code == 400
    assert client.get(f"{B}/doc-categories/{demo_id('nope')}/export", headers=h).status_code == 404
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/docs/api/doc-categories/{cat}/export", headers=other).status_code == 404
    assert client.get(f"/other/docs/api/templates/{tid}", headers=other).status_code == 404
