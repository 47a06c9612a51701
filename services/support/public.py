"""Guest follow-up: the public ticket form, lookup, replies and uploads."""

from __future__ import annotations

import secrets

from sqlalchemy import select

from local_db.models.support import (
    SupportCategory,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import conflict_state
from services.core.files import Upload
from services.core.roles import ANYONE
from services.support import schemas as sc
from services.support import states
from services.support.attachments import _store_attachment
from services.support.challenge import check_challenge
from services.support.helpdesk import _DONE, ACCESS_HEADER, _require_module, corpus_changed
from services.support.tickets import _add_message, _attachments_by_message, _create, _guest_ticket, _public_messages


@use_case(
    "support.public.tickets.create",
    "POST /api/tenants/{tenant}/support/public/tickets",
    tx="own",
    auth="public",
    roles=ANYONE,
    status=201,
    limit="public_ticket",
    summary="open a ticket (bot challenge required)",
)
def public_create_ticket(ctx: Ctx, body: sc.PublicTicketCreate) -> sc.PublicTicketCreated:
    _require_module(ctx)
    # Verified before the unit of work opens: no write lock held during the provider's call.
    check_challenge(ctx.runtime, body.challenge_token, ctx.ip)
    access_token = secrets.token_urlsafe(24)
    with ctx.write() as s:
        t = _create(
            ctx,
            s,
            email=body.email,
            name=body.name,
            subject=body.subject,
            description=body.description,
            source="public",
            access_token=access_token,
        )
        number = t.number
    return sc.PublicTicketCreated(
        ticket_number=number,
        access_token=access_token,
        message=f"Ticket {number} was created. Keep the access token: with the number it lets you follow the ticket.",
    )


@use_case(
    "support.public.tickets.lookup",
    "POST /api/tenants/{tenant}/support/public/tickets/lookup",
    tx="read",
    auth="public",
    roles=ANYONE,
    summary="look a ticket up by number and access token",
)
def public_lookup(ctx: Ctx, body: sc.LookupRequest) -> sc.PublicTicketOut:
    _require_module(ctx)
    with ctx.read() as s:
        t = _guest_ticket(s, body.ticket_number, body.access_token)
        return sc.PublicTicketOut(
            number=t.number,
            subject=t.subject,
            state=t.state,
            priority=t.priority,
            requester_name=t.requester_name,
            created_at=t.created_at,
            updated_at=t.updated_at,
            messages=_public_messages(s, t),
        )


def _access_token(headers: dict[str, str | None] | None) -> str:
    return (headers or {}).get(ACCESS_HEADER) or ""


@use_case(
    "support.public.messages.list",
    "GET /api/tenants/{tenant}/support/public/tickets/{number}/messages",
    tx="read",
    auth="public",
    roles=ANYONE,
    headers=("x-access-token",),
    summary="messages of a ticket (X-Access-Token header)",
)
def public_messages(ctx: Ctx, number: str, headers: dict[str, str | None] | None = None) -> sc.PublicMessageList:
    _require_module(ctx)
    with ctx.read() as s:
        t = _guest_ticket(s, number, _access_token(headers))
        return sc.PublicMessageList(_public_messages(s, t))


@use_case(
    "support.public.messages.reply",
    "POST /api/tenants/{tenant}/support/public/tickets/{number}/messages",
    tx="write",
    auth="public",
    roles=ANYONE,
    status=201,
    summary="reply to a ticket as its requester",
)
def public_reply(ctx: Ctx, number: str, body: sc.PublicReply) -> sc.PublicMessageOut:
    _require_module(ctx)
    with ctx.write() as s:
        t = _guest_ticket(s, number, body.access_token)
        if t.state in _DONE:
            corpus_changed(ctx)  # a reopened ticket leaves the triage corpus
        t.state = states.after_customer_reply(t.state)  # reopens a resolved ticket; 409 when closed
        t.resolved_at = None
        m = _add_message(ctx, s, t, body=body.body, internal=False, kind="customer", attachment_ids=body.attachment_ids)
        atts = _attachments_by_message(s, [m.id])
        return sc.PublicMessageOut(
            id=m.id,
            author_kind=m.author_kind,
            author_name=m.author_name,
            body=m.body,
            created_at=m.created_at,
            attachments=atts.get(m.id, []),
        )


@use_case(
    "support.public.attachments.upload",
    "POST /api/tenants/{tenant}/support/public/attachments",
    tx="write",
    auth="public",
    roles=ANYONE,
    status=201,
    limit="public_events",  # public: counted per tenant and address like the other public routes
    upload=True,
    headers=("x-access-token",),
    summary="attach a file to a ticket as its requester",
)
def public_upload(
    ctx: Ctx, query: sc.PublicUploadQuery, upload: Upload, headers: dict[str, str | None] | None = None
) -> sc.AttachmentOut:
    _require_module(ctx)
    with ctx.write() as s:
        t = _guest_ticket(s, query.ticket_number, _access_token(headers))
        if t.state == "closed":
            raise conflict_state("ticket", t.state, "attach files to")
        return _store_attachment(ctx, s, upload, query.filename, t.id, "customer")


@use_case(
    "support.public.categories.list",
    "GET /api/tenants/{tenant}/support/public/categories",
    tx="read",
    auth="public",
    roles=ANYONE,
    summary="list categories",
)
def public_categories(ctx: Ctx) -> sc.PublicCategoryList:
    _require_module(ctx)
    with ctx.read() as s:
        rows = s.execute(select(SupportCategory).order_by(SupportCategory.name)).scalars()
        return sc.PublicCategoryList(
            [sc.PublicCategoryOut(id=c.id, name=c.name, description=c.description) for c in rows]
        )


# --- agent routes: tickets ------------------------------------------------------------
