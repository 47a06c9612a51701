"""Use cases of the events module: publish, list, subscriptions, replay, test events, history."""

from __future__ import annotations

import hmac
from datetime import timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.events import Delivery, DeliveryAttempt, Event, Subscription
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed, conflict_state, get_or_404
from services.core.events import EmittedEvent, emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.safety import UnsafeTarget, check_url
from services.core.sealing import seal, unseal
from services.events import states, store
from services.events.fanout import (
    DELIVERY_COUNTS,
    INSERT_DELIVERY,
    PUBLIC_ORIGIN,
    active_subscriptions,
    config_of,
    delivery_row,
    iso,
    wants,
)
from services.events.schemas import (
    RETENTION_DAYS,
    AttemptOut,
    DeliveryOut,
    DeliveryQuery,
    EventOut,
    EventQuery,
    EventSettings,
    PublishedEvent,
    PublishRequest,
    ReplayOut,
    ReplayRange,
    RotateSecret,
    SubscriptionCreate,
    SubscriptionOut,
    SubscriptionQuery,
    SubscriptionUpdate,
)

MAX_REPLAY_EVENTS = 10_000
TEST_EVENT_TYPE = "webhook.test"


# --- events -------------------------------------------------------------------------


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


# --- the tenant's events settings -----------------------------------------------------------


def _settings_of(t: Tenant | None) -> EventSettings:
    stored = ((t.settings or {}).get("events") or {}) if t is not None else {}
    return EventSettings(public_publish=bool(stored.get("public_publish", True)))


@use_case(
    "events.settings.get",
    "GET /settings",
    tx="read",
    roles=STAFF,
    summary="the tenant's events settings (public publishing on or off)",
)
def get_settings(ctx: Ctx, session: Session = SESSION) -> EventSettings:
    return _settings_of(session.get(Tenant, ctx.tenant_id))


@use_case(
    "events.settings.update",
    "PUT /settings",
    tx="write",
    roles=MANAGERS,
    says="Public event publishing",
    summary="turn public event publishing on or off",
)
def update_settings(ctx: Ctx, body: EventSettings, session: Session = SESSION) -> EventSettings:
    """Owner/admin: turn the anonymous publish route (POST /p/events) on or off."""
    t = session.get(Tenant, ctx.tenant_id)
    if t is None:
        raise NotFound("tenant not found")
    settings = dict(t.settings or {})  # a new dict: JSON columns track assignment only
    settings["events"] = {**(settings.get("events") or {}), "public_publish": body.public_publish}
    t.settings = settings
    session.flush()
    return _settings_of(t)


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


# --- subscriptions ---------------------------------------------------------------------


def _sub_out(sub: Subscription) -> SubscriptionOut:
    return SubscriptionOut.model_validate(sub)


def _safe_url(ctx: Ctx, url: str) -> str:
    cfg = config_of(ctx.runtime)
    try:
        return check_url(url, allow_private=cfg.allow_private, resolve=cfg.resolve_on_create)
    except UnsafeTarget as exc:
        raise ValidationFailed(str(exc), {"fields": [{"field": "webhook_url", "message": str(exc)}]}) from exc


def _load_sub(s: Any, sub_id: str) -> Subscription:
    # Another tenant's row is invisible in a tenant-bound session: not found too.
    return get_or_404(s, Subscription, sub_id, what="subscription", message="{what} not found", key="subscription_id")


@use_case(
    "events.subscriptions.create",
    "POST /subscriptions",
    tx="write",
    online=True,
    roles=MANAGERS,
    status=201,
    summary="create a subscription",
)
def create_subscription(ctx: Ctx, body: SubscriptionCreate, session: Session = SESSION) -> SubscriptionOut:
    url = _safe_url(ctx, body.webhook_url)
    now = ctx.now()
    sub = Subscription(
        id=new_id(),
        event_types=body.types,
        target="webhook",
        webhook_url=url,
        secret=seal(ctx.runtime.secret_key, body.secret),
        filter=body.filter,
        payload_format=body.payload_format,
        active=body.active,
        created_at=now,
        updated_at=now,
    )
    session.add(sub)
    session.flush()
    return _sub_out(sub)


