"""Inviting a user: the owner invites through the API, the invitation reaches a real SMTP server on
loopback, its link opens the platform's set-password page in a real browser. A weak password and
two different ones are refused beside their field with nothing stored; the right one enables the
user, who then signs in. The link works once; an expired, resent-over or revoked link is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from app.settings import Settings
from local_db.models import User
from local_db.models.invitations import UserInvitation
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, start_server
from tests.pages.conftest import check_page
from tests.smtp_server import SmtpServer

GOOD = "Kiwi-Harbour-42"


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as srv:
        yield srv


@pytest.fixture
def invite_server(settings: Settings, runtime: Runtime, smtp: SmtpServer) -> Iterator[LiveServer]:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="off", smtp_url=smtp.url)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


def _invite(client: httpx.Client, headers: dict[str, str], email: str) -> httpx.Response:
    body = {"email": email, "name": "Ina Vite", "role": "operator", "userModules": ["support"]}
    return client.post("/api/tenants/demo/users/invitations", json=body, headers=headers)


def _links(smtp: SmtpServer, to: str) -> list[str]:
    found = []
    for m in smtp.messages:
        if to in m["rcpt"]:
            msg = message_from_bytes(m["data"], policy=default_policy)
            body = msg.get_body(("plain",))
            assert body is not None
            found += re.findall(r"https?://\S+/demo/platform/p/invite/\S+", body.get_content())
    return found


def _user(srv: LiveServer, email: str) -> User:
    with srv.runtime.db.reading(None) as s:
        u = s.execute(select(User).where(User.email == email)).scalar_one()
        s.expunge(u)
        return u


def _signs_in(client: httpx.Client, email: str, password: str) -> bool:
    return client.post("/api/auth/login", json={"email": email, "password": password}).status_code == 200


def test_invited_user_sets_a_password_once_in_the_browser(
    invite_server: LiveServer, smtp: SmtpServer, page: Any
) -> None:
    email = "ina.vite@example.com"
    with httpx.Client(base_url=invite_server.url, timeout=60) as client:
        owner = auth_headers(client, "owner@demo.test")
        r = _invite(client, owner, email)
        assert r.status_code == 201, r.text
        assert r.json()["data"]["user"]["disabled"] is True
        assert _invite(client, owner, email).status_code == 409  # invited already: nothing doubled
        (link,) = _links(smtp, email)
        token = link.rsplit("/", 1)[1]
        before = _user(invite_server, email).password_hash
        with invite_server.runtime.db.reading(None) as s:
            stored = s.execute(select(UserInvitation.token_hash)).scalars().all()
        assert token not in stored and len(token) >= 40  # kept as its hash only

        page.goto(link)
        expect(page.locator("h1")).to_have_text("Choose your password")
        check_page(page, "platform-invite")
        # Weak: refused beside the field, nothing stored.
        page.fill("#f-password", "password1")
        page.fill("#f-again", "password1")
        page.click("button[type=submit]")
        expect(page.locator("#e-password")).to_have_text("Use at least 10 characters.")
        # Two different ones.
        page.fill("#f-password", GOOD)
        page.fill("#f-again", GOOD + "x")
        page.click("button[type=submit]")
        expect(page.locator("#e-again")).to_contain_text("differ")
        assert _user(invite_server, email).password_hash == before and _user(invite_server, email).disabled
        assert not _signs_in(client, email, GOOD)

        page.fill("#f-password", GOOD)
        page.fill("#f-again", GOOD)
        page.click("button[type=submit]")
        expect(page.locator("h1")).to_have_text("Password set")
        assert not _user(invite_server, email).disabled and _signs_in(client, email, GOOD)

        # Used twice: the same answer as an unknown link, and the password stays.
        page.goto(link)
        expect(page.locator("h1")).to_have_text("This link is not valid any more")
        again = client.post(f"/api/tenants/demo/invitations/{token}", json={"password": "Another-Pass-99"})
        assert again.status_code == 404 and _signs_in(client, email, GOOD)
        assert token not in again.text
        # Resending to someone who has set a password is refused.
        uid = r.json()["data"]["user"]["id"]
        assert client.post(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 409


def test_expired_resent_and_revoked_links_are_refused(invite_server: LiveServer, smtp: SmtpServer, page: Any) -> None:
    email = "late.comer@example.com"
    with httpx.Client(base_url=invite_server.url, timeout=60) as client:
        owner = auth_headers(client, "owner@demo.test")
        r = _invite(client, owner, email)
        assert r.status_code == 201, r.text
        uid = r.json()["data"]["user"]["id"]
        (first,) = _links(smtp, email)
        # Resent: a new mail, the first link stops working.
        assert client.post(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 200
        second = [x for x in _links(smtp, email) if x != first]
        assert len(second) == 1
        page.goto(first)
        expect(page.locator("h1")).to_have_text("This link is not valid any more")
        # Expired: 7 days are up.
        with invite_server.runtime.db.transaction(None) as s:
            for inv in s.execute(select(UserInvitation)).scalars():
                inv.expires_at -= timedelta(days=8)
        page.goto(second[0])
        expect(page.locator("h1")).to_have_text("This link is not valid any more")
        token = second[0].rsplit("/", 1)[1]
        assert client.post(f"/api/tenants/demo/invitations/{token}", json={"password": GOOD}).status_code == 404
        # Revoked: a fresh one, then revoked; its link is refused and the user stays disabled.
        assert client.post(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 200
        third = [x for x in _links(smtp, email) if x not in (first, second[0])]
        assert client.delete(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 200
        assert client.delete(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 409
        page.goto(third[0])
        expect(page.locator("h1")).to_have_text("This link is not valid any more")
        assert _user(invite_server, email).disabled and not _signs_in(client, email, GOOD)
        # An operator may not invite.
        assert _invite(client, auth_headers(client, "operator@demo.test"), "x@example.com").status_code == 403


def _mails(smtp: SmtpServer, to: str) -> list[Any]:
    return [message_from_bytes(m["data"], policy=default_policy) for m in smtp.messages if to in m["rcpt"]]


def test_the_invitation_mail_is_in_the_invitees_language(invite_server: LiveServer, smtp: SmtpServer) -> None:
    from local_db.models import Tenant

    with httpx.Client(base_url=invite_server.url, timeout=60) as client:
        owner = auth_headers(client, "owner@demo.test")
        body = {"email": "grete@example.com", "name": "Grete <Groß>", "role": "operator", "language": "de"}
        r = client.post("/api/tenants/demo/users/invitations", json=body, headers=owner)
        assert r.status_code == 201, r.text
        (mail,) = _mails(smtp, "grete@example.com")
        assert mail["Subject"].startswith("Ihre Einladung zu ")
        text = mail.get_body(("plain",)).get_content()
        html = mail.get_body(("html",)).get_content()
        assert text.startswith("Guten Tag Grete <Groß>,") and "Wählen Sie hier Ihr Passwort" in text
        assert "7 Tage lang" in text and "Melden Sie sich danach" in text
        assert '<html lang="de">' in html and "Grete &lt;Groß&gt;" in html and "Wählen Sie Ihr Passwort</a>" in html
        (link,) = re.findall(r"https?://\S+/demo/platform/p/invite/\S+", text)
        assert f'href="{link}"' in html  # the same link in both parts
        # A resend writes in the language the invitation was written in.
        uid = r.json()["data"]["user"]["id"]
        assert client.post(f"/api/tenants/demo/users/{uid}/invitation", headers=owner).status_code == 200
        assert _mails(smtp, "grete@example.com")[-1]["Subject"].startswith("Ihre Einladung zu ")
        # No language given: the tenant's setting; without one, English. A language we lack is refused.
        with invite_server.runtime.db.transaction(None) as s:
            tenant = s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one()
            tenant.settings = {**(tenant.settings or {}), "language": "de-DE"}
        assert _invite(client, owner, "hans@example.com").status_code == 201
        assert _mails(smtp, "hans@example.com")[-1]["Subject"].startswith("Ihre Einladung zu ")
        refused = client.post(
            "/api/tenants/demo/users/invitations",
            json={**body, "email": "f@example.com", "language": "fr"},
            headers=owner,
        )
        assert refused.status_code == 400 and not _mails(smtp, "f@example.com")
        with invite_server.runtime.db.reading(None) as s:
            assert s.execute(select(User).where(User.email == "f@example.com")).scalar_one_or_none() is None
        with invite_server.runtime.db.transaction(None) as s:
            tenant = s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one()
            tenant.settings = {k: v for k, v in (tenant.settings or {}).items() if k != "language"}
        assert _invite(client, owner, "eve@example.com").status_code == 201
        english = _mails(smtp, "eve@example.com")[-1]
        assert english["Subject"].startswith("Your invitation to ")
        assert english.get_body(("plain",)).get_content().startswith("Hello Ina Vite,")
