"""The signing page: two signers in order, one drawn and one typed, the sealed PDF validated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select, text

from local_db.models.sign import SignCertificate, SignSigner
from tests.conftest import LiveServer, auth_headers
from tests.pages.conftest import check_page
from tests.services.sign.sign_helpers import links, make_pdf, pyhanko_validate

BASE = "/demo/sign/api"


def _document(c: httpx.Client) -> tuple[str, dict[str, str]]:
    h = auth_headers(c, "owner@demo.test")
    files = {"file": ("lease.pdf", make_pdf(1), "application/pdf")}
    r = c.post(f"{BASE}/documents", files=files, data={"title": "Flat lease", "signing_order": "sequential"}, headers=h)
    assert r.status_code == 201, r.text
    doc = r.json()["data"]["id"]
    ids = {}
    for order, (name, email) in enumerate([("Ann Able", "ann@example.test"), ("Bob Baker", "bob@example.test")], 1):
        r = c.post(f"{BASE}/documents/{doc}/signers", json={"name": name, "email": email, "order": order}, headers=h)
        assert r.status_code == 201, r.text
        ids[email] = r.json()["data"]["id"]
    box = {"page": 1, "x": 0.1, "width": 0.3, "height": 0.05}
    fields = [
        ("ann@example.test", "signature", 0.6, True),
        ("ann@example.test", "date", 0.7, True),
        ("bob@example.test", "signature", 0.6, True),
        ("bob@example.test", "checkbox", 0.8, True),
    ]
    for email, kind, y, required in fields:
        body = {**box, "signer_id": ids[email], "type": kind, "y": y, "required": required}
        assert c.post(f"{BASE}/documents/{doc}/fields", json=body, headers=h).status_code == 201
    assert c.post(f"{BASE}/documents/{doc}/send", json={}, headers=h).status_code == 200
    return doc, ids


def _status(srv: LiveServer, signer_id: str) -> str:
    with srv.runtime.db.reading(None) as s:
        return str(s.execute(select(SignSigner.status).where(SignSigner.id == signer_id)).scalar_one())


def test_two_signers_in_order_drawn_then_typed_and_the_sealed_pdf(
    pages_server: LiveServer, page: Any, tmp_path: Path
) -> None:
    base = pages_server.url
    with httpx.Client(base_url=base, timeout=30) as c:
        doc, ids = _document(c)
    mails = links(pages_server.runtime)
    assert "bob@example.test" not in mails  # the second signer's turn has not come
    ann = mails["ann@example.test"][-1]
    page.goto(f"{base}/demo/sign/p/{ann}")
    assert page.locator("h1").inner_text() == "Flat lease"
    img = page.request.get(base + page.locator("img.doc-page").get_attribute("src"))
    assert img.status == 200 and img.headers["content-type"] == "image/png", img.text()[:300]
    page.wait_for_function("document.querySelector('img.doc-page').naturalWidth > 0")
    check_page(page, "sign-signer")
    # No signature, no consent: both said beside their fields, nothing recorded.
    page.click("#sign-form button[type=submit]")
    assert "type or draw" in page.locator("#e-signature_text").inner_text()
    assert "agree" in page.locator("#e-consent").inner_text()
    assert _status(pages_server, ids["ann@example.test"]) == "viewed"
    # Drawn: the canvas is shown (JavaScript on), a stroke with the mouse.
    page.locator("#pad").scroll_into_view_if_needed()
    box = page.locator("#pad").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 60)
    page.mouse.down()
    for i in range(1, 8):
        page.mouse.move(box["x"] + 20 + i * 30, box["y"] + 60 + (15 if i % 2 else -15))
    page.mouse.up()
    page.check("#f-consent")
    page.click("#sign-form button[type=submit]")
    assert "You signed" in page.locator(".notice").inner_text()
    assert _status(pages_server, ids["ann@example.test"]) == "signed"
    # Bob's turn: typed, with JavaScript off (the page works without it).
    bob = links(pages_server.runtime)["bob@example.test"][-1]
    ctx = page.context.browser.new_context(viewport={"width": 375, "height": 800}, java_script_enabled=False)
    p2 = ctx.new_page()
    p2.goto(f"{base}/demo/sign/p/{bob}")
    assert p2.locator("#draw").is_hidden()
    p2.fill("#f-signature_text", "Bob Baker")
    p2.check("#f-consent")
    p2.click("#sign-form button[type=submit]")
    assert p2.locator(".field.has-error .error").inner_text() == "This field is required."  # the checkbox
    assert _status(pages_server, ids["bob@example.test"]) == "viewed"
    p2.check("#sign-form input[type=checkbox][value=true]")
    p2.check("#f-consent")
    p2.click("#sign-form button[type=submit]")
    assert "Everyone has signed" in p2.locator(".notice").inner_text()
    p2.get_by_role("link", name="Audit trail").click()
    p2.wait_for_url("**/audit")
    trail = p2.locator("table.trail").inner_text()
    assert trail.count("signed") >= 2 and "completed" in trail
    ctx.close()
    page.goto(f"{base}/demo/sign/p/{bob}")  # axe needs JavaScript: checked in the first context
    check_page(page, "sign-completed")
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.get(f"/demo/sign/p/{bob}/document.pdf")
        assert r.status_code == 200 and r.content.startswith(b"%PDF")
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        # The sealed PDF's page: rendered once, then answered from the kept rendering.
        sealed = c.get(f"/demo/sign/p/{bob}/page/1")
        assert sealed.status_code == 200 and sealed.content.startswith(b"\x89PNG")
        assert c.get(f"/demo/sign/p/{bob}/page/1").content == sealed.content
    with pages_server.runtime.db.reading(None) as s:
        pem = s.execute(select(SignCertificate.cert_pem).where(SignCertificate.active.is_(True))).scalars().first()
    (tmp_path / "seal.pem").write_text(str(pem))
    (tmp_path / "signed.pdf").write_bytes(r.content)
    report = pyhanko_validate(tmp_path / "signed.pdf", tmp_path / "seal.pem")
    assert "The signature is judged VALID" in report, report
    # A voided document says so plainly.
    with pages_server.runtime.db.engine.begin() as conn:
        conn.execute(text("UPDATE sign_documents SET status = 'voided' WHERE id = :id"), {"id": doc})
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.get(f"/demo/sign/p/{ann}")
        assert r.status_code == 410 and "voided" in r.text
        # A page rendered before is not answered for a dead link.
        assert c.get(f"/demo/sign/p/{bob}/page/1").status_code == 404
        assert c.get("/demo/sign/p/" + "A" * 43).status_code == 404
