"""Webhook endpoint health: an endpoint whose every delivery failed for the tenant's set time is
disabled on the scheduler, its owner mailed (real SMTP on loopback), an event emitted; activate
turns it on again and the count starts afresh."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email import message_from_bytes
from email.policy import default

import pytest
from sqlalchemy import select

from local_db.models import Event, Membership, User
from local_db.models.events import Delivery, DeliveryAttempt
from local_db.models.scheduler import ScheduledJob
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import ValidationFailed
from services.core.mail import MailConfig
from services.core.scheduler import Scheduler
from services.events import health
from services.events.delivery import DeliveryWorker
from tests.api.events.receiver import Certs, Receiver, Reply
from tests.services.events.conftest import ctx_for
from tests.services.events.test_events_worker import SHIPPED, configure, count, run_worker, sub
from tests.smtp_server import SmtpServer


def _publish_and_deliver(rt: Runtime) -> None:
    """One order.shipped event, sent by a real delivery worker until every attempt is recorded."""
    execute(ctx_for(rt), "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    # One attempt for each pending delivery (the config allows one try).
    want = count(rt, DeliveryAttempt) + count(rt, Delivery, Delivery.status == "pending")

    async def body(ws: list[DeliveryWorker]) -> None:
        for _ in range(1000):  # generous on a loaded machine: about 10 s
            if count(rt, DeliveryAttempt) >= want and ws[0].inflight == 0:
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the deliveries were not attempted")

    run_worker(rt, body)


def _owners(rt: Runtime) -> list[str]:
    with rt.db.reading(ctx_for(rt).tenant_id) as s:
        q = select(User.email).join(Membership, Membership.user_id == User.id).where(Membership.role == "owner")
        return sorted(set(s.scalars(q)))


def test_an_endpoint_failing_every_delivery_for_five_days_is_disabled_once(
    runtime: Runtime, certs: Certs, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FixedClock()
    runtime.clock = clock
    configure(runtime, certs, delays=(0,))  # one attempt a delivery: each event is one try
    down = sub(runtime, receiver.script("/down", Reply(500)) + "?token=never-in-a-mail")
    up = sub(runtime, receiver.script("/up", Reply(200)))
    _publish_and_deliver(runtime)
    clock.advance(days=4)
    _publish_and_deliver(runtime)
    assert "ALERT webhook delivery failed" in caplog.text and "/down" in caplog.text
    assert "never-in-a-mail" not in caplog.text  # nor in a log line
    assert health.endpoint_health(runtime) == {"disabled": 0}  # failing for 4 days only
    clock.advance(days=1, minutes=1)
    execute(ctx_for(runtime), "events.publish", body={"type": "order.shipped", "data": SHIPPED})  # left pending
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        scheduler = Scheduler(runtime, owner="test")
        scheduler.sync()
        with runtime.db.transaction(None) as s:  # the other periodic jobs are not this test's
            s.execute(ScheduledJob.__table__.update().where(ScheduledJob.name != "events.endpoint_health").values(
                next_run_at=clock.now() + timedelta(days=30)))  # fmt: skip
        assert scheduler.run_due() == 1
        with runtime.db.reading(None) as s:
            job = s.execute(select(ScheduledJob).where(ScheduledJob.name == "events.endpoint_health")).scalar_one()
            assert (job.last_status, job.last_result) == ("succeeded", {"disabled": 1})
        assert health.endpoint_health(runtime) == {"disabled": 0}  # once: it is off now
        mails = list(smtp.messages)
    assert len(mails) == len(_owners(runtime)) >= 1  # made by the system: the tenant's owners are told
    assert sorted(r for m in mails for r in m["rcpt"]) == _owners(runtime)
    msg = message_from_bytes(mails[0]["data"], policy=default)
    text = str(msg.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert msg["Subject"] == "Webhook endpoint disabled" and "/down" in text and down in text
    assert "never-in-a-mail" not in text
    got = execute(ctx_for(runtime), "events.subscriptions.get", sub_id=down)
    assert not got.active and got.disabled_at == clock.now()
    assert got.disabled_reason is not None and "every delivery failed since" in got.disabled_reason
    assert execute(ctx_for(runtime), "events.subscriptions.get", sub_id=up).active  # a working one stays on
    assert count(runtime, Delivery, Delivery.subscription_id == down, Delivery.status == "pending") == 0
    with runtime.db.reading(None) as s:
        ev = s.execute(select(Event).where(Event.type == "webhook.endpoint_disabled")).scalar_one()
    assert ev.data["subscription_id"] == down and ev.data["reason"] == got.disabled_reason
    # Turned on again: the failures before that no longer count.
    back = execute(ctx_for(runtime), "events.subscriptions.activate", sub_id=down)
    assert back.active and back.disabled_at is None and back.disabled_reason is None
    clock.advance(days=6)
    assert health.endpoint_health(runtime) == {"disabled": 0}


def test_the_window_is_a_tenant_setting_and_bad_values_store_nothing(
    runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    clock = FixedClock()
    runtime.clock = clock
    configure(runtime, certs, delays=(0,))
    ctx = ctx_for(runtime)
    for bad in (0, 91, "5"):
        with pytest.raises(ValidationFailed):
            execute(ctx, "events.settings.update", body={"public_publish": True, "endpoint_disable_days": bad})
    assert execute(ctx, "events.settings.get").endpoint_disable_days == 5
    assert execute(ctx, "events.settings.update", body={"public_publish": True, "endpoint_disable_days": 2})
    # A PUT without it keeps the stored value.
    assert execute(ctx, "events.settings.update", body={"public_publish": False}).endpoint_disable_days == 2
    down = sub(runtime, receiver.script("/down2", Reply(503)))
    _publish_and_deliver(runtime)
    clock.advance(days=2, seconds=1)
    assert health.endpoint_health(runtime) == {"disabled": 1}
    assert not execute(ctx, "events.subscriptions.get", sub_id=down).active
