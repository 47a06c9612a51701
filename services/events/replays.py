"""Events: replays."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from local_db.models.events import Event
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.roles import MANAGERS
from services.events import store
from services.events.fanout import (
    INSERT_DELIVERY,
    active_subscriptions,
    config_of,
    delivery_row,
    iso,
    made_deliveries,
    wants,
)
from services.events.schemas import (
    RETENTION_DAYS,
    ReplayOut,
    ReplayRange,
)

MAX_REPLAY_EVENTS = 10_000


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
        made_deliveries(s)
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