@use_case("events.subscriptions.list", "GET /subscriptions", tx="read", summary="list subscriptions")
def list_subscriptions(ctx: Ctx, query: SubscriptionQuery) -> Page[SubscriptionOut]:
    stmt = select(Subscription)
    if query.active is not None:
        stmt = stmt.where(Subscription.active.is_(query.active))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": Subscription.created_at, "updated_at": Subscription.updated_at}
        )
    out = page.map(_sub_out)
    if query.event_type:
        # JSON list membership differs per backend; a tenant has few subscriptions.
        out.items = [i for i in out.items if query.event_type in i.event_types]
    return out


@use_case("events.subscriptions.get", "GET /subscriptions/{sub_id}", tx="read", summary="read a subscription")
def get_subscription(ctx: Ctx, sub_id: str, session: Session = SESSION) -> SubscriptionOut:
    return _sub_out(_load_sub(session, sub_id))


@use_case(
    "events.subscriptions.update",
    "PATCH /subscriptions/{sub_id}",
    tx="write",
    roles=MANAGERS,
    summary="change a subscription",
)
def update_subscription(ctx: Ctx, sub_id: str, body: SubscriptionUpdate, session: Session = SESSION) -> SubscriptionOut:
    url = _safe_url(ctx, body.webhook_url) if body.webhook_url is not None else None
    sub = _load_sub(session, sub_id)
    if body.event_types is not None:
        sub.event_types = body.event_types
    if url is not None:
        sub.webhook_url = url
    if "filter" in body.model_fields_set:
        sub.filter = body.filter
    if body.payload_format is not None:
        sub.payload_format = body.payload_format
    sub.updated_at = ctx.now()
    session.flush()
    return _sub_out(sub)


@use_case(
    "events.subscriptions.activate",
    "POST /subscriptions/{sub_id}/activate",
    tx="write",
    roles=MANAGERS,
    summary="activate a subscription",
)
def activate(ctx: Ctx, sub_id: str, session: Session = SESSION) -> SubscriptionOut:
    sub = _load_sub(session, sub_id)
    if sub.active:
        raise conflict_state("subscription", "active", "activate")
    sub.active, sub.updated_at = True, ctx.now()
    session.flush()
    return _sub_out(sub)


@use_case(
    "events.subscriptions.deactivate",
    "POST /subscriptions/{sub_id}/deactivate",
    tx="write",
    roles=MANAGERS,
    summary="deactivate a subscription",
)
def deactivate(ctx: Ctx, sub_id: str, session: Session = SESSION) -> SubscriptionOut:
    """Stop deliveries: the pending ones are cancelled in the same transaction."""
    sub = _load_sub(session, sub_id)
    if not sub.active:
        raise conflict_state("subscription", "inactive", "deactivate")
    now = ctx.now()
    sub.active, sub.updated_at = False, now
    session.execute(
        update(Delivery)
        .where(Delivery.subscription_id == sub.id, Delivery.status == states.PENDING)
        .values(status=states.CANCELLED, completed_at=now, next_attempt_at=None)
    )
    session.flush()
    return _sub_out(sub)


@use_case(
    "events.subscriptions.rotate_secret",
    "POST /subscriptions/{sub_id}/rotate-secret",
    tx="write",
    online=True,
    roles=MANAGERS,
    summary="rotate a subscription's secret",
)
def rotate_secret(ctx: Ctx, sub_id: str, body: RotateSecret, session: Session = SESSION) -> SubscriptionOut:
    """New secret now; the old one still signs (second header) during the grace window."""
    sub = _load_sub(session, sub_id)
    # As bytes: compare_digest refuses str beyond ASCII, and a secret may be any text.
    if hmac.compare_digest(body.secret.encode(), unseal(ctx.runtime.secret_key, sub.secret).encode()):
        raise ValidationFailed("the new secret equals the current one")
    now = ctx.now()
    if body.grace_seconds > 0:
        sub.previous_secret = sub.secret
        sub.previous_secret_expires_at = now + timedelta(seconds=body.grace_seconds)
    else:
        sub.previous_secret, sub.previous_secret_expires_at = None, None
    sub.secret, sub.updated_at = seal(ctx.runtime.secret_key, body.secret), now
    session.flush()
    return _sub_out(sub)


