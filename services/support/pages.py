"""The requester's pages: the ticket form (``/p/new``) and the tracking page (``/p/t/{token}``).

Both run the same code as the public API routes (challenge, creation, guest reply); a form with
bad input is answered with the page again, a message beside each field, and nothing stored: the
ticket and its attachments are written in one unit of work, so a refused file rolls back the ticket.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select, update

from local_db.models.support import SupportAttachment, SupportMessage, SupportTicket
from services.core.bodies import validate_body
from services.core.errors import Conflict, Forbidden, NotFound, ServiceError, ValidationFailed
from services.core.pages import N_, Page, PageCall, field_errors, page
from services.core.signing import token_hash
from services.support import rating, states
from services.support import schemas as sc
from services.support.attachments import _store_attachment
from services.support.challenge import DEMO_TOKEN, ChallengeConfig, check_challenge
from services.support.helpdesk import _DONE, _require_module
from services.support.mailing import tracking_link
from services.support.tickets import _add_message, _create, _public_messages

FIELDS = ("name", "email", "subject", "description")
MAX_FILES = 5
# The ticket states as the tracking page names them (translated in the template).
STATE_NAMES = (N_("open"), N_("pending"), N_("resolved"), N_("closed"))


def _demo_token(call: PageCall) -> str | None:
    # PLATFORM_CHALLENGE=demo: the form carries the demo token itself (CONTRACT).
    return DEMO_TOKEN if call.runtime.part(ChallengeConfig).kind == "demo" else None


def _files(call: PageCall, errors: dict[str, str]) -> list[Any]:
    files = call.files.get("attachments", [])
    if len(files) > MAX_FILES:
        errors["attachments"] = call.gettext("At most 5 files, please.")
    return files


@page("support.new", "/new", methods=("GET", "POST"), limit="public_ticket")
def new_ticket(call: PageCall) -> Page:
    ctx = call.ctx()
    _require_module(ctx)
    demo = _demo_token(call)
    values = {k: call.form.get(k, "").strip() for k in FIELDS}
    title = call.gettext("Contact support")
    if call.method == "GET":
        return Page("support/new.html", {"errors": {}, "values": values, "challenge_demo": demo}, title=title)
    errors: dict[str, str] = {}
    token = call.form.get("challenge_token", "").strip() or (demo or "")
    try:
        body = validate_body(sc.PublicTicketCreate, {**values, "challenge_token": token or "-"})
    except ValidationFailed as exc:
        errors.update(field_errors(exc, call.gettext))
    files = _files(call, errors)
    if not errors:
        try:
            check_challenge(call.runtime, token, call.ip)
        except Forbidden:
            errors["challenge_token"] = call.gettext("The verification failed. Please try again.")
    if not errors:
        access = secrets.token_urlsafe(24)
        try:
            with ctx.write() as s:
                t = _create(
                    ctx,
                    s,
                    email=body.email,
                    name=body.name,
                    subject=body.subject,
                    description=body.description,
                    source="public",
                    access_token=access,
                )
                first = s.execute(
                    select(SupportMessage.id).where(
                        SupportMessage.ticket_id == t.id, SupportMessage.author_kind == "customer"
                    )
                ).scalar_one()
                for f in files:
                    a = _store_attachment(ctx, s, f, None, t.id, "customer")
                    s.execute(update(SupportAttachment).where(SupportAttachment.id == a.id).values(message_id=first))
                number = t.number
        except ValidationFailed as exc:
            errors["attachments"] = call.gettext("This file type is not accepted (images, PDF or text).")
            _ = exc
    if errors:
        return Page(
            "support/new.html", {"errors": errors, "values": values, "challenge_demo": demo}, status=400, title=title
        )
    url = tracking_link(ctx, access)  # the same address as the creation mail's
    return Page("support/thanks.html", {"number": number, "tracking_url": url}, title=call.gettext("Thank you"))


def _rate(call: PageCall, access_token: str, errors: dict[str, str]) -> str:
    """The satisfaction rating (1 to 5) and comment, once, after the ticket is solved."""
    raw = call.form.get("rating", "")
    comment = call.form.get("comment", "").strip()
    if raw not in ("1", "2", "3", "4", "5"):
        errors["rating"] = call.gettext("Please choose from 1 to 5.")
    if len(comment) > 2000:
        errors["comment"] = call.gettext("This is too long.")
    if errors:
        return ""
    ctx = call.ctx()
    with ctx.write() as s:
        t = _ticket_by_token(s, access_token, call.runtime)
        if t.state not in _DONE:
            errors["rating"] = call.gettext("You can rate the ticket once it is solved.")
            return ""
        if t.satisfaction_rating is not None:
            errors["rating"] = call.gettext("You already rated this ticket.")
            return ""
        t.satisfaction_rating, t.satisfaction_comment, t.rated_at = int(raw), comment or None, ctx.now()
        rating.rated(ctx, t)
    return call.gettext("Thank you for your rating.")


def _ticket_by_token(s: Any, access_token: str, rt: Any = None) -> SupportTicket:
    """The ticket of an access token (its hash is stored) or of a rating mail's signed token."""
    if rating.is_rating_token(access_token):
        ticket_id = rating.read(rt, access_token) if rt is not None else None
        t = s.get(SupportTicket, ticket_id) if ticket_id else None  # another tenant's ticket reads as None
    else:
        t = s.execute(
            select(SupportTicket).where(SupportTicket.access_token_hash == token_hash(access_token))
        ).scalar_one_or_none()
    if t is None:
        raise NotFound("ticket not found")
    return t


@page("support.track", "/t/{access_token}", methods=("GET", "POST"), limit="public_events")
def track_ticket(call: PageCall, access_token: str) -> Page:
    ctx = call.ctx()
    _require_module(ctx)
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    notice = ""
    if call.method == "POST" and call.form.get("form") == "rating":
        notice = _rate(call, access_token, errors)
    elif call.method == "POST":
        values = {"body": call.form.get("body", "").strip()}
        files = _files(call, errors)
        if not values["body"]:
            errors["body"] = call.gettext("This field is required.")
        if not errors:
            try:
                with ctx.write() as s:
                    t = _ticket_by_token(s, access_token, call.runtime)
                    if t.state == "closed":
                        raise Conflict("closed")
                    ids = [_store_attachment(ctx, s, f, None, t.id, "customer").id for f in files]
                    t.state = states.after_customer_reply(t.state)
                    t.resolved_at = None
                    _add_message(ctx, s, t, body=values["body"], internal=False, kind="customer", attachment_ids=ids)
                values, notice = {}, call.gettext("Your reply was sent.")
            except Conflict:
                errors["form"] = call.gettext("This ticket is closed. Please open a new one.")
            except ValidationFailed:
                errors["attachments"] = call.gettext("This file type is not accepted (images, PDF or text).")
    with ctx.read() as s:
        t = _ticket_by_token(s, access_token, call.runtime)
        messages = _public_messages(s, t)
        ticket = {
            "number": t.number,
            "subject": t.subject,
            "state": t.state,
            "done": t.state in _DONE,
            "rating": t.satisfaction_rating,
        }
    return Page(
        "support/ticket.html",
        {"ticket": ticket, "messages": messages, "errors": errors, "values": values, "notice": notice},
        status=400 if errors else 200,
        title=str(ticket["number"]),
    )


__all__ = ["ServiceError", "new_ticket", "track_ticket"]
