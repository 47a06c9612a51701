"""Use cases of Support & Helpdesk: one function per route (see docs/support.md)."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, insert, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import Counter, Membership, Tenant, User
from local_db.models.support import (
    SupportAttachment,
    SupportCategory,
    SupportConfig,
    SupportEmailDomain,
    SupportMessage,
    SupportTicket,
)
from services.core.commands import next_value, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.mail import Mail, send_after_commit
from services.core.pagination import ListQuery, Page, PageSpec, page_spec, paginate
from services.core.roles import ANYONE, MANAGERS, STAFF
from services.core.signing import token_hash
from services.core.storage import IMAGE_TYPES, read_blob, store_blob
from services.support import schemas as sc
from services.support import search, states, triage
from services.support.challenge import check_challenge
from services.support.dns import resolver_for
from services.support.sla import add_business_minutes
from services.sync.changelog import log_written

MODULE = "support"
ATTACHMENT_TYPES = IMAGE_TYPES | {"application/pdf", "text/plain"}
_NUMBER = re.compile(r"^(TKT-\d{4}-\d{6}|PROV-[\w-]+)$", re.IGNORECASE)
# Compared against when the number is unknown, so both failures cost the same.
_DUMMY_HASH = hashlib.sha256(b"no-such-ticket").hexdigest()
TXT_PREFIX = "_platform-verification"
ACCESS_HEADER = "x-access-token"
_AFTER = timedelta(milliseconds=1)  # the auto-reply sorts after the description it answers


# --- helpers ---------------------------------------------------------------------


def _require_module(ctx: Ctx) -> None:
    """Public routes skip the central module check: the tenant must still have Support."""
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("support is not enabled for this tenant")


# Validated configurations by tenant, with the stored document they came from: every ticket made
# reads the configuration, and validating it cost more than the ticket's insert. A cached entry
# is used only while the stored document is equal to it, so a change (here, by another process or
# by a station's pull) is seen at once. Callers treat the answer as read-only.
_CONFIGS: dict[str | None, tuple[dict[str, Any], sc.HelpdeskConfig]] = {}
_CONFIGS_KEPT = 1024
_CONFIG_DATA = select(SupportConfig.data).where(SupportConfig.tenant_id == bindparam("t"))


# The configuration read once per session (a sync push makes a chunk's tickets in one): kept in
# the session's info until the session writes the configuration itself, after which it is read
# every time (a savepoint rolled back could otherwise leave the session a configuration it undid).
_SESSION_KEY = "support_config"


def load_config(s: Session) -> sc.HelpdeskConfig:
    kept = s.info.get(_SESSION_KEY)
    if isinstance(kept, sc.HelpdeskConfig):
        return kept
    cfg = _read_config(s)
    if kept is None:
        s.info[_SESSION_KEY] = cfg
    return cfg


def config_written(s: Session) -> None:
    """Every write of the configuration row says so: this session reads it afresh from now on."""
    s.info[_SESSION_KEY] = False


def _read_config(s: Session) -> sc.HelpdeskConfig:
    tenant_id = s.info.get("tenant_id")
    if tenant_id is None:
        data = s.execute(select(SupportConfig.data)).scalar_one_or_none()
    else:
        # A Core select with the tenant named (the session's own scoping runs on ORM statements
        # only): half the cost, on every ticket made. The row is written by the ORM elsewhere:
        # flush what is pending first, as an ORM select would.
        s.flush()
        data = s.connection().execute(_CONFIG_DATA, {"t": tenant_id}).scalar_one_or_none()
    if data is None:
        return sc.HelpdeskConfig()
    cached = _CONFIGS.get(tenant_id)
    if cached is not None and cached[0] == data:
        return cached[1]
    cfg = sc.HelpdeskConfig.model_validate(data)
    if len(_CONFIGS) >= _CONFIGS_KEPT:
        _CONFIGS.clear()
    _CONFIGS[tenant_id] = (data, cfg)
    return cfg


def _set_sla(t: SupportTicket | NewTicket, cfg: sc.HelpdeskConfig) -> None:
    target = cfg.sla[t.priority]  # type: ignore[index]
    t.first_response_due = add_business_minutes(t.created_at, target.first_response_minutes, cfg.business_hours)
    t.resolution_due = add_business_minutes(t.created_at, target.resolution_minutes, cfg.business_hours)


def _reprioritize_sla(t: SupportTicket, cfg: sc.HelpdeskConfig, now: datetime) -> None:
    """A new priority moves only the targets still open: an outcome already reached (met, or breached
    because its due time passed) is a record and never changes."""
    target = cfg.sla[t.priority]  # type: ignore[index]
    first_breached = t.first_response_due is not None and t.first_response_due < now
    if t.first_response_at is None and not first_breached:
        t.first_response_due = add_business_minutes(t.created_at, target.first_response_minutes, cfg.business_hours)
    resolution_breached = t.resolution_due is not None and t.resolution_due < now
    if t.resolved_at is None and not resolution_breached:
        t.resolution_due = add_business_minutes(t.created_at, target.resolution_minutes, cfg.business_hours)


def is_breaching(t: SupportTicket | NewTicket, now: datetime) -> bool:
    if t.state not in states.ACTIVE:
        return False
    late_first = t.first_response_at is None and t.first_response_due is not None and t.first_response_due < now
    return late_first or (t.resolution_due is not None and t.resolution_due < now)


def _names(s: Session, user_ids: Iterable[str | None]) -> dict[str, str]:
    ids = {u for u in user_ids if u}
    if not ids:
        return {}
    return dict(s.execute(select(User.id, User.name).where(User.id.in_(ids))).all())


def _category_names(s: Session) -> dict[str, str]:
    return dict(s.execute(select(SupportCategory.id, SupportCategory.name)).all())


def _ticket_out(
    t: SupportTicket | NewTicket, now: datetime, cats: dict[str, str], users: dict[str, str]
) -> sc.TicketOut:
    return sc.TicketOut(
        id=t.id,
        number=t.number,
        provisional=t.provisional,
        subject=t.subject,
        description=t.description,
        requester_email=t.requester_email,
        requester_name=t.requester_name,
        state=t.state,
        priority=t.priority,
        category_id=t.category_id,
        category_name=cats.get(t.category_id) if t.category_id else None,
        assignee_id=t.assignee_id,
        assignee_name=users.get(t.assignee_id) if t.assignee_id else None,
        tags=list(t.tags or []),
        source=t.source,
        created_at=t.created_at,
        updated_at=t.updated_at,
        first_response_at=t.first_response_at,
        resolved_at=t.resolved_at,
        closed_at=t.closed_at,
        first_response_due=t.first_response_due,
        resolution_due=t.resolution_due,
        sla_breached=is_breaching(t, now),
        allowed_states=states.allowed_targets(t.state, "agent"),
    )


def _one_out(s: Session, t: SupportTicket | NewTicket, now: datetime) -> sc.TicketOut:
    # One ticket names at most one category and one assignee: look those up only.
    cats: dict[str, str] = {}
    if t.category_id:
        name = s.execute(select(SupportCategory.name).where(SupportCategory.id == t.category_id)).scalar()
        cats = {t.category_id: name} if name is not None else {}
    return _ticket_out(t, now, cats, _names(s, [t.assignee_id]))


def _find_ticket(s: Session, ident: str) -> SupportTicket:
    """A ticket of this tenant by id or by number (the session's scoping hides other tenants')."""
    col = SupportTicket.number if _NUMBER.match(ident) else SupportTicket.id
    value = ident.upper() if col is SupportTicket.number else ident
    t = s.execute(select(SupportTicket).where(col == value)).scalar_one_or_none()
    if t is None:
        raise NotFound("ticket not found")
    return t


def _guest_ticket(s: Session, number: str, access_token: str) -> SupportTicket:
    """Number + guest token; a wrong token and an unknown number give the same 404."""
    t = s.execute(select(SupportTicket).where(SupportTicket.number == number.strip().upper())).scalar_one_or_none()
    expected = t.access_token_hash if t is not None and t.access_token_hash else _DUMMY_HASH
    matches = hmac.compare_digest(expected, token_hash(access_token or ""))
    if t is None or t.access_token_hash is None or not matches:
        raise NotFound("ticket not found")
    return t


def _new_number(ctx: Ctx) -> tuple[str, bool]:
    year = ctx.now().year
    if ctx.runtime.is_station:
        # Offline: a provisional number, clearly marked; the platform assigns the real one on sync.
        seq = next_value(ctx, ctx.tenant_id, f"ticket-provisional-{year}")
        return f"PROV-{ctx.runtime.station_id[:12]}-{seq:06d}", True
    seq = next_value(ctx, ctx.tenant_id, f"ticket-{year}")
    return f"TKT-{year}-{seq:06d}", False


def _check_category(s: Session, category_id: str | None) -> None:
    if category_id is not None and s.get(SupportCategory, category_id) is None:
        raise ValidationFailed("unknown category", {"category_id": category_id})


def _check_assignee(s: Session, ctx: Ctx, user_id: str) -> None:
    m = s.execute(select(Membership).where(Membership.user_id == user_id)).scalar_one_or_none()
    if m is None or m.role not in STAFF or (m.role == "operator" and MODULE not in (m.user_modules or [])):
        raise ValidationFailed("the assignee is not a support agent of this tenant", {"assignee_id": user_id})


@dataclass(slots=True)
class NewTicket:
    """The columns of a ticket row just written by ``_create`` (a plain record: the ORM's flush of
    a new ticket and its first message cost more than the rest of making the ticket)."""

    id: str
    tenant_id: str
    number: str
    provisional: bool
    subject: str
    description: str
    requester_email: str
    requester_name: str
    state: str
    priority: str
    category_id: str | None
    assignee_id: str | None
    tags: list[Any]
    source: str
    access_token_hash: str | None
    created_at: datetime
    updated_at: datetime
    first_response_at: datetime | None = None
    resolved_at: datetime | None = None
    closed_at: datetime | None = None
    first_response_due: datetime | None = None
    resolution_due: datetime | None = None


_TICKET_COLUMNS = [c.key for c in table_of(SupportTicket).columns]
_MESSAGE_COLUMNS = [c.key for c in table_of(SupportMessage).columns]
assert set(_TICKET_COLUMNS) == {f.name for f in fields(NewTicket)}, "NewTicket mirrors the tickets table"
# Core inserts on the unit of work's connection, compiled once (local_db.engine.Prepared).
_INSERT_TICKET = Prepared(insert(table_of(SupportTicket)))
_INSERT_MESSAGE = Prepared(insert(table_of(SupportMessage)))


def _create(
    ctx: Ctx,
    s: Session,
    *,
    email: str,
    name: str,
    subject: str,
    description: str,
    source: str,
    priority: str = "normal",
    category_id: str | None = None,
    tags: list[str] | None = None,
    access_token: str | None = None,
) -> NewTicket:
    now = ctx.now()
    cfg = load_config(s)
    number, provisional = _new_number(ctx)
    # Identifiers in the order a station's replay takes them: ticket, description, auto-reply, event.
    t = NewTicket(
        id=new_id(),
        tenant_id=ctx.tenant_id,
        number=number,
        provisional=provisional,
        subject=subject,
        description=description,
        requester_email=email,
        requester_name=name,
        state="open",
        priority=priority,
        category_id=category_id,
        assignee_id=None,
        tags=sorted(set(tags or [])),
        source=source,
        access_token_hash=token_hash(access_token) if access_token else None,
        created_at=now,
        updated_at=now,
    )
    _set_sla(t, cfg)
    # The description is the conversation's first message.
    messages = [_message_row(ctx, t.id, "customer", name, description, now)]
    if cfg.auto_reply.enabled and source == "public":
        body = _fill(cfg.auto_reply.body, t, agent_name="")
        messages.append(_message_row(ctx, t.id, "system", "Helpdesk", body, now + _AFTER))
    conn = s.connection()
    _INSERT_TICKET.run(conn, {c: getattr(t, c) for c in _TICKET_COLUMNS})  # first: the messages' foreign key
    for m in messages:
        _INSERT_MESSAGE.run(conn, m)
    # Written past the ORM: the platform's change log (stations' pull) is told of both.
    log_written(s, ctx.tenant_id, "support_tickets", [t.id])
    log_written(s, ctx.tenant_id, "support_messages", [m["id"] for m in messages])
    emit(
        ctx,
        "ticket.created",
        {"ticket_id": t.id, "ticket_number": t.number, "subject": t.subject, "source": source, "priority": t.priority},
    )
    return t


def _message_row(ctx: Ctx, ticket_id: str, kind: str, name: str, body: str, at: datetime) -> dict[str, Any]:
    row = {
        "id": new_id(),
        "tenant_id": ctx.tenant_id,
        "ticket_id": ticket_id,
        "author_kind": kind,
        "author_id": None,
        "author_name": name,
        "body": body,
        "internal": False,
        "created_at": at,
    }
    assert len(row) == len(_MESSAGE_COLUMNS)
    return row


def _fill(template: str, t: SupportTicket | NewTicket, agent_name: str) -> str:
    return fill(
        template, requester_name=t.requester_name, ticket_number=t.number, subject=t.subject, agent_name=agent_name
    )


def fill(template: str, **values: str) -> str:
    """The one filler of placeholders ({requester_name}, {ticket_number}, {subject}, {agent_name}) in canned
    responses and auto-replies, here and in the helpdesk workspace; unknown ones stay as written."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def _attachments_by_message(s: Session, message_ids: list[str]) -> dict[str, list[sc.AttachmentOut]]:
    out: dict[str, list[sc.AttachmentOut]] = {}
    if not message_ids:
        return out
    rows = s.execute(
        select(SupportAttachment)
        .where(SupportAttachment.message_id.in_(message_ids))
        .order_by(SupportAttachment.created_at, SupportAttachment.id)
    ).scalars()
    for a in rows:
        out.setdefault(a.message_id or "", []).append(_attachment_out(a))
    return out


