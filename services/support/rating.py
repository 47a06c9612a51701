"""The satisfaction rating mail (issue 35, part 3): when a ticket is solved its requester gets a
mail with a link to the ticket's page, where the rating form is (services/support/pages.py).

Only a hash of a ticket's access token is stored, so the page's usual link cannot be made again
when the ticket is solved. The rating link carries a token of its own instead, signed, not
stored: ``<ticket id>.<first 32 hex of HMAC-SHA256(platform secret + "/support-rating", id)>``.
The page takes either kind (an access token never has a dot). Nothing of it is in the database,
the ticket id alone opens nothing, and one ticket's token opens no other ticket. The link reaches
what the access token does (the requester's own ticket: its public messages, a reply, the rating),
since it goes to the same requester; like the creation mail with its link, the mail is marked
private (kept mail is listed but never shown).
"""

from __future__ import annotations

import hmac

from sqlalchemy.orm import Session

from local_db.models.support import SupportTicket
from services.core.context import Ctx, Runtime
from services.core.events import emit, register_event_type
from services.core.mail import Mail, send_after_commit
from services.support import schemas as sc
from services.support.mailing import _thread_headers, thread_ids, tracking_link

MAC_HEX = 32

register_event_type(
    "ticket.rated", "support", "the requester rated a solved ticket (1 to 5; the comment stays on the ticket)"
)


def _key(rt: Runtime) -> bytes:
    k = rt.secret_key
    return (k.encode() if isinstance(k, str) else k) + b"/support-rating"


def make(rt: Runtime, ticket_id: str) -> str:
    return f"{ticket_id}.{hmac.digest(_key(rt), ticket_id.encode(), 'sha256').hex()[:MAC_HEX]}"


def read(rt: Runtime, token: str) -> str | None:
    """The ticket id a rating token was made for, or None when it was not made here."""
    ticket_id, dot, mac = token.partition(".")
    if not dot or not ticket_id or len(ticket_id) > 36 or len(mac) != MAC_HEX:
        return None
    expected = make(rt, ticket_id).partition(".")[2]
    return ticket_id if hmac.compare_digest(mac, expected) else None


def is_rating_token(token: str) -> bool:
    return "." in token  # secrets.token_urlsafe (the access token) never makes a dot


def request_rating(ctx: Ctx, s: Session, t: SupportTicket, cfg: sc.HelpdeskConfig) -> None:
    """Mail the requester the rating link once the solve commits (the tenant's
    ``mail.send_rating_request``, on by default; a ticket already rated is not asked again)."""
    if not cfg.mail.send_rating_request or not t.requester_email or t.satisfaction_rating is not None:
        return
    hello = f"Hello {t.requester_name}," if t.requester_name else "Hello,"
    link = tracking_link(ctx, make(ctx.runtime, t.id))
    text = (
        f'{hello}\n\nyour request "{t.subject}" ({t.number}) is solved. How did we do? '
        f"Rate our help from 1 to 5 here:\n\n{link}\n\n"
        "If it is not solved for you, answer this mail and the ticket opens again."
    )
    send_after_commit(
        ctx,
        Mail(
            to=t.requester_email,
            subject=f"[{t.number}] How did we do? {t.subject}",
            text=text,
            reply_to=cfg.mail.address,
            # Sent by the helpdesk itself (RFC 3834): robots do not answer it, no loop starts.
            headers=(("Auto-Submitted", "auto-generated"), *_thread_headers(thread_ids(s, t))),
            private=True,
        ),
    )


def rated(ctx: Ctx, t: SupportTicket) -> None:
    """``ticket.rated`` in the rating's unit of work: the score only (a comment may hold personal data)."""
    emit(ctx, "ticket.rated", {"ticket_id": t.id, "ticket_number": t.number, "rating": t.satisfaction_rating})
