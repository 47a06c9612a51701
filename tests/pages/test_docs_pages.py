"""The public help centre in a real browser: every published document reachable from the front
page through its category, the search box with the API's ranking, a document page; drafts,
archived and trashed documents never appear."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect
from sqlalchemy import select

from local_db.models.docs import DocDocument
from tests.conftest import LiveServer, auth_headers
from tests.pages.conftest import check_page

HOME = "/demo/docs/p/"


def test_help_centre_categories_search_and_hidden_documents(pages_server: LiveServer, page: Any) -> None:
    base = pages_server.url
    with pages_server.runtime.db.reading(None) as s:
        docs = list(s.execute(select(DocDocument)).scalars())
    published = [d for d in docs if d.status == "published" and d.deleted_at is None]
    hidden = [d for d in docs if d not in published]
    assert published and hidden  # the demo has drafts and archived documents
    page.goto(base + HOME)
    assert page.locator("h1").inner_text() == "Help centre"
    check_page(page, "docs-home")
    links = {a.get_attribute("href").rsplit("/", 1)[-1] for a in page.locator("main section a").all()}
    assert links == {d.id for d in published}  # every published document, nothing else
    # The search box: the same hits, in the same order, as the API's search.
    page.fill("#f-q", "tracking")
    page.get_by_role("button", name="Search").click()
    # locator.all() does not wait: wait for the results page's first hit before reading them all.
    page.locator("ol.hits > li > a").first.wait_for()
    shown = [a.get_attribute("href").rsplit("/", 1)[-1] for a in page.locator("ol.hits > li > a").all()]
    with httpx.Client(base_url=base, timeout=30) as c:
        h = auth_headers(c, "owner@demo.test")
        api = c.get("/demo/docs/api/documents/search", params={"q": "tracking", "limit": 20}, headers=h).json()
    assert shown and shown == [x["id"] for x in api["data"]]
    assert page.locator("ol.hits mark").count() >= 1
    snippets = page.locator("ol.hits").inner_text()
    assert "**" not in snippets and "# " not in snippets  # words, not the Markdown's syntax
    check_page(page, "docs-search")
    page.locator("ol.hits > li > a").first.click()
    expect(page.locator("h1")).to_have_text(next(d.title for d in published if d.id == shown[0]))
    assert page.locator("#f-q").is_visible()  # the search box on every page
    check_page(page, "docs-document")
    with httpx.Client(base_url=base, timeout=30) as c:
        for d in hidden:
            assert c.get(f"/demo/docs/p/d/{d.id}").status_code == 404, d.status
        r = c.get("/demo/docs/p/search", params={"q": hidden[0].title})
        assert r.status_code == 200 and f"/d/{hidden[0].id}" not in r.text
        # A query with markup is text on the page.
        r = c.get("/demo/docs/p/search", params={"q": "<script>x</script>"})
        assert r.status_code == 200 and "<script>x" not in r.text
        # Another tenant's help centre knows none of the demo's documents.
        assert published[0].id not in c.get("/other/docs/p/").text
        assert c.get(f"/other/docs/p/d/{published[0].id}").status_code == 404
