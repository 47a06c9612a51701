"""The subscriber's pages in a real browser: subscribe to the demo's public newsletter (bad input
refused beside its field, nothing stored), the confirmation mail's link, a GET that changes
nothing (mail scanners follow links), the button that confirms, and the consent kept."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

import httpx
from playwright.sync_api import expect
from sqlalchemy import func, select

from local_db.models.campaign import CampaignContact, CampaignMessage, CampaignSurveyResponse
from services.campaign import tokens
from services.core.demo import demo_id
from services.core.mail import mail_dir
from tests.conftest import LiveServer
from tests.pages.conftest import check_page

NEWS = demo_id("campaign-list", "newsletter")
VIP = demo_id("campaign-list", "vip")


def _contact(srv: LiveServer, email: str) -> CampaignContact | None:
    with srv.runtime.db.reading(None) as s:
        c = s.execute(select(CampaignContact).where(CampaignContact.email_key == email)).scalar_one_or_none()
        if c is not None:
            s.expunge(c)
        return c


def _count(srv: LiveServer) -> int:
    with srv.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(CampaignContact)).scalar_one())


def _confirm_link(srv: LiveServer, to: str) -> str:
    with srv.runtime.db.reading(None) as s:
        tenant_id = s.execute(select(CampaignContact.tenant_id).where(CampaignContact.email_key == to)).scalar_one()
    found = []
    for path in sorted(mail_dir(srv.runtime, tenant_id).glob("*.eml")):
        msg = message_from_bytes(path.read_bytes(), policy=default_policy)
        if msg["To"] == to and "Confirm your subscription" in str(msg["Subject"]):
            body = msg.get_body(("plain",))
            assert body is not None
            found += re.findall(r"https?://\S+/demo/campaign/p/confirm/\S+", body.get_content())
    assert len(found) == 1, found
    return found[0]


def test_subscribe_and_confirm_through_the_pages(pages_server: LiveServer, page: Any) -> None:
    base, email = pages_server.url, "nora.new@example.com"
    before = _count(pages_server)
    page.goto(f"{base}/demo/campaign/p/subscribe/{NEWS}")
    assert page.locator("h1").inner_text() == "Subscribe to Newsletter"
    check_page(page, "campaign-subscribe")
    # Bad input: a message beside each field, what was typed kept, nothing stored.
    page.fill("#f-email", "nora-at-example")
    page.click("button[type=submit]")
    assert "valid e-mail" in page.locator("#e-email").inner_text()
    assert "agree" in page.locator("#e-consent").inner_text()
    assert page.input_value("#f-email") == "nora-at-example"
    check_page(page)
    page.fill("#f-email", email)
    page.click("button[type=submit]")
    assert "agree" in page.locator("#e-consent").inner_text()  # no consent, no subscription
    assert _count(pages_server) == before
    page.check("#f-consent")
    page.fill("#f-name", "Nora")
    page.click("button[type=submit]")
    assert page.locator("h1").inner_text() == "Check your inbox"
    check_page(page, "campaign-check-inbox")
    c = _contact(pages_server, email)
    assert c is not None and c.status == "pending" and c.list_ids == []  # nothing is sent to it yet
    assert c.consent is not None and c.consent["confirmed_at"] is None and c.consent["ip"]
    assert c.consent["source"] == "subscribe form: Newsletter" and c.consent["at"]
    link = _confirm_link(pages_server, email)
    # A mail scanner's GET changes nothing.
    with httpx.Client(timeout=30) as scanner:
        assert scanner.get(link.replace(link.split("/demo/")[0], base)).status_code == 200
    c = _contact(pages_server, email)
    assert c is not None and c.status == "pending"
    page.goto(link.replace(link.split("/demo/")[0], base))
    assert "Newsletter" in page.locator("main").inner_text()
    check_page(page, "campaign-confirm")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("h1")).to_have_text("Subscription confirmed")
    check_page(page, "campaign-confirmed")
    c = _contact(pages_server, email)
    assert c is not None and c.status == "active" and c.list_ids == [NEWS]
    assert c.consent is not None and c.consent["confirmed_at"] and "pending_list_ids" not in c.consent
    # The preference centre: the public list and the contact's own; a private list is not offered.
    page.get_by_role("link", name="Manage your subscriptions").click()
    expect(page.locator("h1")).to_have_text("Your subscriptions")
    assert page.is_checked(f"#l-{NEWS}") and page.locator(f"#l-{VIP}").count() == 0
    check_page(page, "campaign-preferences")
    page.uncheck(f"#l-{NEWS}")
    page.get_by_role("button", name="Save my choices").click()
    expect(page.locator(".notice")).to_have_text("Your choices are saved.")
    c = _contact(pages_server, email)
    assert c is not None and c.list_ids == [] and c.status == "active"
    page.check(f"#l-{NEWS}")
    page.get_by_role("button", name="Save my choices").click()
    c = _contact(pages_server, email)
    assert c is not None and c.list_ids == [NEWS]
    prefs = page.url
    page.get_by_role("button", name="Unsubscribe from all").click()
    c = _contact(pages_server, email)
    assert c is not None and c.status == "unsubscribed"
    with httpx.Client(timeout=30) as other:
        assert other.get(prefs[:-1] + ("0" if prefs[-1] != "0" else "1")).status_code == 404  # a forged token
    # The link used again says there is nothing left to confirm.
    page.goto(link.replace(link.split("/demo/")[0], base))
    assert "already active" in page.locator("main").inner_text()


def test_private_list_and_forged_token_are_unknown(pages_server: LiveServer) -> None:
    base = pages_server.url
    with httpx.Client(base_url=base, timeout=30) as c:
        # The VIP list is not public: its form does not exist.
        assert c.get(f"/demo/campaign/p/subscribe/{VIP}").status_code == 404
        assert c.get("/demo/campaign/p/subscribe/nope").status_code == 404
        assert c.get("/demo/campaign/p/confirm/abc.0123456789abcdef0123456789abcdef").status_code == 404
        # Another tenant does not know the demo's newsletter.
        assert c.get(f"/other/campaign/p/subscribe/{NEWS}").status_code == 404
        # A POST without the form's CSRF token stores nothing.
        before = _count(pages_server)
        r = c.post(f"/demo/campaign/p/subscribe/{NEWS}", data={"email": "x@example.com", "consent": "yes"})
        assert r.status_code == 403 and _count(pages_server) == before


def test_unsubscribe_page_outside_api_and_old_links(pages_server: LiveServer, page: Any) -> None:
    rt, base = pages_server.runtime, pages_server.url
    with rt.db.reading(None) as s:
        m, contact = s.execute(
            select(CampaignMessage.id, CampaignContact.id)
            .join(CampaignContact, CampaignContact.id == CampaignMessage.contact_id)
            .where(CampaignContact.status == "active")
            .limit(1)
        ).one()
    token = tokens.make(rt, "unsubscribe", m)
    # The link already sent (under /api) still answers its page.
    with httpx.Client(base_url=base, timeout=30) as c:
        assert c.get(f"/demo/campaign/api/p/unsubscribe/{token}").status_code == 200
        assert c.get(f"/demo/campaign/p/unsubscribe/{token[:-1]}0").status_code == 404
    page.goto(f"{base}/demo/campaign/p/unsubscribe/{token}")
    assert "***@" in page.locator("main").inner_text()  # the address masked
    check_page(page, "campaign-unsubscribe")
    with rt.db.reading(None) as s:
        assert s.get(CampaignContact, contact).status == "active"  # type: ignore[union-attr]  # a GET changes nothing
    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.locator("h1")).to_have_text("You are unsubscribed")
    with rt.db.reading(None) as s:
        assert s.get(CampaignContact, contact).status == "unsubscribed"  # type: ignore[union-attr]


def test_survey_as_a_form(pages_server: LiveServer, page: Any) -> None:
    base, sid = pages_server.url, demo_id("campaign-survey", "nps")

    def responses() -> int:
        with pages_server.runtime.db.reading(None) as s:
            return int(
                s.execute(
                    select(func.count())
                    .select_from(CampaignSurveyResponse)
                    .where(CampaignSurveyResponse.survey_id == sid)
                ).scalar_one()
            )

    before = responses()
    page.goto(f"{base}/demo/campaign/p/survey/{sid}")
    assert page.locator("h1").inner_text() == "How did we do?"
    check_page(page, "campaign-survey")
    page.click("button[type=submit]")  # nothing answered: refused, nothing stored
    assert "at least one question" in page.locator("main").inner_text()
    assert responses() == before
    page.get_by_label("9", exact=True).check()
    page.get_by_label("Friend").check()
    page.fill("#f-q-comment", "Quick delivery <b>thanks</b>")
    page.click("button[type=submit]")
    assert page.locator("h1").inner_text() == "Thank you"
    assert responses() == before + 1
    with pages_server.runtime.db.reading(None) as s:
        last = s.execute(
            select(CampaignSurveyResponse.answers)
            .where(CampaignSurveyResponse.survey_id == sid)
            .order_by(CampaignSurveyResponse.created_at.desc())
            .limit(1)
        ).scalar_one()
    assert last == {"score": 9, "channel": "Friend", "comment": "Quick delivery <b>thanks</b>"}
    with httpx.Client(base_url=base, timeout=30) as c:
        assert c.get("/demo/campaign/p/survey/nope").status_code == 404