@use_case(
    "events.subscriptions.delete",
    "DELETE /subscriptions/{sub_id}",
    tx="write",
    roles=MANAGERS,
    summary="delete a subscription",
)
def delete_subscription(ctx: Ctx, sub_id: str, session: Session = SESSION) -> None:
    sub = _load_sub(session, sub_id)
    session.delete(sub)


# --- deliveries, test events, replay ----------------------------------------------------


def _delivery_out(d: Delivery, attempts: list[DeliveryAttempt]) -> DeliveryOut:
    return DeliveryOut(
        id=d.id,
        subscription_id=d.subscription_id,
        event_id=d.event_id,
        event_type=d.event_type,
        kind=d.kind,
        replay=d.kind == "replay",
        status=d.status,
        attempts=d.attempts,
        max_attempts=d.max_attempts,
        next_attempt_at=d.next_attempt_at,
        last_status_code=d.last_status_code,
        last_error=d.last_error,
        created_at=d.created_at,
        completed_at=d.completed_at,
        attempt_log=[
            AttemptOut(
                number=a.number,
                retry_count=a.number - 1,
                trigger=a.trigger,
                attempted_at=a.attempted_at,
                duration_ms=a.duration_ms,
                status_code=a.status_code,
                error_class=a.error_class,
                error_message=a.error_message,
                response_body=a.response_body,
            )
            for a in sorted(attempts, key=lambda a: a.number)
        ],
    )


@use_case(
    "events.subscriptions.deliveries",
    "GET /subscriptions/{sub_id}/deliveries",
    tx="read",
    summary="delivery history",
)
def list_deliveries(ctx: Ctx, sub_id: str, query: DeliveryQuery) -> Page[DeliveryOut]:
    """Delivery history of one subscription, each with its attempts."""
    with ctx.read() as s:
        _load_sub(s, sub_id)
        stmt = select(Delivery).where(Delivery.subscription_id == sub_id)
        if query.status:
            stmt = stmt.where(Delivery.status == query.status)
        if query.kind:
            stmt = stmt.where(Delivery.kind == query.kind)
        page = paginate(s, stmt, query, columns={"created_at": Delivery.created_at, "status": Delivery.status})
        by_delivery: dict[str, list[DeliveryAttempt]] = {d.id: [] for d in page.items}
        if by_delivery:
            found = s.execute(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id.in_(list(by_delivery))))
            for a in found.scalars():
                by_delivery[a.delivery_id].append(a)
    return page.map(lambda d: _delivery_out(d, by_delivery[d.id]))


@use_case(
    "events.deliveries.get",
    "GET /deliveries/{delivery_id}",
    tx="read",
    summary="read a delivery with its attempts",
)
def get_delivery(ctx: Ctx, delivery_id: str, session: Session = SESSION) -> DeliveryOut:
    d = get_or_404(session, Delivery, delivery_id, what="delivery", message="{what} not found", key="delivery_id")
    attempts = list(session.execute(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == d.id)).scalars())
    return _delivery_out(d, attempts)


