"""Support tickets: the agent queue, tickets and their messages."""

from __future__ import annotations

import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, insert, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import Membership, User
from local_db.models.support import (
    SupportAttachment,
    SupportCategory,
    SupportMessage,
    SupportTicket,
)
from services.core.commands import SESSION, next_value, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.pagination import Page, PageSpec, paginate
from services.core.roles import STAFF
from services.core.signing import token_hash
from services.support import mailing, search, states
from services.support import schemas as sc
from services.support.fields import checked as check_fields
from services.support.fields import field_filter
from services.support.helpdesk import (
    _AFTER,
    _DONE,
    _DUMMY_HASH,
    _NUMBER,
    MODULE,
    _reprioritize_sla,
    _set_sla,
    corpus_changed,
    is_breaching,
    load_config,
)
from services.support.rating import request_rating
from services.sync.changelog import log_written


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
        merged_into_id=t.merged_into_id,
        other_requesters=list(t.other_requesters or []),
        custom_fields=dict(t.custom_fields or {}),
        satisfaction_rating=t.satisfaction_rating,
        satisfaction_comment=t.satisfaction_comment,
        rated_at=t.rated_at,
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
    mail_root_id: str | None = None
    merged_into_id: str | None = None
    other_requesters: list[Any] = field(default_factory=list)
    custom_fields: dict[str, Any] = field(default_factory=dict)
    first_response_escalated_at: datetime | None = None
    resolution_escalated_at: datetime | None = None
    satisfaction_rating: int | None = None
    satisfaction_comment: str | None = None
    rated_at: datetime | None = None


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
    mail_message_id: str | None = None,
    answer: bool = True,
    custom_fields: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> NewTicket:
    """``mail_message_id``: the Message-ID of the mail that opened it (inbound mail); ``answer``:
    False for mail that must not be answered (an auto-reply, a loop): no auto-reply, no mail."""
    now = now or ctx.now()
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
        mail_root_id=mail_message_id,
        custom_fields=custom_fields or {},
    )
    _set_sla(t, cfg)
    if cfg.auto_assign.enabled and not ctx.runtime.is_station:  # the platform assigns when it replays
        from services.support.automation import auto_assign  # imports this module

        auto_assign(ctx, s, t)
    # The description is the conversation's first message.
    messages = [_message_row(ctx, t.id, "customer", name, description, now, mail_message_id)]
    auto_reply = None
    if cfg.auto_reply.enabled and source in ("public", "mail") and answer:
        auto_reply = _fill(cfg.auto_reply.body, t, agent_name="")
        messages.append(_message_row(ctx, t.id, "system", "Helpdesk", auto_reply, now + _AFTER))
    made = None
    if answer and not ctx.runtime.is_station:  # a station sends nothing: the platform does on replay
        made = mailing.creation_mail(
            ctx,
            cfg,
            to=email,
            number=t.number,
            subject=subject,
            requester_name=name,
            auto_reply=auto_reply,
            access_token=access_token,
            thread=[mail_message_id] if mail_message_id else [],
        )
    if made is not None:
        mid, mail = made
        if auto_reply is not None and cfg.mail.send_auto_reply:  # the auto-reply message went by mail
            messages[-1]["mail_message_id"] = mid
        t.mail_root_id = t.mail_root_id or mid
        mailing.send(ctx, mail)
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


def _message_row(
    ctx: Ctx, ticket_id: str, kind: str, name: str, body: str, at: datetime, mail_message_id: str | None = None
) -> dict[str, Any]:
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
        "mail_message_id": mail_message_id,
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
            # The requester reads the answer in their mailbox, threaded, and answers it to the helpdesk.
            mailing.send_reply(ctx, s, t, m, load_config(s))
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


