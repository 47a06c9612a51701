"""Mail that comes in to the helpdesk: each one a ticket, a message on the ticket it answers, or a record.

One entry point, :func:`receive` (raw RFC 5322 bytes and the tenant), used by the IMAP poller
(services/support/mailbox.py), the SMTP endpoint (services/support/smtp_in.py) and the API. In one
transaction per mail:

1. **Once.** Its Message-ID (a digest of the bytes when it has none) is looked up in
   ``support_inbound_mail``, unique per tenant: a mail fetched again after a crash is a duplicate.
2. **Bounces** (a DSN, RFC 3464 ``multipart/report; report-type=delivery-status``, or a mailer
   daemon's non-standard notice) are recorded with the failed recipient and status, and noted on
   the ticket whose mail bounced (found by the original's Message-ID). Never answered.
3. **Robots and loops.** An auto-reply (``Auto-Submitted`` other than ``no``, ``Precedence: bulk,
   junk, list, auto_reply``, ``X-Autoreply``, ``X-Autorespond``, ``X-Auto-Response-Suppress``,
   ``List-Id``), a mail from the helpdesk's own address, or a sender past the hourly limit
   (``mail.max_mails_per_sender_per_hour``) is never answered and opens no ticket: it is added to
   the ticket it threads onto (without reopening it) or only recorded.
4. **Threading.** The ticket whose message's Message-ID (or whose thread's first mail) is named in
   ``In-Reply-To``, then ``References``; else a ticket number in the subject when the sender is that
   ticket's requester; else a new ticket (a closed ticket's follow-up too). A reply reopens a
   resolved or pending ticket, as a guest's reply does.
5. **Attachments** are kept as the guests' uploads are (type sniffed, size limit): one that is
   refused (too big, a type not accepted) is left out and an internal note says which and why.
"""

from __future__ import annotations

import hashlib
import html
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import getaddresses, parseaddr
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.support import SupportAttachment, SupportInboundMail, SupportMessage, SupportTicket
from services.core import auth
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import NotFound, ServiceError, ValidationFailed
from services.core.filesafety import clean_filename
from services.core.storage import store_blob
from services.support import states
from services.support.helpdesk import _DONE, ATTACHMENT_TYPES, MODULE, corpus_changed, load_config
from services.support.tickets import _add_message, _create

_TICKET_NUMBER = re.compile(r"\b(TKT-\d{4}-\d{6})\b", re.IGNORECASE)
_ANGLE_IDS = re.compile(r"<([^<>\s]+)>")
_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
_DAEMONS = re.compile(r"^(mailer-daemon|postmaster)@", re.IGNORECASE)
_BOUNCE_SUBJECT = re.compile(r"undeliver|delivery (status )?notification|returned mail|failure notice", re.I)
_QUOTE_HEAD = re.compile(r"^\s*(On .{5,200} wrote:|-{2,} ?Original Message ?-{2,})\s*$", re.IGNORECASE)
MAX_SUBJECT = 300
MAX_BODY = 20000


@dataclass(frozen=True)
class Received:
    """What became of one mail."""

    outcome: str  # ticket, message, auto_reply, loop, bounce, duplicate, refused
    message_id: str
    ticket_number: str | None = None
    detail: str = ""


def _ids(value: object) -> list[str]:
    text = str(value or "")
    found = _ANGLE_IDS.findall(text)
    return found or [w for w in text.split() if "@" in w]


def message_id_of(msg: Message, raw: bytes) -> str:
    """The mail's Message-ID, or a stable stand-in made from its bytes (the same mail twice: the same id)."""
    given = _ids(_header(msg, "Message-ID"))
    if given:
        return given[0][:255]
    return f"sha256-{hashlib.sha256(raw).hexdigest()[:48]}@no-message-id.invalid"


def _header(msg: Message, name: str) -> str:
    """A header as text; one the parser cannot read counts as missing (broken mail is common)."""
    try:
        value = msg.get(name)
    except (ValueError, IndexError, TypeError):
        return ""
    return str(value or "").strip()