def _attachment_out(a: SupportAttachment) -> sc.AttachmentOut:
    return sc.AttachmentOut(
        id=a.id,
        filename=a.filename,
        content_type=a.content_type,
        size=a.size,
        sha256=a.sha256,
        ticket_id=a.ticket_id,
        message_id=a.message_id,
        created_at=a.created_at,
    )


def _link_attachments(s: Session, t: SupportTicket, message: SupportMessage, ids: list[str], by: str) -> None:
    for aid in dict.fromkeys(ids):
        a = s.get(SupportAttachment, aid)
        if (
            a is None
            or a.message_id is not None
            or a.ticket_id not in (None, t.id)
            or (by == "customer" and a.uploaded_by != "customer")
        ):
            raise ValidationFailed("attachment cannot be used here", {"attachment_id": aid})
        a.ticket_id, a.message_id = t.id, message.id


def _add_message(
    ctx: Ctx, s: Session, t: SupportTicket, *, body: str, internal: bool, kind: str, attachment_ids: list[str]
) -> SupportMessage:
    now = ctx.now()
    p = ctx.principal
    author_name = t.requester_name if kind == "customer" else (p.name or p.email or "Agent")
    m = SupportMessage(
        id=new_id(),
        ticket_id=t.id,
        author_kind=kind,
        body=body,
        internal=internal,
        created_at=now,
        author_id=p.user_id if kind == "agent" else None,
        author_name=author_name,
    )
    s.add(m)
    s.flush()
    _link_attachments(s, t, m, attachment_ids, kind)
    t.updated_at = now
    if not internal:
        if kind == "agent" and t.first_response_at is None:
            t.first_response_at = now
        emit(ctx, "ticket.replied", {"ticket_id": t.id, "ticket_number": t.number, "message_id": m.id, "author": kind})
        if kind == "agent":
            # The requester reads the answer in their mailbox (and follows up by ticket number).
            send_after_commit(
                ctx,
                Mail(
                    to=t.requester_email,
                    subject=f"[{t.number}] {t.subject}",
                    text=f"{body}\n\n-- \n{author_name}, ticket {t.number}",
                ),
            )
    return m


