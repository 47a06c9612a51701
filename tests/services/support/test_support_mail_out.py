"""Mail the helpdesk sends threads (Message-ID stored, In-Reply-To, References), answers to the
helpdesk's address and is sent at creation where the tenant asks; a real SMTP server on loopback."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any

from sqlalchemy import select

from local_db.models.support import SupportMessage, SupportTicket
from services.core.commands import execute
from services.core.context import Runtime
from services.core.mail import MailConfig
from tests.services.support.test_support_service import agent, create
from tests.smtp_server import SmtpServer


def _configure(rt: Runtime, **mail: Any) -> None:
    admin = agent(rt, "admin@demo.test")
    cfg = execute(admin, "support.helpdesk.get").model_dump(mode="json")
    cfg["mail"] = {**cfg["mail"], **mail}
    execute(admin, "support.helpdesk.put", body=cfg)


def _parsed(smtp: SmtpServer) -> list[EmailMessage]:
    return [message_from_bytes(m["data"], policy=default) for m in smtp.messages]  # type: ignore[misc]


def _ids(header: str | None) -> list[str]:
    return [part.strip("<>") for part in (header or "").split()]


def test_a_thread_of_mails_with_stored_message_ids(runtime: Runtime) -> None:
    _configure(runtime, address="support@demo.test", send_auto_reply=True)
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url, sender="Demo <no-reply@demo.test>"))
        made = create(runtime)
        a = agent(runtime)
        tid = execute(a, "support.tickets.get", ticket_id=made.ticket_number).id
        execute(a, "support.messages.create", ticket_id=tid, body={"body": "We ship a new kettle."})
        execute(a, "support.messages.create", ticket_id=tid, body={"body": "note", "internal": True})
        execute(a, "support.messages.create", ticket_id=tid, body={"body": "It left today."})
        mails = _parsed(smtp)
    assert [m["To"] for m in mails] == ["guest@example.com"] * 3  # the note never leaves
    first, reply, second = mails
    # The auto-reply: mailed once, marked as sent by a robot, with the link to the ticket's page.
    assert first["Auto-Submitted"] == "auto-replied" and first["Reply-To"] == "support@demo.test"
    assert f"/demo/support/p/t/{made.access_token}" in first.get_content()
    assert first["Subject"] == f"[{made.ticket_number}] Broken kettle"
    assert first["In-Reply-To"] is None
    with runtime.db.reading(None) as s:
        t = s.execute(select(SupportTicket).where(SupportTicket.id == tid)).scalar_one()
        stored = dict(
            s.execute(
                select(SupportMessage.body, SupportMessage.mail_message_id).where(SupportMessage.ticket_id == tid)
            ).all()
        )
    root = _ids(first["Message-ID"])[0]
    assert root.endswith("@demo.test") and t.mail_root_id == root
    assert stored["We ship a new kettle."] == _ids(reply["Message-ID"])[0]
    assert stored["It left today."] == _ids(second["Message-ID"])[0] and stored["note"] is None
    # Each answer names the one before it and the thread from its first mail.
    assert _ids(reply["In-Reply-To"]) == [root] and _ids(reply["References"]) == [root]
    assert reply["Reply-To"] == "support@demo.test" and reply["Auto-Submitted"] is None
    assert _ids(second["In-Reply-To"]) == _ids(reply["Message-ID"])
    assert _ids(second["References"]) == [root, _ids(reply["Message-ID"])[0]]


def test_creation_mail_only_where_the_tenant_asks(runtime: Runtime) -> None:
    a = agent(runtime)
    body = {"email": "zoe@example.com", "name": "Zoé Test", "subject": "Lost parcel", "description": "Where is it?"}
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        execute(a, "support.tickets.create", body=body)
        create(runtime)  # the auto-reply is on by default, but mailing it is not
        assert smtp.messages == []
        _configure(runtime, send_on_create=True)
        made = execute(a, "support.tickets.create", body=body)
        mails = _parsed(smtp)
    assert len(mails) == 1 and mails[0]["To"] == "zoe@example.com"
    text = mails[0].get_content()
    assert made.number in text and "Hello Zoé Test," in text and "/support/p/t/" not in text  # no guest token
    assert mails[0]["Reply-To"] is None  # no helpdesk address configured: answers go to the sender
    assert mails[0]["Auto-Submitted"] == "auto-replied"