def auto_reason(msg: Message) -> str | None:
    """Why this mail was written by a robot (never answered), or None."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if _header(msg, "Precedence").lower() in _PRECEDENCE:
        return f"Precedence: {_header(msg, 'Precedence').lower()}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder"):
        if _header(msg, name):
            return name
    suppress = _header(msg, "X-Auto-Response-Suppress").lower()
    if any(k in suppress for k in ("all", "oof", "autoreply")):
        return "X-Auto-Response-Suppress"
    if _header(msg, "List-Id"):
        return "List-Id (a mailing list)"
    return None


@dataclass(frozen=True)
class Bounce:
    recipient: str
    status: str
    original_ids: list[str]


def bounce_of(msg: Message) -> Bounce | None:
    """A delivery status notification (RFC 3464), or a mailer daemon's plain notice, else None."""
    sender = parseaddr(_header(msg, "From"))[1]
    is_report = msg.get_content_type() == "multipart/report" and (
        str(msg.get_param("report-type") or "").lower() == "delivery-status"
    )
    if not is_report and not (_DAEMONS.match(sender) and _BOUNCE_SUBJECT.search(_header(msg, "Subject"))):
        return None
    recipient, status, original = "", "", []
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype == "message/delivery-status":
            for group in part.get_payload() or []:
                if isinstance(group, Message):
                    final = _header(group, "Final-Recipient") or _header(group, "Original-Recipient")
                    recipient = recipient or final.split(";", 1)[-1].strip()
                    status = status or _header(group, "Status")
        elif ctype in ("message/rfc822", "text/rfc822-headers"):
            inner = part.get_payload()
            headers = inner[0] if isinstance(inner, list) and inner else inner
            if isinstance(headers, str):
                headers = message_from_bytes(headers.encode("utf-8", "replace"), policy=default_policy)
            if isinstance(headers, Message):
                original = _ids(_header(headers, "Message-ID"))
    return Bounce(recipient[:320], status[:20], original)


def body_text(msg: Message) -> str:
    """The mail's text (the plain part, else the HTML part as text), without the quoted thread below it."""
    part: Any = None
    if isinstance(msg, EmailMessage):
        try:
            part = msg.get_body(preferencelist=("plain", "html"))
        except (KeyError, ValueError, LookupError):
            part = None
    if part is None:
        part = msg if msg.get_content_maintype() == "text" else None
    if part is None:
        return ""
    raw = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = raw.decode(charset, "replace")
    except LookupError:  # a charset Python does not know
        text = raw.decode("utf-8", "replace")
    if part.get_content_subtype() == "html":
        text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"(?is)<(script|style).*?</\1>", "", text)))
    lines = text.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if _QUOTE_HEAD.match(line):  # the quoted conversation the customer's client added
            lines = lines[:i]
            break
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith(">")):
        lines.pop()
    return "\n".join(lines).strip()[:MAX_BODY]


def _attachments(msg: Message) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    if not isinstance(msg, EmailMessage):
        return out
    for part in msg.iter_attachments():
        if part.get_content_maintype() in ("multipart", "message"):
            continue
        data = part.get_payload(decode=True)
        if isinstance(data, bytes):
            out.append((clean_filename(part.get_filename() or "attachment"), data))
    return out


def parse(raw: bytes) -> Message:
    """The mail, or ValidationFailed when the bytes are no mail at all (no sender can be read)."""
    msg = message_from_bytes(raw, policy=default_policy)
    sender = parseaddr(_header(msg, "From"))[1]
    if "@" not in sender:
        raise ValidationFailed("not a mail: no sender address in From")
    return msg


def tenant_ctx(rt: Runtime, slug: str) -> Ctx:
    """A context of the tenant for mail arriving with nobody signed in."""
    tenant = auth.load_tenant(rt.db, slug)
    if tenant is None or MODULE not in tenant.modules:
        raise NotFound("no helpdesk for this tenant", {"tenant": slug})
    ctx = Ctx(rt, tenant, SYSTEM)
    ctx.operation = ("support.mail.receive", "support.ticket")
    return ctx


def receive(ctx: Ctx, raw: bytes, *, source: str = "api") -> Received:
    """Turn one mail into a ticket, a message or a record, once (see the module's description)."""
    limit = ctx.runtime.upload_limit * 2  # attachments travel base64: a third larger, and a few of them
    if len(raw) > limit:
        return _refuse(ctx, raw, source, f"the mail is {len(raw)} bytes, over the {limit}-byte limit")
    try:
        msg = parse(raw)
    except ValidationFailed as e:
        return _refuse(ctx, raw, source, e.message)
    mid = message_id_of(msg, raw)
    try:
        with ctx.write() as s:
            if s.scalar(select(SupportInboundMail.id).where(SupportInboundMail.message_id == mid)):
                return Received("duplicate", mid)
            return _file(ctx, s, msg, mid, source)
    except IntegrityError:  # the same mail filed by another worker at the same moment
        return Received("duplicate", mid)


