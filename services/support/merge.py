"""Merging two tickets about the same request into one.

``POST /tickets/{id}/merge {"into": <id or number>}``: the messages and attachments of ``id`` move
to ``into`` (in their places by time), its requester (and the ones merged into it before) join
``into``'s other requesters, who get its replies in copy; ``id`` is closed, points to ``into``
(``merged_into``) and says so in a public message its guest reads; a mail answering it lands on
``into``. Both tickets must be open to change (not closed, not merged).
"""

from __future__ import annotations

from pydantic import Field
from sqlalchemy import update
from sqlalchemy.orm import Session

from local_db.models.support import SupportAttachment, SupportMessage, SupportTicket
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import emit, register_event_type
from services.core.schemas import Strict
from services.support import schemas as sc
from services.support.helpdesk import _DONE, corpus_changed
from services.support.tickets import _add_message, _find_ticket, _one_out
from services.sync.changelog import log_written

register_event_type("ticket.merged", "support", "a ticket was merged into another one")


class MergeIn(Strict):
    into: str = Field(min_length=1, max_length=40, description="the ticket that stays: its id or number")


def _check_open(t: SupportTicket, role: str) -> None:
    if t.merged_into_id is not None or t.state == "closed":
        raise Conflict(
            f"the {role} ticket is closed" + (" (merged)" if t.merged_into_id else ""),
            {"ticket": t.number, "state": t.state},
        )


@use_case(
    "support.tickets.merge",
    "POST /api/tenants/{tenant}/support/tickets/{ticket_id}/merge",
    tx="write",
    says="Merge ticket",
    record="support.ticket",
    summary="merge a ticket into another one (messages, attachments and requesters kept)",
)
def merge_ticket(ctx: Ctx, ticket_id: str, body: MergeIn, session: Session = SESSION) -> sc.TicketOut:
    src, dst = _find_ticket(session, ticket_id), _find_ticket(session, body.into)
    if src.id == dst.id:
        raise ValidationFailed("a ticket cannot be merged into itself", {"into": body.into})
    _check_open(src, "merged")
    _check_open(dst, "remaining")
    now = ctx.now()
    moved = list(
        session.scalars(
            update(SupportMessage)
            .where(SupportMessage.ticket_id == src.id)
            .values(ticket_id=dst.id)
            .returning(SupportMessage.id)
        )
    )
    session.execute(update(SupportAttachment).where(SupportAttachment.ticket_id == src.id).values(ticket_id=dst.id))
    log_written(session, ctx.tenant_id, "support_messages", moved)
    known = {dst.requester_email.lower()}
    others = list(dst.other_requesters or [])
    for email in [src.requester_email, *(src.other_requesters or [])]:
        if email.lower() not in known and email.lower() not in {o.lower() for o in others}:
            others.append(email)
    dst.other_requesters = others
    if dst.mail_root_id is None:
        dst.mail_root_id = src.mail_root_id
    if src.state in _DONE:
        corpus_changed(ctx)  # a resolved ticket leaves the triage corpus
    src.state, src.closed_at, src.merged_into_id = "closed", now, dst.id
    src.updated_at = dst.updated_at = now
    # The pointer its guest (and its list of messages) shows; not mailed: the next reply comes from dst.
    _add_message(ctx, session, src, body=f"This request continues in ticket {dst.number}.", internal=False,
                 kind="system", attachment_ids=[]).author_name = "Helpdesk"  # fmt: skip
    note = f"Ticket {src.number} ({src.requester_email}) was merged into this one: its {len(moved)} messages are here."
    _add_message(ctx, session, dst, body=note, internal=True, kind="system", attachment_ids=[]).author_name = "Helpdesk"
    emit(
        ctx,
        "ticket.merged",
        {"ticket_id": src.id, "ticket_number": src.number, "into_ticket_id": dst.id, "into_ticket_number": dst.number},
    )
    session.flush()
    return _one_out(session, dst, now)
