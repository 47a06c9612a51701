"""Mail the helpdesk sends: threaded, answered to the helpdesk's address.

Every mail carries a Message-ID stored on the message it carries (``support_messages.mail_message_id``),
``In-Reply-To`` the newest mail of the ticket's thread and ``References`` the thread from its first
mail (``support_tickets.mail_root_id``), so mail clients show one conversation and an answer finds
its ticket again (services/support/inbound.py). ``Reply-To`` is the helpdesk's address (the
tenant's ``mail.address``). Mail the helpdesk sends by itself (the creation notice, the auto-reply)
says ``Auto-Submitted`` (RFC 3834), so other robots do not answer it and no loop starts.
"""

from __future__ import annotations

from email.utils import make_msgid

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.support import SupportMessage, SupportTicket
from services.core.context import Ctx
from services.core.links import public_url
from services.core.mail import Mail, send_after_commit
from services.support import schemas as sc

# References grows with the thread; mail clients need its first and newest entries (RFC 5322 3.6.4).
MAX_REFERENCES = 20
FALLBACK_DOMAIN = "helpdesk.invalid"


def new_message_id(cfg: sc.HelpdeskConfig) -> str:
    """A fresh Message-ID (without the angle brackets) on the helpdesk's own domain."""
    domain = cfg.mail.address.rsplit("@", 1)[1] if cfg.mail.address else FALLBACK_DOMAIN
    return make_msgid(domain=domain)[1:-1]


def tracking_link(ctx: Ctx, access_token: str) -> str:
    """The ticket's public page (built by the public pages), reached with the guest token."""
    slug = ctx.tenant.slug if ctx.tenant else ""
    return f"{public_url(ctx.runtime)}/{slug}/support/p/t/{access_token}"


def thread_ids(s: Session, t: SupportTicket, *, before: str | None = None) -> list[str]:
    """The ticket's mail thread, oldest first: its first mail, then every public message's Message-ID."""
    stmt = (
        select(SupportMessage.mail_message_id)
        .where(
            SupportMessage.ticket_id == t.id,
            SupportMessage.mail_message_id.is_not(None),
            SupportMessage.internal.is_(False),
        )
        .order_by(SupportMessage.created_at, SupportMessage.id)
    )
    if before is not None:
        stmt = stmt.where(SupportMessage.id != before)
    ids = [t.mail_root_id] if t.mail_root_id else []
    ids += [i for i in s.scalars(stmt) if i]
    ids = list(dict.fromkeys(ids))
    if len(ids) > MAX_REFERENCES:
        ids = [ids[0], *ids[-(MAX_REFERENCES - 1) :]]
    return ids


def _thread_headers(ids: list[str]) -> tuple[tuple[str, str], ...]:
    if not ids:
        return ()
    return (("In-Reply-To", f"<{ids[-1]}>"), ("References", " ".join(f"<{i}>" for i in ids)))


def send_reply(ctx: Ctx, s: Session, t: SupportTicket, m: SupportMessage, cfg: sc.HelpdeskConfig) -> None:
    """Mail an agent's public reply to the requester, in the ticket's thread (after the commit)."""
    mid = new_message_id(cfg)
    ids = thread_ids(s, t, before=m.id)
    m.mail_message_id = mid
    if t.mail_root_id is None:
        t.mail_root_id = mid
    send_after_commit(
        ctx,
        Mail(
            to=t.requester_email,
            subject=f"[{t.number}] {t.subject}",
            text=f"{m.body}\n\n-- \n{m.author_name}, ticket {t.number}",
            reply_to=cfg.mail.address,
            # Requesters of tickets merged into this one read the answer too.
            headers=_thread_headers(ids) + ((("Cc", ", ".join(t.other_requesters)),) if t.other_requesters else ()),
            message_id=mid,
        ),
    )


def creation_mail(
    ctx: Ctx,
    cfg: sc.HelpdeskConfig,
    *,
    to: str,
    number: str,
    subject: str,
    requester_name: str,
    auto_reply: str | None,
    access_token: str | None,
    thread: list[str],
) -> tuple[str, Mail] | None:
    """The one mail a new ticket's requester gets, when the tenant asks: the auto-reply's text when it
    is mailed, else a short notice; ``None`` when neither is asked. Its Message-ID is returned to be
    stored (on the auto-reply message, or as the thread's first mail)."""
    if auto_reply is not None and cfg.mail.send_auto_reply:
        text = auto_reply
    elif cfg.mail.send_on_create:
        hello = f"Hello {requester_name}," if requester_name else "Hello,"
        text = (
            f'{hello}\n\nwe received your request "{subject}". Its number is {number}: answer this mail to add to it.'
        )
    else:
        return None
    if access_token:
        text += f"\n\nFollow your request: {tracking_link(ctx, access_token)}"
    mid = new_message_id(cfg)
    mail = Mail(
        to=to,
        subject=f"[{number}] {subject}",
        text=text,
        reply_to=cfg.mail.address,
        headers=(("Auto-Submitted", "auto-replied"), *_thread_headers(thread)),
        message_id=mid,
        private=access_token is not None,  # the link opens the ticket: for its requester alone
    )
    return mid, mail


def send(ctx: Ctx, mail: Mail) -> None:
    send_after_commit(ctx, mail)