def _message_out(m: SupportMessage, atts: dict[str, list[sc.AttachmentOut]]) -> sc.MessageOut:
    return sc.MessageOut(
        id=m.id,
        ticket_id=m.ticket_id,
        author_kind=m.author_kind,
        author_name=m.author_name,
        body=m.body,
        internal=m.internal,
        created_at=m.created_at,
        attachments=atts.get(m.id, []),
    )


def _public_messages(s: Session, t: SupportTicket) -> list[sc.PublicMessageOut]:
    # The filter on internal is the guarantee: notes never leave through a guest route.
    rows = list(
        s.execute(
            select(SupportMessage)
            .where(SupportMessage.ticket_id == t.id, SupportMessage.internal.is_(False))
            .order_by(SupportMessage.created_at, SupportMessage.id)
        ).scalars()
    )
    atts = _attachments_by_message(s, [m.id for m in rows])
    return [
        sc.PublicMessageOut(
            id=m.id,
            author_kind=m.author_kind,
            author_name=m.author_name,
            body=m.body,
            created_at=m.created_at,
            attachments=atts.get(m.id, []),
        )
        for m in rows
    ]


# --- public (guest) routes -------------------------------------------------------


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
    limit="upload",
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


def _queue_filter(queue: str, ctx: Ctx, now: datetime) -> Any:
    T = SupportTicket
    active = T.state.in_(states.ACTIVE)
    if queue == "new":
        return and_(T.state == "open", T.first_response_at.is_(None))
    if queue == "mine":
        return and_(active, T.assignee_id == ctx.principal.id)
    if queue == "unassigned":
        return and_(active, T.assignee_id.is_(None))
    if queue == "waiting":
        return T.state == "pending"
    if queue == "breaching":
        return and_(
            active,
            or_(and_(T.first_response_at.is_(None), T.first_response_due < now), T.resolution_due < now),
        )
    return True


