"""Merging tickets: messages, attachments and requesters kept; the merged one points to the other."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from sqlalchemy import select

from local_db.models import Event
from local_db.models.support import SupportAttachment
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.files import Upload
from services.core.mail import MailConfig
from services.support.inbound import receive, tenant_ctx
from tests.services.support.test_support_mail_in import PDF, mail
from tests.services.support.test_support_service import agent, create, guest
from tests.smtp_server import SmtpServer


def test_merge_keeps_everything_and_points_to_the_ticket_that_stays(runtime: Runtime) -> None:
    a = agent(runtime)
    src_made = create(runtime, email="gina@example.com", subject="Kettle broken")
    src = execute(a, "support.tickets.get", ticket_id=src_made.ticket_number)
    dst = execute(a, "support.tickets.create", body={"email": "hugo@example.com", "name": "Hugo", "subject": "Kettle",
                                                      "description": "Our kettle is broken too"})  # fmt: skip
    att = execute(a, "support.attachments.upload", query={"ticket_id": src.id}, upload=Upload("p.pdf", "", PDF))
    execute(a, "support.messages.create", ticket_id=src.id, body={"body": "Photo attached", "attachment_ids": [att.id]})
    before = len(execute(a, "support.messages.list", ticket_id=src.id).root)
    out = execute(a, "support.tickets.merge", ticket_id=src.number, body={"into": dst.number})
    assert out.id == dst.id and out.other_requesters == ["gina@example.com"]
    kept = execute(a, "support.messages.list", ticket_id=dst.id).root
    assert len(kept) == 1 + before + 1  # its own description, the merged messages, the note
    assert "Photo attached" in [m.body for m in kept] and kept[-1].internal and src.number in kept[-1].body
    with runtime.db.reading(None) as s:
        assert s.get(SupportAttachment, att.id).ticket_id == dst.id  # type: ignore[union-attr]
        assert s.scalar(select(Event.id).where(Event.type == "ticket.merged")) is not None
    merged = execute(a, "support.tickets.get", ticket_id=src.id)
    assert merged.state == "closed" and merged.merged_into_id == dst.id
    # The guest of the merged ticket reads where it went.
    seen = execute(guest(runtime), "support.public.tickets.lookup",
                   body={"ticket_number": src.number, "access_token": src_made.access_token})  # fmt: skip
    assert seen.messages[-1].body == f"This request continues in ticket {dst.number}."
    # Both requesters get the next reply; a mail answering the merged ticket lands on the other one.
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        execute(a, "support.messages.create", ticket_id=dst.id, body={"body": "A new kettle for both of you."})
        sent = message_from_bytes(smtp.messages[0]["data"], policy=default)
        assert sent["To"] == "hugo@example.com" and sent["Cc"] == "gina@example.com"
        assert sorted(smtp.messages[0]["rcpt"]) == ["gina@example.com", "hugo@example.com"]
    got = receive(tenant_ctx(runtime, "demo"), mail(sender="gina@example.com", subject=f"Re: [{src.number}] thanks"))
    assert got.outcome == "message" and got.ticket_number == dst.number


def test_bad_merges_change_nothing(runtime: Runtime) -> None:
    a = agent(runtime)
    one = execute(a, "support.tickets.create", body={"email": "a@example.com", "name": "A", "subject": "x",
                                                      "description": "y"})  # fmt: skip
    two = execute(a, "support.tickets.create", body={"email": "b@example.com", "name": "B", "subject": "x",
                                                      "description": "y"})  # fmt: skip
    with pytest.raises(ValidationFailed, match="itself"):
        execute(a, "support.tickets.merge", ticket_id=one.id, body={"into": one.number})
    with pytest.raises(NotFound):
        execute(a, "support.tickets.merge", ticket_id=one.id, body={"into": "TKT-2020-999999"})
    execute(a, "support.tickets.update", ticket_id=two.id, body={"state": "resolved"})
    execute(a, "support.tickets.update", ticket_id=two.id, body={"state": "closed"})
    with pytest.raises(Conflict, match="remaining ticket is closed"):
        execute(a, "support.tickets.merge", ticket_id=one.id, body={"into": two.id})
    with pytest.raises(Conflict, match="merged ticket is closed"):
        execute(a, "support.tickets.merge", ticket_id=two.id, body={"into": one.id})
    assert execute(a, "support.tickets.get", ticket_id=one.id).state == "open"
    assert len(execute(a, "support.messages.list", ticket_id=one.id).root) == 1