def _ticket_select(
    ctx: Ctx, q: sc.TicketQuery, *, many_hits: bool = False, cfg: sc.HelpdeskConfig | None = None
) -> Select[Any]:
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
    if q.field:
        stmt = stmt.where(field_filter(cfg or sc.HelpdeskConfig(), q.field))
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
        cfg = load_config(s) if query.field else None

        def plan(stmt: Any, total: int, spec: PageSpec) -> Any:
            if query.search and total > MANY_HITS and spec.sort == "updated_at":
                return _ticket_select(ctx, query, many_hits=True, cfg=cfg)
            return stmt

        page = paginate(
            s, _ticket_select(ctx, query, cfg=cfg), query, columns=_SORTABLE, default_sort="-updated_at", plan=plan
        )
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
def create_ticket(ctx: Ctx, body: sc.AgentTicketCreate, session: Session = SESSION) -> sc.TicketOut:
    _check_category(session, body.category_id)
    custom = check_fields(load_config(session), body.custom_fields, creating=True)
    t = _create(
        ctx,
        session,
        email=body.email,
        name=body.name,
        subject=body.subject,
        description=body.description,
        source="agent",
        priority=body.priority,
        category_id=body.category_id,
        tags=body.tags,
        custom_fields=custom,
    )
    return _one_out(session, t, ctx.now())


# People know a ticket by its number (sync issues, history).
record_kind("support.ticket", get="support.tickets.get", label="number", keys=("ticket_id", "id"))


@use_case(
    "support.tickets.get",
    "GET /api/tenants/{tenant}/support/tickets/{ticket_id}",
    tx="read",
    record="support.ticket",
    summary="read tickets",
)
def get_ticket(ctx: Ctx, ticket_id: str, session: Session = SESSION) -> sc.TicketOut:
    return _one_out(session, _find_ticket(session, ticket_id), ctx.now())


@use_case(
    "support.tickets.update",
    "PATCH /api/tenants/{tenant}/support/tickets/{ticket_id}",
    tx="write",
    says="Change to ticket",
    record="support.ticket",
    summary="change tickets",
)
def update_ticket(ctx: Ctx, ticket_id: str, body: sc.TicketUpdate, session: Session = SESSION) -> sc.TicketOut:
    now = ctx.now()
    given = body.model_fields_set
    t = _find_ticket(session, ticket_id)
    if t.state == "closed":
        raise conflict_state("ticket", t.state, "change")
    if "priority" in given and body.priority is not None and body.priority != t.priority:
        t.priority = body.priority
        _reprioritize_sla(t, load_config(session), now)
    if "category_id" in given:
        _check_category(session, body.category_id)
        t.category_id = body.category_id
        if "assignee_id" not in given and not ctx.runtime.is_station:
            from services.support.automation import auto_assign  # imports this module

            auto_assign(ctx, session, t)
    if "assignee_id" in given:
        if body.assignee_id is not None:
            _check_assignee(session, ctx, body.assignee_id)
        t.assignee_id = body.assignee_id
    if "tags" in given and body.tags is not None:
        t.tags = sorted(set(body.tags))
    if body.custom_fields is not None:
        t.custom_fields = check_fields(load_config(session), body.custom_fields, dict(t.custom_fields or {}))
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
            request_rating(ctx, session, t, load_config(session))
        elif body.state == "closed":
            t.closed_at = now
        elif body.state == "open":
            t.resolved_at = None
    t.updated_at = now
    return _one_out(session, t, now)


@use_case(
    "support.messages.list",
    "GET /api/tenants/{tenant}/support/tickets/{ticket_id}/messages",
    tx="read",
    summary="read conversations",
)
def list_messages(ctx: Ctx, ticket_id: str, session: Session = SESSION) -> sc.MessageList:
    t = _find_ticket(session, ticket_id)
    rows = list(
        session.execute(
            select(SupportMessage)
            .where(SupportMessage.ticket_id == t.id)
            .order_by(SupportMessage.created_at, SupportMessage.id)
        ).scalars()
    )
    atts = _attachments_by_message(session, [m.id for m in rows])
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
def add_message(ctx: Ctx, ticket_id: str, body: sc.AgentMessageCreate, session: Session = SESSION) -> sc.MessageOut:
    t = _find_ticket(session, ticket_id)
    if t.state == "closed":
        raise conflict_state("ticket", t.state, "reply to")
    m = _add_message(
        ctx, session, t, body=body.body, internal=body.internal, kind="agent", attachment_ids=body.attachment_ids
    )
    return _message_out(m, _attachments_by_message(session, [m.id]))


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