QUEUES = ("new", "mine", "unassigned", "waiting", "breaching")


def _ticket_select(ctx: Ctx, q: sc.TicketQuery, *, many_hits: bool = False) -> Select[Any]:
    T = SupportTicket
    stmt = select(T)
    if q.state:
        wanted = [v for v in q.state.split(",") if v]
        bad = [v for v in wanted if v not in states.STATES]
        if bad:
            raise ValidationFailed("unknown state", {"state": bad, "allowed": list(states.STATES)})
        stmt = stmt.where(T.state.in_(wanted))
    if q.priority:
        wanted = [v for v in q.priority.split(",") if v]
        if any(v not in sc.PRIORITIES for v in wanted):
            raise ValidationFailed("unknown priority", {"allowed": list(sc.PRIORITIES)})
        stmt = stmt.where(T.priority.in_(wanted))
    if q.category:
        stmt = stmt.where(T.category_id == q.category)
    if q.assignee:
        if q.assignee == "none":
            stmt = stmt.where(T.assignee_id.is_(None))
        else:
            stmt = stmt.where(T.assignee_id == (ctx.principal.id if q.assignee == "me" else q.assignee))
    if q.requester:
        stmt = stmt.where(T.requester_email == q.requester.strip().lower())
    if q.queue and q.queue != "all":
        stmt = stmt.where(_queue_filter(q.queue, ctx, ctx.now()))
    if q.search and q.search.strip():
        # DECISIONS.md: search matches the number, the subject and the requester's e-mail
        # (and, through the FTS5 index, the description); see services/support/search.py.
        stmt = stmt.where(search.search_filter(ctx, q.search, many_hits=many_hits))
    return stmt


# A search matching more tickets than this walks (tenant_id, updated_at) for its page.
MANY_HITS = 500


_SORTABLE = {
    "created_at": SupportTicket.created_at,
    "updated_at": SupportTicket.updated_at,
    "number": SupportTicket.number,
    "priority": SupportTicket.priority,
    "state": SupportTicket.state,
    "first_response_due": SupportTicket.first_response_due,
    "resolution_due": SupportTicket.resolution_due,
}


@use_case(
    "support.tickets.list",
    "GET /api/tenants/{tenant}/support/tickets",
    tx="read",
    record="support.ticket",
    summary="list tickets",
)
def list_tickets(ctx: Ctx, query: sc.TicketQuery) -> Page[sc.TicketOut]:
    now = ctx.now()
    with ctx.read() as s:

        def plan(stmt: Any, total: int, spec: PageSpec) -> Any:
            if query.search and total > MANY_HITS and spec.sort == "updated_at":
                return _ticket_select(ctx, query, many_hits=True)
            return stmt

        page = paginate(s, _ticket_select(ctx, query), query, columns=_SORTABLE, default_sort="-updated_at", plan=plan)
        cats = _category_names(s)
        users = _names(s, [t.assignee_id for t in page.items])
    return page.map(lambda t: _ticket_out(t, now, cats, users))


@use_case("support.queues", "GET /api/tenants/{tenant}/support/queues", tx="read", summary="queue counts")
def queue_counts(ctx: Ctx) -> sc.QueueCounts:
    """Two index-only queries: the queues over the active tickets (ix_support_tickets_tenant_queue
    covers every column they read) and the tenant's total (ix_support_tickets_tenant_id)."""
    now = ctx.now()
    T = SupportTicket
    with ctx.read() as s:
        cols = [func.count().filter(_queue_filter(q, ctx, now)) for q in QUEUES]
        row = s.execute(select(*cols).select_from(T).where(T.state.in_(states.ACTIVE))).one()
        total = s.execute(select(func.count()).select_from(T)).scalar_one()
    return sc.QueueCounts(**dict(zip([*QUEUES, "all"], (int(v or 0) for v in (*row, total)), strict=True)))


@use_case(
    "support.tickets.create",
    "POST /api/tenants/{tenant}/support/tickets",
    tx="write",
    status=201,
    says="New ticket",
    record="support.ticket",
    summary="open a ticket for a customer",
)
def create_ticket(ctx: Ctx, body: sc.AgentTicketCreate) -> sc.TicketOut:
    with ctx.write() as s:
        _check_category(s, body.category_id)
        t = _create(
            ctx,
            s,
            email=body.email,
            name=body.name,
            subject=body.subject,
            description=body.description,
            source="agent",
            priority=body.priority,
            category_id=body.category_id,
            tags=body.tags,
        )
        return _one_out(s, t, ctx.now())


# People know a ticket by its number (sync issues, history).
record_kind("support.ticket", get="support.tickets.get", label="number", keys=("ticket_id", "id"))


