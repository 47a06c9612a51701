"""The dealer portal in a real browser: ask to join, a receipt uploaded, points seen, an item redeemed."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect
from sqlalchemy import func, select

from local_db.models.rewards import RewardsDealer, RewardsFile, RewardsOrder, RewardsReceipt
from tests.conftest import LiveServer
from tests.pages.conftest import check_page
from tests.pages.test_upgrade_portal import photo

P = "/demo/rewards/p"


def _count(srv: LiveServer, model: Any) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model)).scalar_one())


def _balance(srv: LiveServer) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(
            s.execute(select(RewardsDealer.balance).where(RewardsDealer.email == "dealer@demo.test")).scalar_one()
        )


def test_receipt_uploaded_and_item_redeemed_through_the_portal(
    pages_server: LiveServer, page: Any, tmp_path: Path
) -> None:
    base = pages_server.url + P
    page.goto(base + "/")
    check_page(page, "rewards-welcome")
    # Asking to join makes a pending request; it cannot sign in until staff approve it.
    page.get_by_role("link", name="Ask to join").click()
    page.get_by_role("button", name="Create an account").click()
    expect(page.locator("#e-company")).to_have_text("This field is required.")
    page.fill("#f-company", "Westend Tools")
    page.fill("#f-name", "Wes West")
    page.fill("#f-email", "wes@example.com")
    page.fill("#f-password", "a-long-password")
    page.get_by_role("button", name="Create an account").click()
    assert "once we have approved it" in page.locator(".notice").inner_text()
    page.get_by_role("link", name="Sign in").click()
    page.fill("#f-email", "wes@example.com")
    page.fill("#f-password", "a-long-password")
    page.get_by_role("button", name="Sign in").click()
    assert "not approved yet" in page.locator(".error").inner_text()
    # The demo's approved dealer.
    page.fill("#f-email", "dealer@demo.test")
    page.fill("#f-password", "demo-password")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(base + "/")
    start = _balance(pages_server)
    assert page.locator("#balance").inner_text() == f"{start:,} points"
    check_page(page, "rewards-home")
    # A receipt: bad input beside each field and nothing stored.
    files, receipts = _count(pages_server, RewardsFile), _count(pages_server, RewardsReceipt)
    page.get_by_role("link", name="Upload a receipt").first.click()
    send = page.get_by_role("button", name="Send the receipt")
    send.click()
    for name in ("receipt", "retailer", "purchase_date", "total"):
        assert page.locator(f"#e-{name}").is_visible(), name
    check_page(page)
    page.set_input_files("#f-receipt", photo(tmp_path, "receipt.png"))
    page.fill("#f-retailer", "BuildMart Main St")
    page.fill("#f-purchase_date", (date.today() + timedelta(days=2)).isoformat())
    page.fill("#f-total", "ten dollars")
    send.click()
    expect(page.locator("#e-total")).to_have_text("Please check this value.")
    page.set_input_files("#f-receipt", photo(tmp_path, "receipt.png"))
    page.fill("#f-total", "199.90")
    send.click()
    expect(page.locator("#e-purchase_date")).to_have_text("The purchase date cannot be in the future.")
    exe = tmp_path / "receipt.exe"
    exe.write_bytes(b"MZ\x90\x00" + b"\x00" * 60)
    page.set_input_files("#f-receipt", str(exe))
    page.fill("#f-purchase_date", (date.today() - timedelta(days=1)).isoformat())
    send.click()
    assert "photo or a PDF" in page.locator("#e-receipt").inner_text()
    assert (_count(pages_server, RewardsFile), _count(pages_server, RewardsReceipt)) == (files, receipts)
    check_page(page, "rewards-receipt")
    page.set_input_files("#f-receipt", photo(tmp_path, "receipt.png"))
    send.click()
    page.wait_for_url(base + "/?sent=1")
    assert "waiting for review" in page.locator(".notice").inner_text()
    assert "199.90" in page.locator("#receipts").inner_text()
    # The points box says what the API's points answer says (the page reads them in one go).
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        login = {"email": "dealer@demo.test", "password": "demo-password"}
        tok = c.post("/demo/rewards/api/auth/login", json=login).json()["data"]["token"]
        api = c.get("/demo/rewards/api/points", headers={"Authorization": f"Bearer {tok}"}).json()["data"]
    box = page.locator("p.meta", has_text="Worth").inner_text()
    assert api["pending"] > 0 and f"{api['pending']:,} points waiting for review" in box, (box, api)
    assert f"Worth {api['value']}" in box, (box, api)
    assert _count(pages_server, RewardsReceipt) == receipts + 1
    # The catalogue; a redemption with bad input, then one the points do not cover, then a good one.
    page.get_by_role("link", name="Catalogue").first.click()
    check_page(page, "rewards-catalogue")
    orders = _count(pages_server, RewardsOrder)
    page.get_by_role("link", name="Redeem Cordless drill").click()
    page.fill("#f-quantity", "0")
    page.fill("#f-line1", "")
    redeem = page.get_by_role("button", name="Redeem")
    redeem.click()
    expect(page.locator("#e-quantity")).to_have_text("Please give a number from 1 to 1000.")
    assert page.locator("#e-line1").inner_text() == "This field is required."
    for name, value in (("line1", "1 Dock Road"), ("city", "Springfield"), ("postal_code", "12345"), ("country", "US")):
        page.fill(f"#f-{name}", value)
    page.fill("#f-quantity", "5")  # 75,000 points
    redeem.click()
    assert page.locator("#e-quantity").inner_text() in (
        "You do not have enough points for this.",
        "Not enough in stock.",
    )
    assert _count(pages_server, RewardsOrder) == orders and _balance(pages_server) == start
    check_page(page, "rewards-redeem")
    page.goto(base + "/catalogue")
    page.get_by_role("link", name="Redeem Branded mug").click()
    for name, value in (("line1", "1 Dock Road"), ("city", "Springfield"), ("postal_code", "12345"), ("country", "US")):
        page.fill(f"#f-{name}", value)
    page.get_by_role("button", name="Redeem").click()
    notice = page.locator(".notice").inner_text()
    assert re.search(r"RD-\d{4}-\d{6}", notice) and "500 points" in notice
    assert _count(pages_server, RewardsOrder) == orders + 1 and _balance(pages_server) == start - 500
    check_page(page, "rewards-redeemed")
    page.get_by_role("link", name="Your points").first.click()
    expect(page.locator("#balance")).to_have_text(f"{start - 500:,} points")
    assert "redeemed" in page.locator("#history").inner_text()
