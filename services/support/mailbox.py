"""The helpdesk's mailboxes: IMAP polled (IMAPClient), and the use cases of inbound mail.

``PLATFORM_SUPPORT_IMAP``: one or more mailbox addresses, separated by spaces,
``imaps://user:password@host:993/INBOX?tenant=<slug>`` (``imap://`` for a server on this machine
only: a password never goes in clear to another host). Each poll reads the folder's unseen
mails (``BODY.PEEK[]``: reading does not mark them), files each one in its own transaction
(services/support/inbound.py) and only then marks it ``\\Seen``: a worker killed between the two
fetches the mail again at the next poll, and its Message-ID makes it a duplicate, stored once.

The poll runs on the scheduler (the periodic job ``support.mailbox_poll``, every
``PLATFORM_SUPPORT_IMAP_INTERVAL`` seconds, 60 by default, once across the server's processes) and
on demand:
``POST /api/tenants/{tenant}/support/mail/poll`` (``python -m app call support.mail.poll``).
"""

from __future__ import annotations

import logging
import os
import ssl
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from imapclient import IMAPClient
from sqlalchemy.orm import Session

from local_db.models.support import SupportInboundMail
from services.core.commands import SESSION, use_case
from services.core.context import Ctx, Runtime
from services.core.errors import ServiceError, ValidationFailed
from services.core.files import Upload
from services.core.pagination import Listing, ListQuery, Page
from services.core.roles import MANAGERS
from services.core.scheduler import periodic
from services.core.schemas import Out
from services.support.inbound import Received, receive, tenant_ctx

log = logging.getLogger("services.support.mailbox")
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
FETCH_CHUNK = 50  # mails fetched in one command: few round trips, bounded memory


@dataclass(frozen=True)
class Mailbox:
    host: str
    port: int
    secure: bool
    user: str
    password: str = field(repr=False)  # never in a log line or an error
    folder: str
    tenant: str

    @classmethod
    def parse(cls, url: str) -> Mailbox:
        u = urlparse(url.strip())
        if u.scheme not in ("imap", "imaps") or not u.hostname:
            raise ValueError("a mailbox address is imaps://user:password@host:port/FOLDER?tenant=<slug>")
        tenant = (parse_qs(u.query).get("tenant") or [""])[0]
        if not tenant:
            raise ValueError("the mailbox address names no tenant (?tenant=<slug>)")
        secure = u.scheme == "imaps"
        if not secure and u.hostname not in _LOOPBACK:
            raise ValueError(f"imap:// only to this machine: {u.hostname} is reached with imaps://")
        return cls(
            host=u.hostname,
            port=u.port or (993 if secure else 143),
            secure=secure,
            user=unquote(u.username or ""),
            password=unquote(u.password or ""),
            folder=unquote(u.path.lstrip("/")) or "INBOX",
            tenant=tenant,
        )


@dataclass(frozen=True)
class MailboxConfig:
    mailboxes: tuple[Mailbox, ...] = ()
    timeout: float = 30.0

    @classmethod
    def from_env(cls) -> MailboxConfig:
        urls = os.environ.get("PLATFORM_SUPPORT_IMAP", "").split()
        return cls(tuple(Mailbox.parse(u) for u in urls))


def _interval() -> timedelta:
    # Read when the server starts (the scheduler stores the period of each declared job at start).
    seconds = float(os.environ.get("PLATFORM_SUPPORT_IMAP_INTERVAL", "60"))
    if not seconds > 0:
        raise ValueError("PLATFORM_SUPPORT_IMAP_INTERVAL must be a positive number of seconds")
    return timedelta(seconds=seconds)


def poll_mailbox(rt: Runtime, box: Mailbox, *, timeout: float = 30.0) -> list[Received]:
    """File every unseen mail of ``box`` (each in its own transaction), then mark it seen."""
    ctx = tenant_ctx(rt, box.tenant)
    context = ssl.create_default_context() if box.secure else None
    done: list[Received] = []
    with IMAPClient(box.host, port=box.port, ssl=box.secure, ssl_context=context, timeout=timeout) as client:
        client.login(box.user, box.password)
        client.select_folder(box.folder)
        uids = sorted(client.search(["UNSEEN"]))
        for i in range(0, len(uids), FETCH_CHUNK):
            chunk = uids[i : i + FETCH_CHUNK]
            fetched = client.fetch(chunk, ["BODY.PEEK[]"])
            filed = []
            for uid in chunk:
                raw = (fetched.get(uid) or {}).get(b"BODY[]")
                if not isinstance(raw, bytes):
                    continue  # deleted meanwhile
                done.append(receive(ctx, raw, source="imap"))
                filed.append(uid)
            if filed:
                # After the commits: a crash before this line fetches them again, as duplicates.
                client.add_flags(filed, [b"\\Seen"])
    return done


