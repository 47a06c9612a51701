"""Mail leaves after the commit: kept as .eml files without an SMTP server, sent to one with it."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import httpx
import pytest

from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Forbidden, ValidationFailed
from services.core.mail import MailConfig, mail_dir
from tests.conftest import auth_headers
from tests.smtp_server import SmtpServer


def _ctx(rt: Runtime, email: str = "admin@demo.test") -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def _ticket(ctx: Ctx) -> str:
    page = execute(ctx, "support.tickets.list", query={"state": "open", "limit": 1})
    return str(page.items[0].id)


def test_a_reply_is_kept_as_eml_after_the_commit_and_listed(runtime: Runtime) -> None:
    admin = _ctx(runtime)
    tid = _ticket(admin)
    execute(admin, "support.messages.create", ticket_id=tid, body={"body": "We have sent a new cable."})
    execute(admin, "support.messages.create", ticket_id=tid, body={"body": "note to self", "internal": True})
    files = sorted(mail_dir(runtime, admin.tenant_id).glob("*.eml"))
    assert len(files) == 1  # an internal note never leaves
    assert oct(files[0].stat().st_mode & 0o777) == "0o600"
    msg = message_from_bytes(files[0].read_bytes(), policy=default)
    ticket = execute(admin, "support.tickets.get", ticket_id=tid)
    assert msg["To"] == ticket.requester_email and msg["Subject"].startswith(f"[{ticket.number}]")
    assert "We have sent a new cable." in msg.get_content()
    listed = execute(admin, "platform.mail.list", query={})
    assert listed.total == 1 and listed.items[0].to == ticket.requester_email
    raw = execute(admin, "platform.mail.get", id=listed.items[0].id)
    assert raw.media_type == "message/rfc822" and raw.content == files[0].read_bytes()
    assert execute(admin, "platform.mail.list", query={"search": "nobody-such"}).total == 0
    with pytest.raises(Forbidden):
        execute(_ctx(runtime, "operator@demo.test"), "platform.mail.list", query={})


def test_nothing_leaves_when_the_change_is_refused_or_made_on_a_station(runtime: Runtime, station: Runtime) -> None:
    admin = _ctx(runtime)
    with pytest.raises(ValidationFailed):
        execute(admin, "support.messages.create", ticket_id=_ticket(admin), body={"body": ""})
    assert not list(mail_dir(runtime, admin.tenant_id).glob("*.eml"))
    on_station = _ctx(station)
    execute(on_station, "support.messages.create", ticket_id=_ticket(on_station), body={"body": "offline reply"})
    assert not mail_dir(station, on_station.tenant_id).exists()  # the platform sends it on replay


def test_with_an_smtp_server_the_message_is_sent_there(runtime: Runtime) -> None:
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url, sender="Help <help@demo.test>"))
        admin = _ctx(runtime)
        execute(admin, "support.messages.create", ticket_id=_ticket(admin), body={"body": "Sent over SMTP."})
        assert len(smtp.messages) == 1
        sent = smtp.messages[0]
        assert sent["from"] == "help@demo.test" and smtp.auth  # signed in with the URL's user
        assert b"Sent over SMTP." in sent["data"]
    assert not mail_dir(runtime, admin.tenant_id).exists()


def test_starttls_is_used_when_offered_and_a_password_never_goes_in_clear() -> None:
    """A server that offers STARTTLS gets it before the password (its handshake fails here: no
    certificate, and nothing is sent in clear after); a server that is not on this machine and
    offers no TLS never gets the password."""
    import smtplib
    import ssl

    from services.core.mail import _connect

    with SmtpServer(starttls=True) as smtp:
        with pytest.raises((ssl.SSLError, smtplib.SMTPServerDisconnected, ConnectionError)):
            _connect(MailConfig(smtp_url=smtp.url))
        assert smtp.seen == ["STARTTLS"] and smtp.auth == []
    with SmtpServer("127.0.0.2") as far:  # another address: as far as the check knows, another host
        with pytest.raises(smtplib.SMTPNotSupportedError, match="offers no TLS"):
            _connect(MailConfig(smtp_url=far.url))
        assert far.auth == []


def test_mail_routes_over_http(client: httpx.Client) -> None:
    admin = auth_headers(client, "admin@demo.test")
    r = client.get("/api/tenants/demo/mail", headers=admin)
    assert r.status_code == 200 and r.json()["data"] == []
    assert client.get("/api/tenants/demo/mail/../secret", headers=admin).status_code == 404
    op = auth_headers(client, "operator@demo.test")
    assert client.get("/api/tenants/demo/mail", headers=op).status_code == 403
