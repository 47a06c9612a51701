"""A scanned code in a real browser: the query forwarded, a paused code's fallback, the 410 page,
a vCard's landing page."""

from __future__ import annotations

from typing import Any

import httpx

from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers
from tests.pages.conftest import check_page

B = "/demo/qr/api"


def test_forwarded_query_paused_fallback_and_landing(pages_server: LiveServer, page: Any) -> None:
    base = pages_server.url
    # Both addresses are pages of this server, so the browser really arrives there.
    live = f"{base}/demo/campaign/p/subscribe/{demo_id('campaign-list', 'newsletter')}"
    fallback = f"{base}/demo/support/p/new?from=qr"
    with httpx.Client(base_url=base, timeout=30) as c:
        h = auth_headers(c, "owner@demo.test")
        r = c.post(f"{B}/qr", json={"name": "Poster", "destination_url": live, "fallback_url": fallback}, headers=h)
        assert r.status_code == 201, r.text
        code = r.json()["data"]
        card = c.post(
            f"{B}/qr",
            json={"name": "Ada", "type": "vcard", "content": "BEGIN:VCARD\nFN:Ada Lovelace\nTEL:+4412345\nEND:VCARD"},
            headers=h,
        ).json()["data"]
    scan = f"{base}/demo/qr/r/{code['short_code']}"
    page.goto(scan + "?utm_source=poster")
    assert page.url == live + "?utm_source=poster"
    with httpx.Client(base_url=base, timeout=30) as c:
        h = auth_headers(c, "owner@demo.test")
        assert c.patch(f"{B}/qr/{code['id']}", json={"enabled": False}, headers=h).status_code == 200
    page.goto(scan + "?utm_source=poster&from=poster")
    # The fallback's own parameter wins; the scanner's other one is added.
    assert page.url == fallback + "&utm_source=poster"
    with httpx.Client(base_url=base, timeout=30) as c:
        h = auth_headers(c, "owner@demo.test")
        assert c.patch(f"{B}/qr/{code['id']}", json={"fallback_url": None}, headers=h).status_code == 200
    response = page.goto(scan)
    assert response is not None and response.status == 410
    assert "paused" in page.locator("main").inner_text()
    check_page(page, "qr-gone")
    page.goto(f"{base}/demo/qr/r/{card['short_code']}")
    assert page.locator("h1").inner_text() == "Ada Lovelace"
    check_page(page, "qr-vcard")
    with page.expect_download() as dl:
        page.get_by_role("link", name="Save contact (.vcf)").click()
    assert dl.value.suggested_filename == "Ada.vcf"
