"""The trade-in portal in a real browser: sign up, a quote, a trade-in with photos, an offer accepted."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import expect
from sqlalchemy import func, select

from local_db.models.upgrade import UpgradeCustomer, UpgradePhoto, UpgradeSubmission
from tests.conftest import LiveServer, auth_headers
from tests.pages.conftest import check_page

P = "/demo/upgrade/p"


def _count(srv: LiveServer, model: Any) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model)).scalar_one())


def photo(tmp_path: Path, name: str = "front.png") -> str:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 40, 40)).save(buf, "PNG")
    path = tmp_path / name
    path.write_bytes(buf.getvalue())
    return str(path)


def test_tradein_quoted_submitted_and_offer_accepted_through_the_portal(
    pages_server: LiveServer, page: Any, tmp_path: Path
) -> None:
    base = pages_server.url + P
    page.goto(base + "/")
    check_page(page, "upgrade-welcome")
    # A quote, without an account: bad input first.
    page.get_by_role("link", name="Get a quote").click()
    page.click("button[type=submit]")
    assert page.locator("#e-product_id").inner_text() == "Please choose a device."
    assert page.locator("#e-condition").inner_text() == "Please choose a condition."
    page.select_option("#f-product_id", "IPADAIR5-64")
    page.select_option("#f-condition", "good")
    page.click("button[type=submit]")
    assert page.locator("#quote-amount").inner_text() == "224.00 USD"  # 280.00 x 80 %
    check_page(page, "upgrade-quote")
    # Sign up: bad input beside each field, no account stored.
    accounts = _count(pages_server, UpgradeCustomer)
    page.goto(base + "/register")
    page.fill("#f-email", "not-an-address")
    page.fill("#f-password", "short")
    page.click("button[type=submit]")
    assert page.locator("#e-name").inner_text() == "This field is required."
    assert "valid e-mail" in page.locator("#e-email").inner_text()
    assert page.locator("#e-password").is_visible()
    assert _count(pages_server, UpgradeCustomer) == accounts
    check_page(page)
    page.fill("#f-name", "Tess Trader")
    page.fill("#f-email", "customer@demo.test")  # taken by the demo's customer
    page.fill("#f-password", "a-long-password")
    page.click("button[type=submit]")
    assert "already" in page.locator("#e-email").inner_text()
    page.fill("#f-email", "tess@example.com")
    page.fill("#f-password", "a-long-password")
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    assert _count(pages_server, UpgradeCustomer) == accounts + 1
    assert "You have no trade-ins yet." in page.inner_text("main")
    # A trade-in: bad input stores nothing (no photo; then a file that is not a photo).
    subs, photos = _count(pages_server, UpgradeSubmission), _count(pages_server, UpgradePhoto)
    page.get_by_role("link", name="New trade-in").first.click()
    page.fill("#f-serial_number", "!")
    page.get_by_role("button", name="Submit trade-in").click()
    assert page.locator("#e-product_id").is_visible() and page.locator("#e-condition").is_visible()
    assert page.locator("#e-photos").inner_text() == "Please add at least one photo of the device."
    check_page(page)
    page.select_option("#f-product_id", "IPADAIR5-64")
    page.select_option("#f-condition", "good")
    page.fill("#f-serial_number", "!bad serial")
    page.set_input_files("#f-photos", photo(tmp_path))
    page.get_by_role("button", name="Submit trade-in").click()
    expect(page.locator("#e-serial_number")).to_have_text("Please check this value.")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    page.fill("#f-serial_number", "DMPTESS0001")
    page.set_input_files("#f-photos", [photo(tmp_path), str(notes)])
    page.get_by_role("button", name="Submit trade-in").click()
    assert "Only photos" in page.locator("#e-photos").inner_text()
    assert (_count(pages_server, UpgradeSubmission), _count(pages_server, UpgradePhoto)) == (subs, photos)
    page.set_input_files("#f-photos", [photo(tmp_path), photo(tmp_path, "back.png")])
    page.get_by_role("button", name="Submit trade-in").click()
    page.wait_for_url(re.compile(r"/demo/upgrade/p/t/[\w-]+$"))
    assert page.locator("#status").inner_text() == "submitted"
    assert page.locator("#next").inner_text() == "We are looking at your trade-in and will send you an offer."
    assert _count(pages_server, UpgradePhoto) == photos + 2
    check_page(page, "upgrade-tradein")
    sub_id = page.url.rsplit("/", 1)[1]
    # Staff make an offer through the API; the customer accepts it on the page.
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        h = auth_headers(c, "owner@demo.test")
        r = c.post("/demo/upgrade/api/offers", headers=h, json={"submission_id": sub_id, "amount": "210.00"})
        assert r.status_code == 201, r.text
    page.reload()
    assert page.locator("#offer-amount").inner_text() == "210.00 USD"
    check_page(page, "upgrade-offer")
    page.get_by_role("button", name="Accept the offer").click()
    expect(page.locator(".notice")).to_have_text("You accepted the offer. Thank you!")
    assert page.locator("#status").inner_text() == "offer accepted"
    assert page.locator("#next").inner_text() == "We will post you a kit to send the device in."
    with pages_server.runtime.db.reading(None) as s:
        assert s.get(UpgradeSubmission, sub_id).status == "accepted"  # type: ignore[union-attr]
    page.get_by_role("link", name="Your trade-ins").click()
    assert "iPad Air" in page.locator(".cards").inner_text()
    check_page(page, "upgrade-home")
    # Signed out: the portal's pages send the visitor to sign in; another customer's trade-in is a 404.
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/signin\?out=1$"))
    assert page.locator(".notice").inner_text() == "You are signed out."
    page.fill("#f-email", "customer@demo.test")
    page.fill("#f-password", "wrong-password")
    page.click("button[type=submit]")
    assert "not correct" in page.locator(".error").inner_text()
    check_page(page, "upgrade-signin")
    page.fill("#f-password", "demo-password")
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    assert page.goto(f"{base}/t/{sub_id}").status == 404
    # The demo customer's draft (saved through the API) is submitted from its page.
    with pages_server.runtime.db.reading(None) as s:
        draft = s.execute(
            select(UpgradeSubmission.id)
            .join(UpgradeCustomer, UpgradeCustomer.id == UpgradeSubmission.customer_id)
            .where(UpgradeCustomer.email == "customer@demo.test", UpgradeSubmission.status == "draft")
        ).scalar_one()
    page.goto(f"{base}/t/{draft}")
    page.get_by_role("button", name="Submit trade-in").click()
    expect(page.locator(".notice")).to_have_text("Your trade-in is submitted.")
    assert page.locator("#status").inner_text() == "submitted"