@use_case(
    "support.tickets.get",
    "GET /api/tenants/{tenant}/support/tickets/{ticket_id}",
    tx="read",
    record="support.ticket",
    summary="read tickets",
)
def get_ticket(ctx: Ctx, ticket_id: str) -> sc.TicketOut:
    with ctx.read() as s:
        return _one_out(s, _find_ticket(s, ticket_id), ctx.now())


@use_case(
    "support.tickets.update",
    "PATCH /api/tenants/{tenant}/support/tickets/{ticket_id}",
    tx="write",
    says="Change to ticket",
    record="support.ticket",
    summary="change tickets",
)
def update_ticket(ctx: Ctx, ticket_id: str, body: sc.TicketUpdate) -> sc.TicketOut:
    now = ctx.now()
    given = body.model_fields_set
    with ctx.write() as s:
        t = _find_ticket(s, ticket_id)
        if t.state == "closed":
            raise conflict_state("ticket", t.state, "change")
        if "priority" in given and body.priority is not None and body.priority != t.priority:
            t.priority = body.priority
            _reprioritize_sla(t, load_config(s), now)
        if "category_id" in given:
            _check_category(s, body.category_id)
            t.category_id = body.category_id
        if "assignee_id" in given:
            if body.assignee_id is not None:
                _check_assignee(s, ctx, body.assignee_id)
            t.assignee_id = body.assignee_id
        if "tags" in given and body.tags is not None:
            t.tags = sorted(set(body.tags))
        if body.state is not None and body.state != t.state:
            states.check_transition(t.state, body.state, "agent")
            if t.state in _DONE or body.state in _DONE:
                corpus_changed(ctx)
            t.state = body.state
            if body.state == "resolved":
                t.resolved_at = now
                emit(
                    ctx,
                    "ticket.resolved",
                    {"ticket_id": t.id, "ticket_number": t.number, "resolved_at": now.isoformat()},
                )
            elif body.state == "closed":
                t.closed_at = now
            elif body.state == "open":
                t.resolved_at = None
        t.updated_at = now
        return _one_out(s, t, now)


@use_case(
    "support.messages.list",
    "GET /api/tenants/{tenant}/support/tickets/{ticket_id}/messages",
    tx="read",
    summary="read conversations",
)
def list_messages(ctx: Ctx, ticket_id: str) -> sc.MessageList:
    with ctx.read() as s:
        t = _find_ticket(s, ticket_id)
        rows = list(
            s.execute(
                select(SupportMessage)
                .where(SupportMessage.ticket_id == t.id)
                .order_by(SupportMessage.created_at, SupportMessage.id)
            ).scalars()
        )
        atts = _attachments_by_message(s, [m.id for m in rows])
        return sc.MessageList([_message_out(m, atts) for m in rows])


@use_case(
    "support.messages.create",
    "POST /api/tenants/{tenant}/support/tickets/{ticket_id}/messages",
    tx="write",
    status=201,
    says="Reply on ticket",
    record="support.ticket",
    summary="reply or add internal notes",
)
def add_message(ctx: Ctx, ticket_id: str, body: sc.AgentMessageCreate) -> sc.MessageOut:
    with ctx.write() as s:
        t = _find_ticket(s, ticket_id)
        if t.state == "closed":
            raise conflict_state("ticket", t.state, "reply to")
        m = _add_message(
            ctx, s, t, body=body.body, internal=body.internal, kind="agent", attachment_ids=body.attachment_ids
        )
        return _message_out(m, _attachments_by_message(s, [m.id]))


@use_case(
    "support.my_tickets",
    "GET /api/support/my-tickets",
    tx="read",
    auth="user",
    roles=ANYONE,
    summary="tickets the signed-in person opened",
)
def my_tickets(ctx: Ctx, query: ListQuery) -> Page[sc.MyTicketOut]:
    """Tickets whose requester is the signed-in person, in every tenant they belong to."""
    email = (ctx.principal.email or "").lower()
    with ctx.read() as s:
        tenants = select(Membership.tenant_id).where(Membership.user_id == ctx.principal.id)
        stmt = (
            select(SupportTicket, Tenant.slug)
            .join(Tenant, Tenant.id == SupportTicket.tenant_id)
            .where(SupportTicket.requester_email == email, SupportTicket.tenant_id.in_(tenants))
        )
        spec_cols = {"created_at": SupportTicket.created_at, "updated_at": SupportTicket.updated_at}
        spec = page_spec(query, sortable=list(spec_cols), default_sort="-updated_at")
        total = s.execute(select(func.count()).select_from(stmt.subquery())).scalar_one()
        col = spec_cols[spec.sort or "updated_at"]
        rows = s.execute(
            stmt.order_by(col.desc() if spec.descending else col.asc()).limit(spec.limit).offset(spec.offset)
        ).all()
    items = [
        sc.MyTicketOut(
            tenant=slug,
            number=t.number,
            subject=t.subject,
            state=t.state,
            priority=t.priority,
            created_at=t.created_at,
            updated_at=t.updated_at,
        )
        for t, slug in rows
    ]
    return Page(items, int(total), spec)


@use_case("support.agents.list", "GET /api/tenants/{tenant}/support/agents", tx="read", summary="list agents")
def list_agents(ctx: Ctx) -> sc.AgentList:
    """People a ticket can be assigned to (staff with Support access)."""
    with ctx.read() as s:
        rows = s.execute(select(Membership, User).join(User, User.id == Membership.user_id).order_by(User.name)).all()
    return sc.AgentList(
        [
            sc.AgentOut(id=u.id, name=u.name, email=u.email, role=m.role)
            for m, u in rows
            if not u.disabled and m.role in STAFF and (m.role != "operator" or MODULE in (m.user_modules or []))
        ]
    )


# --- categories ------------------------------------------------------------------


