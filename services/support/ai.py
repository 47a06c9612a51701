"""AI triage: the corpus index cache, triage and suggested replies."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models import Counter
from local_db.models.support import (
    SupportCategory,
    SupportMessage,
    SupportTicket,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.support import redact, triage
from services.support import schemas as sc
from services.support.helpdesk import _DONE, TRIAGE_COUNTER
from services.support.tickets import _category_names, _find_ticket

CORPUS_LIMIT = 5000
_cache_lock = threading.Lock()


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
            select(
                T.id, T.number, T.subject, T.description, T.category_id, T.priority, T.requester_name, T.requester_email
            )
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
            requester_email=t.requester_email,
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
    if reply and r.source is not None:
        # Written to another customer: addressed to this one, without the other's personal data.
        reply = redact.clean_reply(
            reply,
            r.source,
            new_name=t.requester_name if t is not None else None,
            customer_words=engine.customer_words,
            rare_in_source=engine.rare_words(r.source),
        )
    return sc.SuggestedReplyOut(
        reply=reply,
        source_ticket_id=r.source.id if r.source else None,
        source_number=r.source.number if r.source else None,
        score=r.score,
        method=triage.METHOD,
    )
