"""The requester's pages: a ticket opened through the form, answered by an agent, replied to."""

from __future__ import annotations

import re
from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models.support import SupportAttachment, SupportTicket
from tests.conftest import LiveServer, auth_headers
from tests.pages.conftest import check_page

NEW = "/demo/support/p/new"
AGT = "/api/tenants/demo/support"


def _tickets(srv: LiveServer) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(SupportTicket)).scalar_one())


def test_ticket_opened_answered_and_replied_through_the_pages(
    pages_server: LiveServer, page: Any, tmp_path: Any
) -> None:
    base = pages_server.url
    before = _tickets(pages_server)
    page.goto(base + NEW)
    check_page(page, "support-new")
    # Bad input: every message beside its field, nothing stored.
    page.fill("#f-email", "not-an-address")
    page.click("button[type=submit]")
    assert page.locator("#e-name").inner_text() == "This field is required."
    assert "valid e-mail" in page.locator("#e-email").inner_text()
    assert page.locator("#e-subject").is_visible() and page.locator("#e-description").is_visible()
    assert page.input_value("#f-email") == "not-an-address"  # what was typed is kept
    check_page(page)
    # A file type the helpdesk refuses: the ticket is not created either.
    bad = tmp_path / "run.exe"
    bad.write_bytes(b"MZ\x90\x00" + b"\x00" * 60)
    page.fill("#f-name", "Gina Guest")
    page.fill("#f-email", "gina@example.com")
    page.fill("#f-subject", "Kettle arrived broken")
    page.fill("#f-description", "The lid is cracked.")
    page.set_input_files("#f-attachments", str(bad))
    page.click("button[type=submit]")
    assert "not accepted" in page.locator("#e-attachments").inner_text()
    assert _tickets(pages_server) == before
    good = tmp_path / "photo.txt"
    good.write_text("the lid, cracked")
    page.set_input_files("#f-attachments", str(good))
    page.click("button[type=submit]")
    assert page.locator("h1").inner_text() == "Thank you"
    assert _tickets(pages_server) == before + 1
    number = re.search(r"TKT-\d{4}-\d{6}", page.locator(".notice").inner_text())
    assert number is not None
    check_page(page, "support-thanks")
    page.get_by_role("link", name="Follow your ticket").click()
    page.wait_for_url(re.compile(r"/demo/support/p/t/[\w-]{20,}$"))
    assert "The lid is cracked." in page.locator(".thread").inner_text()
    assert "photo.txt" in page.locator(".thread").inner_text()
    # An agent answers through the API.
    with httpx.Client(base_url=base, timeout=30) as c:
        op = auth_headers(c, "operator@demo.test")
        tid = c.get(f"{AGT}/tickets/{number.group(0)}", headers=op).json()["data"]["id"]
        r = c.post(f"{AGT}/tickets/{tid}/messages", headers=op, json={"body": "A new kettle is on its way."})
        assert r.status_code == 201, r.text
    page.reload()
    assert "A new kettle is on its way." in page.locator(".thread").inner_text()
    # An empty reply is refused beside the field; a reply with a file lands in the thread.
    page.click("button[type=submit]")
    assert page.locator("#e-body").inner_text() == "This field is required."
    page.fill("#f-body", "Thanks! Photo attached.")
    page.set_input_files("#f-attachments", str(good))
    page.click("button[type=submit]")
    assert page.locator(".notice").inner_text() == "Your reply was sent."
    assert page.locator(".thread > li").last.inner_text().count("Thanks! Photo attached.") == 1
    check_page(page, "support-ticket")
    # Solved by the agent: the requester rates it, once; the agent sees the rating.
    with httpx.Client(base_url=base, timeout=30) as c:
        op = auth_headers(c, "operator@demo.test")
        r = c.patch(f"{AGT}/tickets/{tid}", headers=op, json={"state": "resolved"})
        assert r.status_code == 200, r.text
        page.goto(page.url)  # a GET: a reload would send the reply's form again
        page.click("text=Send rating")
        assert page.locator("#e-rating").inner_text() == "Please choose from 1 to 5."
        assert c.get(f"{AGT}/tickets/{tid}", headers=op).json()["data"]["satisfaction_rating"] is None
        page.check("#r4")
        page.fill("#f-comment", "Quick and kind.")
        page.click("text=Send rating")
        assert page.locator(".notice").inner_text() == "Thank you for your rating."
        check_page(page, "support-rated")
        got = c.get(f"{AGT}/tickets/{tid}", headers=op).json()["data"]
        assert (got["satisfaction_rating"], got["satisfaction_comment"]) == (4, "Quick and kind.")
        assert got["rated_at"] is not None
    with pages_server.runtime.db.reading(None) as s:
        assert s.execute(select(func.count()).select_from(SupportAttachment)).scalar_one() >= 2


def test_headers_csrf_language_and_unknown_token(pages_server: LiveServer) -> None:
    with httpx.Client(base_url=pages_server.url, timeout=30) as c:
        r = c.get(NEW, headers={"Accept-Language": "fr, de;q=0.8, en;q=0.5"})
        assert r.status_code == 200 and r.headers["content-language"] == "de"
        assert "Support kontaktieren" in r.text
        csp = r.headers["content-security-policy"]
        nonce = re.search(r"'nonce-([\w-]+)'", csp)
        assert nonce and f'nonce="{nonce.group(1)}"' in r.text
        assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert r.headers["referrer-policy"] == "no-referrer"
        assert len(r.content) + len(c.get("/_pages/pages.css").content) < 100_000
        before = _tickets(pages_server)
        form = {"name": "Eve", "email": "eve@example.com", "subject": "x", "description": "y"}
        # No token, a forged token, a token from another cookie: refused, nothing stored.
        token = re.search(r'name="csrf_token" value="([^"]+)"', r.text)
        assert token is not None
        assert c.post(NEW, data=form).status_code == 403
        c.cookies.clear()
        c.cookies.set("pages_csrf", "a.b")
        assert c.post(NEW, data={**form, "csrf_token": "a.b"}).status_code == 403
        assert _tickets(pages_server) == before
        assert c.get("/demo/support/p/t/no-such-token").status_code == 404
        assert c.get("/no-such-tenant/support/p/new").status_code == 404
