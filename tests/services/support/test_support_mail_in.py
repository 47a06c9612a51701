"""Mail in: an IMAP mailbox polled (a real IMAP server on loopback, tests/imap_server.py), each mail a
ticket or a message on the ticket it answers, robots and loops not answered, bounces recorded, the
same mail stored once, bad mail refused clearly."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import default
from email.utils import make_msgid
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models.support import SupportAttachment, SupportInboundMail, SupportMessage, SupportTicket
from services.core.commands import execute
from services.core.context import Runtime
from services.core.mail import MailConfig
from services.support.inbound import receive, tenant_ctx
from services.support.mailbox import Mailbox, MailboxConfig, MailboxUnavailable
from tests.imap_server import ImapServer
from tests.services.support.test_support_mail_out import _configure, _ids, _parsed
from tests.services.support.test_support_service import agent
from tests.smtp_server import SmtpServer

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def mail(
    sender: str = "Carla Client <carla@example.com>",
    subject: str = "My blender is broken",
    text: str = "It stopped after two days.",
    *,
    headers: dict[str, str] | None = None,
    attachments: list[tuple[str, bytes]] = (),  # type: ignore[assignment]
    message_id: bool = True,
) -> bytes:
    m = EmailMessage(policy=default)
    m["From"], m["To"], m["Subject"] = sender, "support@demo.test", subject
    if message_id:
        m["Message-ID"] = make_msgid(domain="example.com")
    for k, v in (headers or {}).items():
        m[k] = v
    m.set_content(text)
    for name, data in attachments:
        m.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return m.as_bytes()


def _poll(rt: Runtime) -> list[Any]:
    return execute(agent(rt, "admin@demo.test"), "support.mail.poll").received


def _log(rt: Runtime) -> list[SupportInboundMail]:
    with rt.db.reading(None) as s:
        rows = list(s.scalars(select(SupportInboundMail).order_by(SupportInboundMail.received_at)))
        s.expunge_all()
    return rows


def _count(rt: Runtime, model: Any, *where: Any) -> int:
    with rt.db.reading(None) as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


@pytest.fixture
def imap(runtime: Runtime) -> Any:
    with ImapServer() as server:
        runtime.provide(MailboxConfig((Mailbox.parse(server.url()),)))
        yield server


def test_a_mail_opens_a_ticket_and_answers_thread_onto_it(runtime: Runtime, imap: ImapServer) -> None:
    _configure(runtime, address="support@demo.test", send_auto_reply=True)
    first = mail(attachments=[("receipt.pdf", PDF)])
    imap.deliver(first)
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        [got] = _poll(runtime)
        assert got.outcome == "ticket" and got.ticket_number
        number = got.ticket_number
        [auto] = _parsed(smtp)
        # The auto-reply answers the customer's mail, in its thread, and says it is a robot's.
        assert _ids(auto["In-Reply-To"]) == [got.message_id] and auto["Auto-Submitted"] == "auto-replied"
        assert auto["Reply-To"] == "support@demo.test" and "/demo/support/p/t/" in auto.get_content()
        # The customer answers the auto-reply: threaded by In-Reply-To.
        imap.deliver(mail(subject="Re: anything", text="Here is the serial: 123.\n\nOn Mon, X wrote:\n> quoted",
                          headers={"In-Reply-To": auto["Message-ID"], "References": auto["Message-ID"]}))  # fmt: skip
        # By the number in the subject, from the requester only; someone else opens a new ticket.
        imap.deliver(mail(subject=f"Re: [{number}] more", text="And a photo later."))
        imap.deliver(mail(sender="mallory@example.com", subject=f"[{number}] let me in", text="hi"))
        outcomes = [(r.outcome, r.ticket_number == number) for r in _poll(runtime)]
        assert len(smtp.messages) == 2  # one more auto-reply: Mallory's new ticket
    assert outcomes == [("message", True), ("message", True), ("ticket", False)]
    assert imap.seen() == [1, 2, 3, 4]
    a = agent(runtime)
    t = execute(a, "support.tickets.get", ticket_id=number)
    assert t.source == "mail" and t.requester_email == "carla@example.com" and t.requester_name == "Carla Client"
    bodies = [m.body for m in execute(a, "support.messages.list", ticket_id=t.id).root]
    assert bodies[0] == "It stopped after two days." and "Here is the serial: 123." in bodies
    assert not any("quoted" in b for b in bodies)  # the quoted thread is cut
    with runtime.db.reading(None) as s:
        att = s.scalars(select(SupportAttachment).where(SupportAttachment.ticket_id == t.id)).one()
        first_msg = s.scalar(select(SupportMessage.id).where(SupportMessage.mail_message_id == got.message_id))
    assert att.filename == "receipt.pdf" and att.content_type == "application/pdf" and att.message_id == first_msg
    assert _poll(runtime) == []  # nothing unseen is left


def test_robots_loops_and_our_own_mail_are_never_answered(runtime: Runtime, imap: ImapServer) -> None:
    _configure(runtime, address="support@demo.test", send_auto_reply=True, max_mails_per_sender_per_hour=2)
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        imap.deliver(mail(sender="bot@example.com", headers={"Auto-Submitted": "auto-replied"}))
        imap.deliver(mail(sender="list@example.com", headers={"Precedence": "bulk"}))
        imap.deliver(mail(sender="ooo@example.com", headers={"X-Autoreply": "yes"}))
        imap.deliver(mail(sender="support@demo.test", subject="our own mail, back again"))
        for i in range(4):  # a robot without the headers: the hourly limit stops it
            imap.deliver(mail(sender="echo@example.com", subject=f"Re: Re: echo {i}"))
        got = [(r.outcome, r.detail) for r in _poll(runtime)]
        made = [r for r in got if r[0] == "ticket"]
        assert len(smtp.messages) == len(made) == 2  # the two first echoes, answered once each
        # An out-of-office answer to a ticket's mail is kept on it, reopens nothing, is not answered.
        a = agent(runtime)
        t = execute(a, "support.tickets.list", query={"requester": "echo@example.com", "limit": 1}).items[0]
        execute(a, "support.tickets.update", ticket_id=t.id, body={"state": "resolved"})
        with runtime.db.reading(None) as s:
            ref = s.scalar(select(SupportTicket.mail_root_id).where(SupportTicket.id == t.id))
        imap.deliver(
            mail(sender="boss@example.com", headers={"Auto-Submitted": "auto-replied", "In-Reply-To": f"<{ref}>"})
        )
        [ooo] = _poll(runtime)
        # The solve mailed its rating request (issue 35, part 3); the out-of-office answer got nothing.
        assert len(smtp.messages) == 3 and "How did we do?" in str(smtp.messages[-1]["data"])
    assert got[:4] == [
        ("auto_reply", "Auto-Submitted: auto-replied"),
        ("auto_reply", "Precedence: bulk"),
        ("auto_reply", "X-Autoreply"),
        ("loop", "sent from the helpdesk's own address"),
    ]
    assert [o for o, _d in got[4:]] == ["ticket", "ticket", "loop", "loop"]
    assert ooo.outcome == "auto_reply" and ooo.ticket_number == t.number
    assert execute(a, "support.tickets.get", ticket_id=t.id).state == "resolved"
    assert _count(runtime, SupportTicket, SupportTicket.source == "mail") == 2


def test_a_bounce_is_recorded_on_the_ticket_whose_mail_bounced(runtime: Runtime, imap: ImapServer) -> None:
    a = agent(runtime)
    t = execute(a, "support.tickets.list", query={"state": "open", "limit": 1}).items[0]
    execute(a, "support.messages.create", ticket_id=t.id, body={"body": "Could you send a photo?"})
    with runtime.db.reading(None) as s:
        sent = s.scalar(select(SupportMessage.mail_message_id).where(SupportMessage.body == "Could you send a photo?"))
    dsn = (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>\r\nTo: support@demo.test\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn-1@mx.example.net>\r\n"
        'MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.net\r\n\r\n"
        f"Final-Recipient: rfc822; {t.requester_email}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
        f"--B\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <{sent}>\r\nSubject: x\r\n\r\n--B--\r\n"
    ).encode()
    imap.deliver(dsn)
    [got] = _poll(runtime)
    assert got.outcome == "bounce" and got.ticket_number == t.number
    [row] = _log(runtime)
    assert (row.recipient, row.status, row.ticket_id) == (t.requester_email, "5.1.1", t.id)
    notes = [m for m in execute(a, "support.messages.list", ticket_id=t.id).root if m.internal]
    assert notes[-1].body == f"Mail to {t.requester_email} bounced (status 5.1.1)."
    listed = execute(agent(runtime, "admin@demo.test"), "support.mail.inbound.list", query={"outcome": "bounce"})
    assert listed.total == 1 and listed.items[0].status == "5.1.1"


def test_a_mail_fetched_again_after_a_crash_is_stored_once(runtime: Runtime, imap: ImapServer) -> None:
    for i in range(3):
        imap.deliver(mail(subject=f"Question {i}"))

    def crash() -> None:  # the worker dies after filing, before the mailbox is told
        raise ConnectionResetError

    imap.before_store = crash
    with pytest.raises(MailboxUnavailable) as failed:
        _poll(runtime)
    assert "s3cret" not in str(failed.value.to_body())
    assert imap.seen() == [] and _count(runtime, SupportTicket, SupportTicket.source == "mail") == 3
    imap.before_store = None
    assert [r.outcome for r in _poll(runtime)] == ["duplicate"] * 3
    assert imap.seen() == [1, 2, 3] and _count(runtime, SupportTicket, SupportTicket.source == "mail") == 3


def test_bad_mail_is_refused_or_kept_without_what_is_wrong(runtime: Runtime) -> None:
    ctx = tenant_ctx(runtime, "demo")
    # No Message-ID: an id made from the bytes, so the same mail twice is one ticket.
    raw = mail(message_id=False, subject="No id here")
    first, again = receive(ctx, raw), receive(ctx, raw)
    assert first.outcome == "ticket" and first.message_id.endswith("@no-message-id.invalid")
    assert again.outcome == "duplicate" and again.message_id == first.message_id
    # Broken MIME (the boundary never comes): still a ticket, with the text as it came.
    broken = (
        b"From: dan@example.com\r\nSubject: Broken\r\nMessage-ID: <b1@example.com>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="nowhere"\r\n\r\nplain words without parts\r\n'
    )
    assert receive(ctx, broken).outcome == "ticket"
    # Not a mail at all: refused, recorded once, nothing made.
    junk = receive(ctx, b"\x00\x01 this is no mail")
    assert junk.outcome == "refused" and "no sender" in junk.detail
    assert receive(ctx, b"\x00\x01 this is no mail").outcome == "duplicate"
    # A huge attachment: the mail is kept, the file is not, and a note says why.
    runtime.upload_limit = 4096
    big = receive(ctx, mail(subject="With a huge file", attachments=[("huge.pdf", PDF + b"0" * 5000)]))
    assert big.outcome == "ticket" and big.ticket_number
    a = agent(runtime)
    msgs = execute(a, "support.messages.list", ticket_id=big.ticket_number).root
    assert msgs[-1].internal and "huge.pdf" in msgs[-1].body and "over 4096 bytes" in msgs[-1].body
    assert _count(runtime, SupportAttachment, SupportAttachment.filename == "huge.pdf") == 0
    # A whole mail far over the limit is refused before it is read.
    over = receive(ctx, mail(subject="Far too big", text="x" * 9000))
    assert over.outcome == "refused" and "limit" in over.detail
    assert _count(runtime, SupportTicket, SupportTicket.subject == "Far too big") == 0
    # The API door takes one mail as message/rfc822 (managers only).
    admin = agent(runtime, "admin@demo.test")
    from services.core.files import Upload

    out = execute(admin, "support.mail.receive", upload=Upload("m.eml", "message/rfc822", mail(subject="By API")))
    assert out.outcome == "ticket"


def test_mailbox_addresses_are_checked() -> None:
    with pytest.raises(ValueError, match="tenant"):
        Mailbox.parse("imaps://u:p@mail.example.com/INBOX")
    with pytest.raises(ValueError, match="imaps"):
        Mailbox.parse("imap://u:p@mail.example.com/INBOX?tenant=demo")
    box = Mailbox.parse("imaps://help%40acme:p%2Fw@mail.example.com/Support?tenant=acme")
    assert (box.user, box.password, box.folder, box.port) == ("help@acme", "p/w", "Support", 993)
    assert "p/w" not in repr(box)


_CHILD = """
import sys
from pathlib import Path
from app.settings import Settings
from app.wiring import platform_runtime
from services.support.mailbox import Mailbox, poll_mailbox
data_dir, db_url, url, secret = sys.argv[1:5]
rt = platform_runtime(Settings(data_dir=Path(data_dir), database_url=db_url or None, secret_key=secret, demo=True))
poll_mailbox(rt, Mailbox.parse(url))
"""


def test_a_poller_killed_with_sigkill_after_filing_files_nothing_twice(
    runtime: Runtime, settings: Any, imap: ImapServer
) -> None:
    """A real kill -9 of the polling process between its commits and the mailbox's \\Seen flags."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    from pathlib import Path

    from tests.conftest import TEST_SECRET

    for i in range(3):
        imap.deliver(mail(subject=f"Killed poll {i}"))
    reached, release = threading.Event(), threading.Event()

    def stop_here() -> None:  # the child has filed every mail of its chunk and asks to mark them
        reached.set()
        release.wait(60)
        raise ConnectionResetError

    imap.before_store = stop_here
    root = Path(__file__).resolve().parents[3]
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(settings.data_dir), settings.database_url or "", imap.url(), TEST_SECRET],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert reached.wait(120), child.stderr.read().decode() if child.poll() is not None and child.stderr else ""
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(60) == -signal.SIGKILL
    finally:
        release.set()
        if child.poll() is None:
            child.kill()
    imap.before_store = None
    assert imap.seen() == [] and _count(runtime, SupportTicket, SupportTicket.subject.like("Killed poll %")) == 3
    assert [r.outcome for r in _poll(runtime)] == ["duplicate"] * 3
    assert imap.seen() == [1, 2, 3] and _count(runtime, SupportTicket, SupportTicket.subject.like("Killed poll %")) == 3
