"""Every campaign mail links to its copy in the browser and to the preference centre; both open."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import httpx
from sqlalchemy import select

from local_db.models.campaign import Campaign, CampaignContact, CampaignEmailTemplate, CampaignMessage
from services.campaign.sending import Composer, email_for
from services.core import auth
from services.core.context import SYSTEM, Ctx
from tests.conftest import LiveServer
from tests.pages.conftest import check_page

LINK = r"https?://\S+/demo/campaign/p/{}/\S+"


def _demo_mail(srv: LiveServer) -> tuple[Ctx, Any, Any, str]:
    """The demo's sent campaign: its template, a recipient and the message id."""
    rt = srv.runtime
    ctx = Ctx(rt, auth.load_tenant(rt.db, "demo"), SYSTEM)
    with ctx.read() as s:
        m, camp = s.execute(
            select(CampaignMessage, Campaign)
            .join(Campaign, Campaign.id == CampaignMessage.campaign_id)
            .where(CampaignMessage.channel == "email")
            .limit(1)
        ).one()
        tpl = s.get(CampaignEmailTemplate, camp.template_id)
        contact = s.get(CampaignContact, m.contact_id)
        for row in (tpl, contact):
            s.expunge(row)
    return ctx, tpl, contact, m.id


def test_view_in_browser_and_preferences_links_of_a_campaign_mail(pages_server: LiveServer, page: Any) -> None:
    ctx, tpl, contact, message_id = _demo_mail(pages_server)
    mail = Composer(ctx, tpl).email(contact, message_id)  # what the send writes for this contact
    view = re.findall(LINK.format("view"), mail.text)
    prefs = re.findall(LINK.format("preferences"), mail.text)
    assert len(view) == 1 and len(prefs) == 1, mail.text
    assert mail.html is not None
    assert f'href="{view[0]}"' in mail.html and f'href="{prefs[0]}"' in mail.html  # not rewritten to tracking
    # The links name the configured public address; this test's server listens elsewhere.
    view_url = pages_server.url + urlsplit(view[0]).path
    # The message in the browser: the mail's own HTML, under a policy that lets no script run.
    with httpx.Client(timeout=30) as c:
        r = c.get(view_url)
        assert r.status_code == 200, r.text
        csp = r.headers["content-security-policy"]
        assert "sandbox" in csp and "script-src" not in csp and "default-src 'none'" in csp
        assert "frame-ancestors 'none'" in csp and r.headers["referrer-policy"] == "no-referrer"
        assert c.get(view_url[:-1] + ("0" if view_url[-1] != "0" else "1")).status_code == 404  # a forged token
    page.goto(view_url)
    assert contact.name.split()[0] in page.inner_text("body")  # rendered for this contact
    page.goto(pages_server.url + urlsplit(prefs[0]).path)
    assert page.locator("h1").inner_text() == "Your subscriptions"
    check_page(page)
    # A flow step's mail records no template to show again: preferences, no view link.
    flow_mail = email_for(ctx, tpl, contact, message_id)
    assert re.findall(LINK.format("preferences"), flow_mail.text) and "/p/view/" not in flow_mail.text