def _refuse(ctx: Ctx, raw: bytes, source: str, why: str) -> Received:
    """Bytes that are no usable mail: recorded once (by their digest), never answered."""
    mid = f"sha256-{hashlib.sha256(raw).hexdigest()[:48]}@refused.invalid"
    try:
        with ctx.write() as s:
            if s.scalar(select(SupportInboundMail.id).where(SupportInboundMail.message_id == mid)):
                return Received("duplicate", mid)
            s.add(_log(ctx, mid, "", "", source, "refused", detail=why))
    except IntegrityError:
        return Received("duplicate", mid)
    return Received("refused", mid, detail=why)


def _log(ctx: Ctx, mid: str, sender: str, subject: str, source: str, outcome: str, **more: Any) -> SupportInboundMail:
    return SupportInboundMail(
        id=new_id(),
        message_id=mid,
        sender=sender[:320],
        subject=subject[:MAX_SUBJECT],
        received_at=ctx.now(),
        source=source,
        outcome=outcome,
        **more,
    )


def _threaded(s: Session, msg: Message, sender: str, subject: str) -> SupportTicket | None:
    """The ticket this mail answers: by In-Reply-To, then References (newest first), then the subject's number."""
    named = _ids(_header(msg, "In-Reply-To")) + list(reversed(_ids(_header(msg, "References"))))
    named = [n[:255] for n in dict.fromkeys(named)]
    if named:
        hits = dict(
            s.execute(
                select(SupportMessage.mail_message_id, SupportMessage.ticket_id).where(
                    SupportMessage.mail_message_id.in_(named)
                )
            ).all()
        )
        roots = dict(
            s.execute(
                select(SupportTicket.mail_root_id, SupportTicket.id).where(SupportTicket.mail_root_id.in_(named))
            ).all()
        )
        for n in named:
            tid = hits.get(n) or roots.get(n)
            if tid is not None:
                return _followed(s, s.get(SupportTicket, tid))
    m = _TICKET_NUMBER.search(subject)
    if m:
        t = s.execute(select(SupportTicket).where(SupportTicket.number == m.group(1).upper())).scalar_one_or_none()
        # A number is easy to copy: it threads only the requesters' own mail.
        if t is not None and sender in {t.requester_email.lower(), *(o.lower() for o in t.other_requesters or [])}:
            return _followed(s, t)
    return None


def _followed(s: Session, t: SupportTicket | None) -> SupportTicket | None:
    """A merged ticket's mail goes to the ticket it was merged into."""
    for _ in range(10):  # a chain of merges, never a cycle (a merged ticket takes no merge)
        if t is None or t.merged_into_id is None:
            return t
        t = s.get(SupportTicket, t.merged_into_id)
    return t


def _file(ctx: Ctx, s: Session, msg: Message, mid: str, source: str) -> Received:
    cfg = load_config(s)
    name, sender = parseaddr(_header(msg, "From"))
    sender = sender.lower()
    subject = re.sub(r"\s+", " ", _header(msg, "Subject")).strip()[:MAX_SUBJECT] or "(no subject)"
    bounce = bounce_of(msg)
    if bounce is not None:
        return _bounce(ctx, s, bounce, mid, sender, subject, source)
    why = auto_reason(msg)
    outcome = "auto_reply" if why else None
    own = (cfg.mail.address or "").lower()
    if not why and own and sender == own:
        outcome, why = "loop", "sent from the helpdesk's own address"
    if not why:
        hour_ago = ctx.now() - timedelta(hours=1)
        recent = s.scalar(
            select(func.count())
            .select_from(SupportInboundMail)
            .where(SupportInboundMail.sender == sender, SupportInboundMail.received_at >= hour_ago)
        )
        if (recent or 0) >= cfg.mail.max_mails_per_sender_per_hour:
            outcome, why = "loop", f"more than {cfg.mail.max_mails_per_sender_per_hour} mails within an hour"
    text = body_text(msg) or "(no text)"
    t = _threaded(s, msg, sender, subject)
    if t is not None and t.state == "closed" and why is None:
        t = None  # a closed ticket takes nothing more: its follow-up is a new ticket
    if t is None and why is not None:
        s.add(_log(ctx, mid, sender, subject, source, outcome or "auto_reply", detail=why))
        return Received(outcome or "auto_reply", mid, detail=why)
    if t is None:
        made = _create(
            ctx,
            s,
            email=sender,
            name=(name or sender.split("@", 1)[0])[:200],
            subject=subject,
            description=text,
            source="mail",
            access_token=secrets.token_urlsafe(24),
            mail_message_id=mid,
        )
        message_id = s.scalar(select(SupportMessage.id).where(SupportMessage.mail_message_id == mid))
        _keep_attachments(ctx, s, msg, made.id, message_id)
        s.add(_log(ctx, mid, sender, subject, source, "ticket", ticket_id=made.id, support_message_id=message_id))
        return Received("ticket", mid, made.number)
    if t.state == "closed":  # a robot's answer to a closed ticket: recorded only
        s.add(_log(ctx, mid, sender, subject, source, outcome or "auto_reply", ticket_id=t.id, detail=why or ""))
        return Received(outcome or "auto_reply", mid, t.number, why or "")
    if why is None:
        if t.state in _DONE:
            corpus_changed(ctx)  # a reopened ticket leaves the triage corpus
        t.state = states.after_customer_reply(t.state)
        t.resolved_at = None
    m = _add_message(ctx, s, t, body=text, internal=False, kind="customer", attachment_ids=[])
    m.mail_message_id = mid
    if name and sender != t.requester_email.lower():
        m.author_name = name[:200]  # someone in copy answered
    _keep_attachments(ctx, s, msg, t.id, m.id)
    s.add(_log(ctx, mid, sender, subject, source, outcome or "message", ticket_id=t.id, support_message_id=m.id))
    return Received(outcome or "message", mid, t.number, why or "")