def _category_out(s: Session, c: SupportCategory) -> sc.CategoryOut:
    n = s.execute(select(func.count()).select_from(SupportTicket).where(SupportTicket.category_id == c.id))
    return sc.CategoryOut(
        id=c.id,
        name=c.name,
        description=c.description,
        keywords=list(c.keywords or []),
        ticket_count=int(n.scalar_one()),
    )


@use_case(
    "support.categories.list",
    "GET /api/tenants/{tenant}/support/categories",
    tx="read",
    summary="list categories",
)
def list_categories(ctx: Ctx) -> sc.CategoryList:
    with ctx.read() as s:
        counts = dict(
            s.execute(select(SupportTicket.category_id, func.count()).group_by(SupportTicket.category_id)).all()
        )
        rows = s.execute(select(SupportCategory).order_by(SupportCategory.name)).scalars()
        return sc.CategoryList(
            [
                sc.CategoryOut(
                    id=c.id,
                    name=c.name,
                    description=c.description,
                    keywords=list(c.keywords or []),
                    ticket_count=int(counts.get(c.id, 0)),
                )
                for c in rows
            ]
        )


def _name_taken(s: Session, name: str, but: str | None = None) -> None:
    # Compared in Python: SQLite's lower() folds ASCII only, so "Ärger" and "ärger" (or two
    # "Ärger") passed a lower() = lower() check and hit the unique constraint as a 500.
    wanted = name.casefold()
    for cid, existing in s.execute(select(SupportCategory.id, SupportCategory.name)):
        if cid != but and existing.casefold() == wanted:
            raise Conflict("a category with this name exists", {"name": name})


@use_case(
    "support.categories.create",
    "POST /api/tenants/{tenant}/support/categories",
    tx="write",
    status=201,
    summary="create categories",
)
def create_category(ctx: Ctx, body: sc.CategoryCreate) -> sc.CategoryOut:
    with ctx.write() as s:
        _name_taken(s, body.name)
        c = SupportCategory(
            id=new_id(),
            name=body.name,
            description=body.description,
            keywords=sorted({k.lower() for k in body.keywords}),
            created_at=ctx.now(),
        )
        s.add(c)
        s.flush()
        corpus_changed(ctx)
        return _category_out(s, c)


@use_case(
    "support.categories.update",
    "PATCH /api/tenants/{tenant}/support/categories/{category_id}",
    tx="write",
    summary="change categories",
)
def update_category(ctx: Ctx, category_id: str, body: sc.CategoryUpdate) -> sc.CategoryOut:
    with ctx.write() as s:
        c = s.get(SupportCategory, category_id)
        if c is None:
            raise NotFound("category not found")
        if body.name is not None:
            _name_taken(s, body.name, but=c.id)
            c.name = body.name
        if body.description is not None:
            c.description = body.description
        if body.keywords is not None:
            c.keywords = sorted({k.lower() for k in body.keywords})
        s.flush()
        corpus_changed(ctx)
        return _category_out(s, c)


@use_case(
    "support.categories.delete",
    "DELETE /api/tenants/{tenant}/support/categories/{category_id}",
    tx="write",
    summary="delete categories",
)
def delete_category(ctx: Ctx, category_id: str, query: sc.CategoryDeleteQuery) -> None:
    """409 while tickets use the category, unless ``reassign_to`` names where they move."""
    with ctx.write() as s:
        c = s.get(SupportCategory, category_id)
        if c is None:
            raise NotFound("category not found")
        used = list(s.execute(select(SupportTicket).where(SupportTicket.category_id == c.id)).scalars())
        if used:
            if query.reassign_to is None:
                raise Conflict(
                    "tickets use this category; pass reassign_to=<category id> to move them",
                    {"ticket_count": len(used)},
                )
            if query.reassign_to == c.id or s.get(SupportCategory, query.reassign_to) is None:
                raise ValidationFailed(
                    "reassign_to must be another existing category", {"reassign_to": query.reassign_to}
                )
            for t in used:
                t.category_id = query.reassign_to
            s.flush()
        s.delete(c)
        corpus_changed(ctx)


# --- attachments -----------------------------------------------------------------


def _store_attachment(
    ctx: Ctx, s: Session, upload: Upload, filename: str | None, ticket_id: str | None, by: str
) -> sc.AttachmentOut:
    blob = store_blob(ctx, upload.content, allowed=ATTACHMENT_TYPES)
    name = re.sub(r"[^\w.\- ]", "_", (filename or upload.filename or "attachment"))[:255] or "attachment"
    a = SupportAttachment(
        id=new_id(),
        ticket_id=ticket_id,
        message_id=None,
        filename=name,
        content_type=blob.content_type,
        size=blob.size,
        sha256=blob.sha256,
        uploaded_by=by,
        created_at=ctx.now(),
    )
    s.add(a)
    s.flush()
    return _attachment_out(a)


@use_case(
    "support.attachments.upload",
    "POST /api/tenants/{tenant}/support/attachments",
    tx="write",
    status=201,
    limit="upload",
    upload=True,
    says="Attachment",
    record="support.ticket",
    summary="upload attachments",
)
def upload_attachment(ctx: Ctx, query: sc.AttachmentQuery, upload: Upload) -> sc.AttachmentOut:
    with ctx.write() as s:
        tid = _find_ticket(s, query.ticket_id).id if query.ticket_id else None
        return _store_attachment(ctx, s, upload, query.filename, tid, "agent")


@use_case(
    "support.attachments.get",
    "GET /api/tenants/{tenant}/support/attachments/{attachment_id}",
    tx="read",
    summary="download attachments",
)
def download_attachment(ctx: Ctx, attachment_id: str) -> FileResult:
    with ctx.read() as s:
        a = s.get(SupportAttachment, attachment_id)
        if a is None:
            raise NotFound("attachment not found")
    return FileResult(read_blob(ctx, a.sha256), a.content_type, a.filename, inline=False)