@use_case(
    "events.subscriptions.test",
    "POST /subscriptions/{sub_id}/test",
    tx="write",
    needs=("the subscriber's web address",),
    roles=MANAGERS,
    summary="send a test event",
)
def send_test(ctx: Ctx, sub_id: str, session: Session = SESSION) -> DeliveryOut:
    """A test event to one subscription: one attempt, sent by the worker at once."""
    cfg = config_of(ctx.runtime)
    now = ctx.now()
    sub = _load_sub(session, sub_id)
    if not sub.active:
        raise conflict_state("subscription", "inactive", "send a test event to")
    payload = {
        "id": new_id(),
        "type": TEST_EVENT_TYPE,
        "tenant_id": ctx.tenant_id,
        "source": "events",
        "created_at": iso(now),
        "data": {
            "subscription_id": sub.id,
            "event_types": list(sub.event_types),
            "message": "test event: the subscription reaches this endpoint",
        },
        "origin": "platform",
    }
    row = delivery_row(
        tenant_id=ctx.tenant_id,
        subscription_id=sub.id,
        event_id=None,
        event_type=TEST_EVENT_TYPE,
        kind="test",
        now=now,
        config=cfg,
        payload=payload,
        max_attempts=1,
    )
    row["next_attempt_at"] = now
    session.connection().execute(INSERT_DELIVERY, [row])
    d = session.get(Delivery, row["id"])
    assert d is not None
    return _delivery_out(d, [])


def _window_start(ctx: Ctx) -> Any:
    return ctx.now() - timedelta(days=RETENTION_DAYS)


def _replay_rows(ctx: Ctx, s: Any, events: list[Any]) -> int:
    cfg = config_of(ctx.runtime)
    subs = active_subscriptions(s, ctx.tenant_id)
    now = ctx.now()
    rows = [
        delivery_row(
            tenant_id=ctx.tenant_id,
            subscription_id=sub["id"],
            event_id=ev.id,
            event_type=ev.type,
            kind="replay",
            now=now,
            config=cfg,
        )
        for ev in events
        for sub in subs
        if wants(sub, ev.type, ev.data)
    ]
    if rows:
        s.connection().execute(INSERT_DELIVERY, rows)
    return len(rows)


@use_case("events.replay", "POST /events/{event_id}/replay", tx="write", roles=MANAGERS, summary="replay an event")
def replay_event(ctx: Ctx, event_id: str) -> ReplayOut:
    """Send one event again to every active subscription it matches (X-Service-Replay: true)."""
    with ctx.write() as s:
        ev = s.get(Event, event_id)
        if ev is None:
            raise NotFound("event not found", {"event_id": event_id})
        if ev.created_at < _window_start(ctx):
            raise Conflict(
                f"event is older than the {RETENTION_DAYS}-day replay window",
                {"current_state": "expired", "created_at": iso(ev.created_at), "retention_days": RETENTION_DAYS},
            )
        n = _replay_rows(ctx, s, [ev])
    return ReplayOut(event_id=ev.id, event_type=ev.type, events=1, deliveries=n)


@use_case(
    "events.replay_range",
    "POST /events/replay",
    tx="write",
    roles=MANAGERS,
    summary="replay events by type and time range",
)
def replay_range(ctx: Ctx, body: ReplayRange) -> ReplayOut:
    """Replay every event of one type inside [from, to]."""
    start = _window_start(ctx)
    if body.from_ < start:
        raise ValidationFailed(
            f"'from' is outside the {RETENTION_DAYS}-day replay window",
            {"from": iso(body.from_), "earliest": iso(start), "retention_days": RETENTION_DAYS},
        )
    if body.from_ > ctx.now():
        raise ValidationFailed("'from' is in the future", {"from": iso(body.from_)})
    with ctx.write() as s:
        where = (Event.type == body.event_type, Event.created_at >= body.from_, Event.created_at <= body.to)
        count = s.execute(select(func.count()).select_from(Event).where(*where)).scalar_one()
        if count > MAX_REPLAY_EVENTS:
            raise ValidationFailed(
                f"the range holds {count} events; replay at most {MAX_REPLAY_EVENTS} at a time",
                {"events": count, "max": MAX_REPLAY_EVENTS},
            )
        events = list(s.execute(select(Event).where(*where).order_by(Event.created_at)).scalars())
        n = _replay_rows(ctx, s, events)
    return ReplayOut(event_type=body.event_type, events=len(events), deliveries=n, from_=body.from_, to=body.to)


def purge_expired(ctx: Ctx) -> dict[str, int]:
    """The retention job (all tenants): events and deliveries older than 90 days."""
    return store.purge(ctx.db, ctx.now(), RETENTION_DAYS)
