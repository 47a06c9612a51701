"""Events: published."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.events import Event
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Forbidden, ValidationFailed, get_or_404
from services.core.events import EmittedEvent, emit
from services.core.pagination import Page, contains, paginate
from services.events.fanout import (
    DELIVERY_COUNTS,
    PUBLIC_ORIGIN,
)
from services.events.lookups import _settings_of
from services.events.schemas import (
    EventOut,
    EventQuery,
    PublishedEvent,
    PublishRequest,
)


def _event_out(ev: Event | EmittedEvent) -> EventOut:
    return EventOut.model_validate(ev)


@use_case("events.publish", "POST /events", tx="write", status=201, summary="publish an event")
def publish(ctx: Ctx, body: PublishRequest, *, origin: str | None = None) -> PublishedEvent:
    """Record the event; on the platform its deliveries are created in the same transaction."""
    with ctx.write() as s:
        ev = emit(ctx, body.type, body.data, source=body.source, origin=origin)
        # Station runtimes have no fan-out hook: 0 here, the platform delivers after sync.
        n = s.info.get(DELIVERY_COUNTS, {}).pop(ev.id, 0)
    return PublishedEvent(**_event_out(ev).model_dump(), deliveries=n)


@use_case(
    "events.publish_public",
    "POST /p/events",
    tx="write",
    auth="public",
    status=201,
    limit="public_events",
    summary="publish an event (public, rate-limited)",
)
def publish_public(ctx: Ctx, body: PublishRequest) -> PublishedEvent:
    """The unauthenticated, rate-limited route: only for tenants with the events module."""
    if ctx.tenant is None or "events" not in ctx.tenant.modules:
        raise Forbidden("module events is not enabled for this tenant")
    with ctx.read() as s:
        if not _settings_of(s.get(Tenant, ctx.tenant_id)).public_publish:
            raise Forbidden("public event publishing is turned off for this tenant")
    # Marked: anyone may call this route, so subscribers are told the event is not the platform's word.
    return publish(ctx, body, origin=PUBLIC_ORIGIN)


@use_case("events.list", "GET /events", tx="read", summary="list events")
def list_events(ctx: Ctx, query: EventQuery) -> Page[EventOut]:
    stmt = select(Event)
    if query.type:
        stmt = stmt.where(Event.type == query.type)
    if query.source:
        stmt = stmt.where(Event.source == query.source)
    if query.search and query.search.strip():
        # The records finder (Ctrl+K) searches every list: an event is known by its type or id.
        term = query.search.strip()
        stmt = stmt.where(or_(contains(Event.type, term), Event.id == term))
    if query.start is not None:
        stmt = stmt.where(Event.created_at >= query.start)
    if query.end is not None:
        stmt = stmt.where(Event.created_at < query.end)
    if query.start and query.end and query.start >= query.end:
        raise ValidationFailed("'from' is after 'to'", {"from": query.from_, "to": query.to})
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": Event.created_at, "type": Event.type, "source": Event.source}
        )
    return page.map(_event_out)


@use_case("events.get", "GET /events/{event_id}", tx="read", summary="read an event")
def get_event(ctx: Ctx, event_id: str, session: Session = SESSION) -> EventOut:
    return _event_out(get_or_404(session, Event, event_id, what="event", message="{what} not found", key="event_id"))