@use_case(
    "support.attachments.delete",
    "DELETE /api/tenants/{tenant}/support/attachments/{attachment_id}",
    tx="write",
    summary="delete attachments",
)
def delete_attachment(ctx: Ctx, attachment_id: str) -> None:
    with ctx.write() as s:
        a = s.get(SupportAttachment, attachment_id)
        if a is None:
            raise NotFound("attachment not found")
        if a.message_id is not None:
            # The conversation is a record: a sent file stays with its message.
            raise Conflict("the attachment belongs to a sent message", {"message_id": a.message_id})
        s.delete(a)


# --- helpdesk configuration ------------------------------------------------------------


@use_case(
    "support.helpdesk.get",
    "GET /api/tenants/{tenant}/support/helpdesk",
    tx="read",
    summary="read the helpdesk configuration",
)
def get_helpdesk(ctx: Ctx) -> sc.HelpdeskConfig:
    with ctx.read() as s:
        return load_config(s)


@use_case(
    "support.helpdesk.put",
    "PUT /api/tenants/{tenant}/support/helpdesk",
    tx="write",
    roles=MANAGERS,
    summary="change the helpdesk configuration",
)
def put_helpdesk(ctx: Ctx, body: sc.HelpdeskConfig) -> sc.HelpdeskConfig:
    ids = [c.id for c in body.canned_responses]
    if len(ids) != len(set(ids)):
        raise ValidationFailed("canned response ids must be unique")
    with ctx.write() as s:
        row = s.execute(select(SupportConfig)).scalar_one_or_none()
        data = body.model_dump(mode="json")
        config_written(s)
        if row is None:
            s.add(SupportConfig(id=new_id(), data=data, updated_at=ctx.now()))
        else:
            row.data, row.updated_at = data, ctx.now()
        # New targets apply to the tickets still being worked on.
        for t in s.execute(select(SupportTicket).where(SupportTicket.state.in_(states.ACTIVE))).scalars():
            _set_sla(t, body)
    return body


# --- e-mail domain -----------------------------------------------------------------


def _domain_out(d: SupportEmailDomain) -> sc.EmailDomainOut:
    return sc.EmailDomainOut(
        domain=d.domain,
        status=d.status,
        txt_name=f"{TXT_PREFIX}.{d.domain}",  # type: ignore[arg-type]
        txt_value=f"platform-verification={d.token}",
        created_at=d.created_at,
        verified_at=d.verified_at,
        last_checked_at=d.last_checked_at,
    )


def _domain(s: Session) -> SupportEmailDomain:
    d = s.execute(select(SupportEmailDomain)).scalar_one_or_none()
    if d is None:
        raise NotFound("no e-mail domain registered")
    return d


@use_case(
    "support.email_domain.get",
    "GET /api/tenants/{tenant}/support/email-domain",
    tx="read",
    summary="read the e-mail domain status",
)
def get_email_domain(ctx: Ctx) -> sc.EmailDomainOut:
    """A status route answers a status: "none" while no domain is registered."""
    with ctx.read() as s:
        d = s.execute(select(SupportEmailDomain)).scalar_one_or_none()
        if d is None:
            return sc.EmailDomainOut(
                domain=None,
                status="none",
                txt_name=None,
                txt_value=None,
                created_at=None,
                verified_at=None,
                last_checked_at=None,
            )
        return _domain_out(d)


@use_case(
    "support.email_domain.register",
    "POST /api/tenants/{tenant}/support/email-domain",
    tx="write",
    roles=MANAGERS,
    status=201,
    summary="register an e-mail domain",
)
def register_email_domain(ctx: Ctx, body: sc.EmailDomainRegister) -> sc.EmailDomainOut:
    with ctx.write() as s:
        if s.execute(select(SupportEmailDomain)).scalar_one_or_none() is not None:
            raise Conflict("an e-mail domain is registered; remove it first")
        d = SupportEmailDomain(
            id=new_id(), domain=body.domain, token=secrets.token_hex(16), status="pending", created_at=ctx.now()
        )
        s.add(d)
        s.flush()
        return _domain_out(d)


@use_case(
    "support.email_domain.verify",
    "PUT /api/tenants/{tenant}/support/email-domain",
    tx="own",
    roles=MANAGERS,
    summary="verify the e-mail domain",
)
def verify_email_domain(ctx: Ctx) -> sc.EmailDomainOut:
    """Look the TXT record up (outside the write) and mark the domain verified, or 409."""
    with ctx.read() as s:
        d = _domain(s)
        if d.status == "verified":
            return _domain_out(d)
        name, expected = f"{TXT_PREFIX}.{d.domain}", f"platform-verification={d.token}"
    found = resolver_for(ctx.runtime).txt_records(name)
    ok = any(hmac.compare_digest(r.strip().encode(), expected.encode()) for r in found)
    with ctx.write() as s:
        d = _domain(s)
        d.last_checked_at = ctx.now()
        if not ok:
            out = _domain_out(d)
        else:
            d.status, d.verified_at = "verified", ctx.now()
            return _domain_out(d)
    raise Conflict(
        "the TXT record was not found", {"txt_name": out.txt_name, "txt_value": out.txt_value, "found": found[:10]}
    )


@use_case(
    "support.email_domain.delete",
    "DELETE /api/tenants/{tenant}/support/email-domain",
    tx="write",
    roles=MANAGERS,
    summary="remove the e-mail domain",
)
def delete_email_domain(ctx: Ctx) -> None:
    with ctx.write() as s:
        s.delete(_domain(s))


# --- triage ------------------------------------------------------------------------

CORPUS_LIMIT = 5000
_cache_lock = threading.Lock()