def _bounce(ctx: Ctx, s: Session, b: Bounce, mid: str, sender: str, subject: str, source: str) -> Received:
    ticket_id = None
    if b.original_ids:
        ticket_id = s.scalar(
            select(SupportMessage.ticket_id).where(
                SupportMessage.mail_message_id.in_([i[:255] for i in b.original_ids])
            )
        )
    if ticket_id is None and b.recipient:
        ticket_id = s.scalar(
            select(SupportTicket.id)
            .where(func.lower(SupportTicket.requester_email) == b.recipient.lower())
            .order_by(SupportTicket.updated_at.desc())
            .limit(1)
        )
    number = None
    if ticket_id is not None:
        t = s.get(SupportTicket, ticket_id)
        if t is not None:
            number = t.number
            note = f"Mail to {b.recipient or 'the requester'} bounced (status {b.status or 'unknown'})."
            _add_message(ctx, s, t, body=note, internal=True, kind="system", attachment_ids=[]).author_name = "Helpdesk"
    s.add(
        _log(
            ctx,
            mid,
            sender,
            subject,
            source,
            "bounce",
            ticket_id=ticket_id,
            recipient=b.recipient or None,
            status=b.status or None,
        )  # fmt: skip
    )
    return Received("bounce", mid, number, f"{b.recipient} {b.status}".strip())


def _keep_attachments(ctx: Ctx, s: Session, msg: Message, ticket_id: str, message_id: str | None) -> None:
    refused = []
    for filename, data in _attachments(msg):
        try:
            blob = store_blob(ctx, data, allowed=ATTACHMENT_TYPES)
        except ServiceError as e:  # too big, empty, a type not accepted: the rest of the mail is kept
            refused.append(f"{filename} ({len(data)} bytes): {e.message}")
            continue
        s.add(
            SupportAttachment(
                id=new_id(),
                ticket_id=ticket_id,
                message_id=message_id,
                filename=filename[:255],
                content_type=blob.content_type,
                size=blob.size,
                sha256=blob.sha256,
                uploaded_by="customer",
                created_at=ctx.now(),
            )
        )
    if refused:
        t = s.get(SupportTicket, ticket_id)
        if t is not None:
            body = "Attachments of the mail not kept:\n" + "\n".join(f"- {r}" for r in refused)
            _add_message(ctx, s, t, body=body, internal=True, kind="system", attachment_ids=[]).author_name = "Helpdesk"


def helpdesk_addresses(rt: Runtime) -> dict[str, str]:
    """Every tenant's helpdesk address (lower case) and the tenant's slug: where SMTP mail is routed."""
    from local_db.models.support import SupportConfig

    out: dict[str, str] = {}
    with rt.db.reading(None) as s:
        for slug, data in s.execute(
            select(Tenant.slug, SupportConfig.data).join(Tenant, Tenant.id == SupportConfig.tenant_id)
        ).all():
            address = ((data or {}).get("mail") or {}).get("address")
            if address:
                out[str(address).lower()] = slug
    return out


def recipients_of(msg: Message) -> list[str]:
    """The addresses a mail was sent to, as its headers say (To, Cc, Delivered-To, X-Original-To)."""
    values = [_header(msg, h) for h in ("To", "Cc", "Delivered-To", "X-Original-To")]
    return [a.lower() for _n, a in getaddresses([v for v in values if v]) if "@" in a]
