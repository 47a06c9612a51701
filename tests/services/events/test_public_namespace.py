"""Anonymous events keep their own namespace: a platform type published through /p/events is stored
and delivered as ``public.<type>``, only to subscriptions naming it or ``public.*`` (``*`` and
``<module>.*`` do not take it), runs no reaction and is not counted in Analytics."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from local_db.models.analytics import MetricDaily
from local_db.models.events import Delivery, Event
from services.core import events as core_events
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import ValidationFailed
from services.core.events import EmittedEvent
from services.events.fanout import DeliveryConfig
from tests.services.events.conftest import ctx_for
from tests.services.events.test_events_worker import SHIPPED


def _sub(ctx: Ctx, types: list[str]) -> str:
    body = {"event_types": types, "webhook_url": "https://127.0.0.1:1/x", "secret": "k"}
    return str(execute(ctx, "events.subscriptions.create", body=body).id)


def _counted(rt: Runtime, name: str) -> int:
    with rt.db.reading(None) as s:
        return int(sum(s.scalars(select(MetricDaily.count).where(MetricDaily.name == name))))


def test_a_public_event_has_its_own_type_subscribers_reactions_and_counts(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime.provide(DeliveryConfig(allow_private=True, resolve_on_create=False))
    ctx = ctx_for(runtime)
    subs = {
        "star": _sub(ctx, ["*"]),
        "module": _sub(ctx, ["fulfillment.*"]),
        "platform": _sub(ctx, ["order.shipped"]),
        "public": _sub(ctx, ["public.order.shipped"]),
        "public_star": _sub(ctx, ["public.*"]),
    }
    reacted: list[str] = []

    def reaction(_ctx: Ctx, ev: EmittedEvent) -> None:
        reacted.append(ev.type)

    monkeypatch.setitem(core_events.HANDLERS, "order.shipped", [reaction])
    counted = _counted(runtime, "events.order.shipped")
    out = execute(ctx, "events.publish_public", body={"type": "order.shipped", "data": SHIPPED})
    assert out.type == "public.order.shipped" and out.deliveries == 2
    with runtime.db.reading(None) as s:
        stored = s.get(Event, out.id)
        assert stored is not None and (stored.type, stored.origin) == ("public.order.shipped", "public")
        got = set(s.scalars(select(Delivery.subscription_id).where(Delivery.event_id == out.id)))
    assert got == {subs["public"], subs["public_star"]}
    assert reacted == []  # the platform's reactions to order.shipped do not run for anyone's word
    assert _counted(runtime, "events.order.shipped") == counted
    assert _counted(runtime, "events.public.order.shipped") == 0
    # The platform's own order.shipped: every platform subscriber, not the public ones.
    mine = execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    with runtime.db.reading(None) as s:
        got = set(s.scalars(select(Delivery.subscription_id).where(Delivery.event_id == mine.id)))
    assert got == {subs["star"], subs["module"], subs["platform"]}
    assert reacted == ["order.shipped"] and _counted(runtime, "events.order.shipped") == counted + 1


@pytest.mark.parametrize(
    "body",
    [
        {"event_types": ["public.nope"]},  # not a catalogue type
        {"event_types": ["public.order.*"]},  # no module wildcard inside the public namespace
        {"event_types": ["public."]},
        {"event_type": "public.nope"},
    ],
)
def test_a_subscription_to_an_unknown_public_type_is_refused_and_stores_nothing(
    runtime: Runtime, body: dict[str, Any]
) -> None:
    runtime.provide(DeliveryConfig(allow_private=True, resolve_on_create=False))
    ctx = ctx_for(runtime)
    before = execute(ctx, "events.subscriptions.list", query={"limit": 100})
    with pytest.raises(ValidationFailed):
        execute(
            ctx,
            "events.subscriptions.create",
            body={**body, "webhook_url": "https://127.0.0.1:1/x", "secret": "k"},
        )
    assert len(execute(ctx, "events.subscriptions.list", query={"limit": 100}).items) == len(before.items)


def test_nobody_publishes_into_the_public_namespace_by_name(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    for op in ("events.publish", "events.publish_public"):
        with pytest.raises(ValidationFailed):
            execute(ctx, op, body={"type": "public.order.shipped", "data": SHIPPED})
