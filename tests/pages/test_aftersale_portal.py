"""The warranty portal in a real browser: a product registered, an account, a claim with photos."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from sqlalchemy import func, select

from local_db.models.aftersale import AftersaleClaim, AftersaleFile, AftersaleWarranty
from tests.conftest import LiveServer
from tests.pages.conftest import check_page
from tests.pages.test_upgrade_portal import photo

P = "/demo/aftersale/p"


def _counts(srv: LiveServer) -> tuple[int, int, int]:
    with srv.runtime.db.reading(None) as s:
        return tuple(  # type: ignore[return-value]
            int(s.execute(select(func.count()).select_from(m)).scalar_one())
            for m in (AftersaleWarranty, AftersaleFile, AftersaleClaim)
        )


def test_warranty_registered_and_claim_filed_through_the_portal(
    pages_server: LiveServer, page: Any, tmp_path: Path
) -> None:
    base = pages_server.url + P
    page.goto(base + "/")
    check_page(page, "aftersale-welcome")
    page.get_by_role("link", name="Register a product").click()
    before = _counts(pages_server)
    # Bad input: empty, then a date in the future, an unknown product and a file that is not a receipt.
    page.click("button[type=submit]")
    for name in ("product_sku", "serial_number", "name", "email"):
        assert page.locator(f"#e-{name}").is_visible(), name
    check_page(page)
    page.fill("#f-product_sku", "MUG-CER-01")
    page.fill("#f-serial_number", "SN-MUG-777001")
    page.fill("#f-purchase_date", (date.today() + timedelta(days=3)).isoformat())
    page.fill("#f-name", "Wren Warranty")
    page.fill("#f-email", "wren@example.com")
    page.click("button[type=submit]")
    assert page.locator("#e-purchase_date").inner_text() == "The purchase date cannot be in the future."
    page.fill("#f-purchase_date", (date.today() - timedelta(days=10)).isoformat())
    page.fill("#f-product_sku", "NO-SUCH-SKU")
    page.click("button[type=submit]")
    assert "do not know this product code" in page.locator("#e-product_sku").inner_text()
    page.fill("#f-product_sku", "MUG-CER-01")
    exe = tmp_path / "receipt.exe"
    exe.write_bytes(b"MZ\x90\x00" + b"\x00" * 60)
    page.set_input_files("#f-proof", str(exe))
    page.click("button[type=submit]")
    assert "photo or a PDF" in page.locator("#e-proof").inner_text()
    assert page.input_value("#f-serial_number") == "SN-MUG-777001"  # what was typed is kept
    assert _counts(pages_server) == before
    page.set_input_files("#f-proof", photo(tmp_path, "receipt.png"))
    page.click("button[type=submit]")
    assert "is registered" in page.locator(".notice").inner_text()
    assert _counts(pages_server)[:2] == (before[0] + 1, before[1] + 1)
    check_page(page, "aftersale-registered")
    # The same product again: refused beside the serial.
    page.goto(base + "/register-product")
    for name, value in (
        ("product_sku", "MUG-CER-01"),
        ("serial_number", "sn-mug-777001"),  # the same serial, typed differently
        ("purchase_date", (date.today() - timedelta(days=10)).isoformat()),
        ("name", "Wren Warranty"),
        ("email", "wren@example.com"),
    ):
        page.fill(f"#f-{name}", value)
    page.click("button[type=submit]")
    assert page.locator("#e-serial_number").inner_text() == "This product is registered already."
    # An account with the same e-mail sees the registration and files a claim with a photo.
    page.goto(base + "/register")
    page.fill("#f-name", "Wren Warranty")
    page.fill("#f-email", "wren@example.com")
    page.fill("#f-password", "a-long-password")
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    assert "SN-MUG-777001" in page.locator("#warranties").inner_text()
    page.get_by_role("link", name="File a claim").first.click()
    page.get_by_role("button", name="File the claim").click()
    expect(page.locator("#e-warranty_id")).to_have_text("Please choose a covered product.")
    assert page.locator("#e-description").inner_text() == "This field is required."
    check_page(page)
    claims = _counts(pages_server)[2]
    page.select_option("#f-warranty_id", label="Ceramic mug · SN-MUG-777001")
    page.fill("#f-description", "The handle came off.")
    page.set_input_files("#f-photos", str(exe))
    page.get_by_role("button", name="File the claim").click()
    assert "Only photos" in page.locator("#e-photos").inner_text()
    assert _counts(pages_server)[2] == claims
    check_page(page, "aftersale-claim")
    page.set_input_files("#f-photos", photo(tmp_path, "handle.png"))
    page.get_by_role("button", name="File the claim").click()
    page.wait_for_url(base + "/?filed=1")
    assert "The handle came off." in page.locator("#claims").inner_text()
    assert _counts(pages_server)[2] == claims + 1
    check_page(page, "aftersale-home")