TRIAGE_COUNTER = "support-triage-corpus"
_DONE = ("resolved", "closed")


def corpus_changed(ctx: Ctx) -> None:
    """Bump the tenant's triage version (in the open unit of work): the cached model is rebuilt."""
    next_value(ctx, ctx.tenant_id, TRIAGE_COUNTER)


def _corpus_signature(ctx: Ctx, s: Session) -> tuple[Any, ...]:
    """Cheap: the version counter (bumped by tickets leaving resolved/closed and by category changes)
    plus the newest change among resolved and closed tickets — one index seek each
    (ix_support_tickets_tenant_state_updated), so writes that bypass the service are seen too."""
    T = SupportTicket
    version = s.execute(
        select(Counter.value).where(Counter.scope == ctx.tenant_id, Counter.name == TRIAGE_COUNTER)
    ).scalar_one_or_none()
    latest = tuple(s.execute(select(func.max(T.updated_at)).where(T.state == state)).scalar_one() for state in _DONE)
    return (version, latest)


def _build_index(s: Session) -> triage.TfidfIndex:
    T = SupportTicket
    rows = list(
        s.execute(
            select(T.id, T.number, T.subject, T.description, T.category_id, T.priority, T.requester_name)
            .where(T.state.in_(_DONE))
            .order_by(T.resolved_at.desc(), T.id)
            .limit(CORPUS_LIMIT)
        ).all()
    )
    ids = [r.id for r in rows]
    replies: dict[str, str] = {}
    for i in range(0, len(ids), 500):  # only the corpus tickets' replies, by the (ticket_id, created_at) index
        msgs = s.execute(
            select(SupportMessage.ticket_id, SupportMessage.body)
            .where(
                SupportMessage.ticket_id.in_(ids[i : i + 500]),
                SupportMessage.author_kind == "agent",
                SupportMessage.internal.is_(False),
            )
            .order_by(SupportMessage.created_at, SupportMessage.id)
        ).all()
        for tid, body in msgs:
            replies.setdefault(tid, body)
    tickets = [
        triage.CorpusTicket(
            id=t.id,
            number=t.number,
            subject=t.subject,
            text=f"{t.subject}\n{t.description}",
            category_id=t.category_id,
            priority=t.priority,
            reply=replies.get(t.id),
            requester_name=t.requester_name,
        )
        for t in rows
    ]
    cats = [
        triage.CategoryText(id=c.id, name=c.name, text=" ".join([c.name, c.description, *(c.keywords or [])]))
        for c in s.execute(select(SupportCategory).order_by(SupportCategory.id)).scalars()
    ]
    return triage.TfidfIndex(tickets, cats)


@dataclass
class TriageCache:
    """Per runtime: each tenant's triage index and the corpus signature it was built from."""

    by_tenant: dict[str, tuple[Any, triage.TfidfIndex]] = field(default_factory=dict)


def triage_engine(ctx: Ctx, s: Session) -> triage.TriageEngine:
    """The tenant's index, rebuilt only when resolved tickets or categories changed."""
    cache = ctx.runtime.part(TriageCache).by_tenant
    sig = _corpus_signature(ctx, s)
    with _cache_lock:
        hit = cache.get(ctx.tenant_id)
        if hit is not None and hit[0] == sig:
            return hit[1]
    index = _build_index(s)
    with _cache_lock:
        cache[ctx.tenant_id] = (sig, index)
    return index


def _triage_text(s: Session, body: sc.TriageRequest) -> tuple[str, SupportTicket | None]:
    if body.ticket_id:
        t = _find_ticket(s, body.ticket_id)
        return f"{t.subject}\n{t.description}", t
    text = f"{body.subject or ''}\n{body.description or ''}".strip()
    if not text:
        raise ValidationFailed("give ticket_id, or subject and description")
    return text, None


@use_case(
    "support.triage",
    "POST /api/tenants/{tenant}/support/ai/triage",
    tx="read",
    summary="suggest category and priority",
)
def triage_ticket(ctx: Ctx, body: sc.TriageRequest) -> sc.TriageOut:
    with ctx.read() as s:
        text, _t = _triage_text(s, body)
        engine = triage_engine(ctx, s)
        cats = _category_names(s)
    g = engine.classify(text)
    return sc.TriageOut(
        category_id=g.category_id,
        category_name=cats.get(g.category_id) if g.category_id else None,
        priority=g.priority,
        confidence=g.confidence,
        category_confidence=g.category_confidence,
        priority_confidence=g.priority_confidence,
        matched_terms=g.matched_terms,
        similar=[
            sc.SimilarTicket(
                ticket_id=t.id, number=t.number, subject=t.subject, category_id=t.category_id, score=round(score, 3)
            )
            for t, score in g.similar
        ],
        method=triage.METHOD,
    )


@use_case("support.triage.reply", "PUT /api/tenants/{tenant}/support/ai/triage", tx="read", summary="suggest a reply")
def suggest_reply(ctx: Ctx, body: sc.TriageRequest) -> sc.SuggestedReplyOut:
    with ctx.read() as s:
        text, t = _triage_text(s, body)
        engine = triage_engine(ctx, s)
    r = engine.suggest_reply(text)
    reply = r.text
    if reply and r.source is not None and t is not None:
        # Address the new requester, not the one the reply was first written to.
        old = (r.source.requester_name or "").split(" ")[0]
        new = (t.requester_name or "").split(" ")[0]
        if old and new:
            reply = re.sub(rf"\b{re.escape(old)}\b", new, reply)
    return sc.SuggestedReplyOut(
        reply=reply,
        source_ticket_id=r.source.id if r.source else None,
        source_number=r.source.number if r.source else None,
        score=r.score,
        method=triage.METHOD,
    )