@periodic("support.mailbox_poll", every=_interval(), lease=timedelta(minutes=10))
def poll_all(rt: Runtime) -> dict[str, Any]:
    """Every configured mailbox, one failure leaving the others going (said in the job's result)."""
    cfg = rt.part(MailboxConfig, MailboxConfig.from_env)
    filed, failed = 0, 0
    for box in cfg.mailboxes:
        try:
            filed += len(poll_mailbox(rt, box, timeout=cfg.timeout))
        except Exception as e:  # noqa: BLE001 - a mailbox down must not stop the others
            failed += 1
            log.warning("mailbox %s at %s:%s not polled: %s", box.folder, box.host, box.port, type(e).__name__)
    return {"mailboxes": len(cfg.mailboxes), "mails": filed, "failed": failed}


# --- use cases -------------------------------------------------------------------


class MailboxUnavailable(ServiceError):
    code = "MAILBOX_UNAVAILABLE"
    status = 503


class ReceivedOut(Out):
    outcome: str
    message_id: str
    ticket_number: str | None
    detail: str


class PollOut(Out):
    mailboxes: int
    received: list[ReceivedOut]


class InboundMailOut(Out):
    id: str
    message_id: str
    sender: str
    subject: str
    received_at: datetime
    source: str
    outcome: str
    ticket_id: str | None
    recipient: str | None
    status: str | None
    detail: str


class InboundQuery(ListQuery):
    outcome: str | None = None


INBOUND = Listing(
    SupportInboundMail,
    filters={"outcome": SupportInboundMail.outcome},
    search=(SupportInboundMail.sender, SupportInboundMail.subject, SupportInboundMail.message_id),
    sort={"received_at": SupportInboundMail.received_at},
    default_sort="-received_at",
)


def _out(r: Received) -> ReceivedOut:
    return ReceivedOut(outcome=r.outcome, message_id=r.message_id, ticket_number=r.ticket_number, detail=r.detail)


@use_case(
    "support.mail.receive",
    "POST /api/tenants/{tenant}/support/mail/inbound",
    tx="own",
    roles=MANAGERS,
    upload=True,
    limit="upload",
    status=201,
    record="support.ticket",
    summary="file one mail (message/rfc822) as the mailboxes do: a ticket, a message or a record",
)
def receive_mail(ctx: Ctx, upload: Upload) -> ReceivedOut:
    if not upload.content:
        raise ValidationFailed("the mail is empty")
    return _out(receive(ctx, upload.content, source="api"))


@use_case(
    "support.mail.poll",
    "POST /api/tenants/{tenant}/support/mail/poll",
    tx="own",
    roles=MANAGERS,
    online=True,
    needs=("the mailbox",),
    record="support.ticket",
    summary="poll this tenant's mailboxes now",
)
def poll_now(ctx: Ctx) -> PollOut:
    slug = ctx.tenant.slug if ctx.tenant else ""
    boxes = [b for b in ctx.runtime.part(MailboxConfig, MailboxConfig.from_env).mailboxes if b.tenant == slug]
    received: list[Received] = []
    for box in boxes:
        try:
            received += poll_mailbox(ctx.runtime, box)
        except (OSError, IMAPClient.Error) as e:  # the mails filed before the failure stay filed
            # Which mailbox and what kind of failure; never the address with its password.
            raise MailboxUnavailable(
                f"the mailbox {box.folder} at {box.host}:{box.port} could not be read ({type(e).__name__})",
                {"filed_before": len(received)},
            ) from None
    return PollOut(mailboxes=len(boxes), received=[_out(r) for r in received])


@use_case(
    "support.mail.inbound.list",
    "GET /api/tenants/{tenant}/support/mail/inbound",
    tx="read",
    roles=MANAGERS,
    summary="the mail received: what became of each (tickets, messages, auto-replies, loops, bounces, refusals)",
)
def list_inbound(ctx: Ctx, query: InboundQuery, session: Session = SESSION) -> Page[InboundMailOut]:
    return INBOUND.page(session, query, InboundMailOut)
