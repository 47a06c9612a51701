"""The service layer and the delivery worker without the HTTP front door: transactions, the
station split, the retry schedule on an injectable clock, claims, connect-time checks, retention."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models.events import Delivery, DeliveryAttempt, Event
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.signing import sign
from services.events import replays, store, subscriptions
from services.events.delivery import DeliveryWorker
from services.events.fanout import DeliveryConfig, install_platform
from services.events.schemas import DeliveryQuery
from tests.api.events.h2_receiver import H2Receiver
from tests.api.events.receiver import Certs, Receiver, Reply
from tests.services.events.conftest import ctx_for

SHIPPED = {"order_id": "o1", "tracking_number": "1Z", "carrier": "UPS", "shipped_at": "2026-01-06T09:00:00Z"}


def configure(rt: Runtime, certs: Certs, **kw: Any) -> DeliveryConfig:
    opts: dict[str, Any] = {
        "delays": (0, 0.05, 0.05, 0.05, 0.05),
        "timeout": 2.0,
        "allow_private": True,
        "ca_bundle": str(certs.ca),
        "lanes": 4,
        "poll_interval": 0.2,
    }
    opts.update(kw)
    cfg = DeliveryConfig(**opts)
    rt.provide(cfg)
    return cfg


def sub(rt: Runtime, url: str, **kw: Any) -> str:
    body = {"event_types": ["order.shipped"], "webhook_url": url, "secret": "k", **kw}
    return str(execute(ctx_for(rt), "events.subscriptions.create", body=body).id)


def run_worker(rt: Runtime, body: Callable[[list[DeliveryWorker]], Awaitable[None]], workers: int = 1) -> None:
    async def main() -> None:
        ws = [DeliveryWorker(rt) for _ in range(workers)]
        for w in ws:
            await w.start()
        try:
            await body(ws)
        finally:
            for w in ws:
                await w.stop()

    asyncio.run(main())


def count(rt: Runtime, model: Any, *where: Any) -> int:
    with rt.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model).where(*where)).scalar_one())


def test_event_and_deliveries_commit_together_or_not_at_all(runtime: Runtime, certs: Certs) -> None:
    configure(runtime, certs)
    sub(runtime, "https://127.0.0.1:1/a")
    ctx = ctx_for(runtime)
    with pytest.raises(RuntimeError), ctx.write():
        emit(ctx, "order.shipped", SHIPPED)
        raise RuntimeError("the use case failed after emitting")
    assert count(runtime, Event) == 0 and count(runtime, Delivery) == 0
    # emit() from any module fans out (here: inside some other use case's unit of work).
    with ctx.write():
        emit(ctx, "order.shipped", SHIPPED, source="fulfillment")
    assert count(runtime, Event) == 1 and count(runtime, Delivery, Delivery.status == "pending") == 1


def test_station_keeps_history_but_never_fans_out(station: Runtime) -> None:
    assert station.event_hooks == []
    with pytest.raises(RuntimeError, match="platform"):
        install_platform(station, DeliveryConfig())
    ctx = ctx_for(station)
    out = execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    assert out.deliveries == 0 and count(station, Event) == 1 and count(station, Delivery) == 0


def test_retry_schedule_follows_policy_a_on_an_injectable_clock(
    runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    clock = FixedClock()
    runtime.clock = clock
    configure(runtime, certs, delays=(0, 30, 120, 900, 3600))
    url = receiver.script("/sched", Reply(500))
    sub(runtime, url)
    t0 = clock.now()
    execute(ctx_for(runtime), "events.publish", body={"type": "order.shipped", "data": SHIPPED})

    async def body(ws: list[DeliveryWorker]) -> None:
        w = ws[0]

        async def hits(n: int, polls: int = 200) -> int:
            for _ in range(polls):
                if len(receiver.hits("/sched")) >= n and w.inflight == 0:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            return len(receiver.hits("/sched"))

        assert await hits(1) == 1
        elapsed = 0
        for n, delay in enumerate([30, 120, 900, 3600], start=2):
            with runtime.db.reading(None) as s:
                d = s.execute(select(Delivery)).scalar_one()
            assert d.next_attempt_at == t0 + timedelta(seconds=elapsed + delay)
            clock.advance(seconds=delay - 1)
            w.wake()
            assert await hits(n, polls=20) == n - 1, f"attempt {n} sent before its delay"
            clock.advance(seconds=1)
            w.wake()
            assert await hits(n) == n
            elapsed += delay

    run_worker(runtime, body)
    with runtime.db.reading(None) as s:
        d = s.execute(select(Delivery)).scalar_one()
        attempts = list(s.execute(select(DeliveryAttempt).order_by(DeliveryAttempt.number)).scalars())
    assert d.status == "failed" and d.attempts == 5 and d.next_attempt_at is None
    offsets = [(a.attempted_at - t0).total_seconds() for a in attempts]
    assert offsets == [0, 30, 150, 1050, 4650]
    assert [r.headers["x-service-retry-count"] for r in receiver.hits("/sched")] == ["0", "1", "2", "3", "4"]


def assert_two_workers_send_each_delivery_once(rt: Runtime, certs: Certs, receiver: Receiver) -> None:
    """200 deliveries, two workers on one database: each sent exactly once (also run on PostgreSQL)."""
    configure(rt, certs, lanes=8)
    for i in range(5):
        sub(rt, receiver.script(f"/w{i}"))
    ctx = ctx_for(rt)

    async def body(ws: list[DeliveryWorker]) -> None:
        def publish_all() -> None:
            for _ in range(40):
                execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})

        await asyncio.to_thread(publish_all)
        for _ in range(750):
            if count(rt, Delivery, Delivery.status == "succeeded") == 200:
                break
            await asyncio.sleep(0.02)
        assert ws[0].sent > 0 and ws[1].sent > 0, "both workers took part"

    run_worker(rt, body, workers=2)
    ids = [r.headers["x-service-delivery-id"] for r in receiver.requests]
    assert len(ids) == 200 and len(set(ids)) == 200
    assert count(rt, DeliveryAttempt) == 200


def test_two_workers_on_one_database_never_send_an_attempt_twice(
    runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    assert_two_workers_send_each_delivery_once(runtime, certs, receiver)


def test_http2_where_the_receiver_offers_it_and_http1_where_it_does_not(
    runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    configure(runtime, certs)
    with H2Receiver(certs) as h2r:
        sub(runtime, f"{h2r.url}/h2", secret="k2")
        sub(runtime, receiver.script("/h1"))
        ctx = ctx_for(runtime)
        for _ in range(3):
            execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})

        async def body(ws: list[DeliveryWorker]) -> None:
            for _ in range(300):
                if count(runtime, Delivery, Delivery.status == "succeeded") == 6:
                    break
                await asyncio.sleep(0.02)

        run_worker(runtime, body)
        got = h2r.hits("/h2")
    assert len(got) == 3 and {r.alpn for r in got} == {"h2"}
    assert {r.headers[":method"] for r in got} == {"POST"}
    assert all(r.headers["x-service-signature"] == sign("k2", r.body) for r in got)
    assert json.loads(got[0].body)["type"] == "order.shipped"
    h1 = receiver.hits("/h1")
    assert len(h1) == 3 and {r.http_version for r in h1} == {"1.1"}
    # The six attempts were recorded (in batches) with the receivers' answers.
    assert count(runtime, DeliveryAttempt, DeliveryAttempt.status_code == 200) == 6


def test_connect_time_check_refuses_a_name_that_rebinds_to_loopback(
    runtime: Runtime, certs: Certs, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(runtime, certs, allow_private=False)
    real = socket.getaddrinfo
    answers = iter(["93.184.216.34"])  # public at creation, loopback afterwards

    def fake(host: Any, port: Any, *a: Any, **kw: Any) -> Any:
        if host == "rebind.example":
            ip = next(answers, "127.0.0.1")
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]
        return real(host, port, *a, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    sid = sub(runtime, f"https://rebind.example:{receiver.port}/rebind")
    receiver.script("/rebind")
    execute(ctx_for(runtime), "events.publish", body={"type": "order.shipped", "data": SHIPPED})

    async def body(ws: list[DeliveryWorker]) -> None:
        for _ in range(300):
            if count(runtime, Delivery, Delivery.status == "failed") == 1:
                break
            await asyncio.sleep(0.02)

    run_worker(runtime, body)
    page = subscriptions.list_deliveries(ctx_for(runtime), sid, DeliveryQuery())
    (d,) = page.items
    assert d.status == "failed" and {a.error_class for a in d.attempt_log} == {"blocked_address"}, d.attempt_log[0]
    assert "127.0.0.1" in (d.attempt_log[0].error_message or "")
    assert receiver.hits("/rebind") == []


def test_retention_purges_old_rows_and_refuses_expired_replays(runtime: Runtime, certs: Certs) -> None:
    clock = FixedClock()
    runtime.clock = clock
    configure(runtime, certs)
    sub(runtime, "https://127.0.0.1:1/r")
    ctx = ctx_for(runtime)
    old = execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    clock.advance(days=91)
    new = execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    with pytest.raises(Conflict) as exc:
        execute(ctx, "events.replay", event_id=old.id)
    assert exc.value.details and exc.value.details["current_state"] == "expired"
    with pytest.raises(ValidationFailed, match="90-day"):
        execute(
            ctx,
            "events.replay_range",
            body={"event_type": "order.shipped", "from": old.created_at.isoformat(), "to": new.created_at.isoformat()},
        )
    assert replays.purge_expired(ctx) == {"events": 1, "deliveries": 1, "attempts": 0}
    with pytest.raises(NotFound):
        execute(ctx, "events.replay", event_id=old.id)
    assert count(runtime, Event) == 1 and count(runtime, Delivery) == 1
    assert execute(ctx, "events.replay", event_id=new.id).deliveries == 1


def test_stop_gives_back_claims_and_a_lost_lease_records_nothing(runtime: Runtime, certs: Certs) -> None:
    cfg = configure(runtime, certs)
    sub(runtime, "https://127.0.0.1:1/x")
    execute(ctx_for(runtime), "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    now = runtime.clock.now()
    (job,) = store.claim_due(runtime.db, cfg, now, 10, runtime.secret_key)
    assert store.claim_due(runtime.db, cfg, now, 10, runtime.secret_key) == []  # leased
    assert json.loads(job.body)["type"] == "order.shipped" and job.number == 1
    store.release(runtime.db, [job])
    (again,) = store.claim_due(runtime.db, cfg, now, 10, runtime.secret_key)
    stale = store.Result(
        job=job,
        attempted_at=now,
        duration_ms=1,
        status_code=200,
        error_class=None,
        error_message=None,
        response_body="",
    )
    store.record(runtime.db, cfg, [stale], now)  # the old token: ignored
    assert count(runtime, DeliveryAttempt) == 0
    # The holder is killed (kill -9) before recording: once its lease runs out, another claim takes it.
    later = now + timedelta(seconds=3 * cfg.timeout + 31)
    assert store.claim_due(runtime.db, cfg, now + timedelta(seconds=1), 10, runtime.secret_key) == []
    (third,) = store.claim_due(runtime.db, cfg, later, 10, runtime.secret_key)
    assert third.delivery_id == job.delivery_id and third.claim_token != again.claim_token and third.number == 1
    # One batch with the stale results and the holder's: only the holder's is recorded.
    results = [stale.__class__(**{**stale.__dict__, "job": j}) for j in (job, again, third)]
    store.record(runtime.db, cfg, results, later)
    assert count(runtime, DeliveryAttempt) == 1 and count(runtime, Delivery, Delivery.status == "succeeded") == 1


def test_subscription_secrets_are_sealed_at_rest(runtime: Runtime) -> None:
    """The signing secret is stored encrypted: a copy of the database does not reveal it."""
    from local_db.models.events import Subscription
    from services.core.sealing import is_sealed, unseal

    sid = sub(runtime, "https://hooks.example.com/sealed", secret="a-very-particular-secret-123")
    execute(
        ctx_for(runtime),
        "events.subscriptions.rotate_secret",
        sub_id=sid,
        body={"secret": "the-next-secret-456", "grace_seconds": 600},
    )
    with runtime.db.reading(None) as s:
        row = s.get(Subscription, sid)
        assert row is not None and is_sealed(row.secret) and is_sealed(row.previous_secret)
        assert unseal(runtime.secret_key, row.secret) == "the-next-secret-456"
        assert unseal(runtime.secret_key, row.previous_secret or "") == "a-very-particular-secret-123"
    from tests.conftest import dump_database

    dump = dump_database(runtime)
    assert "a-very-particular-secret-123" not in dump and "the-next-secret-456" not in dump
    with pytest.raises(ValueError):
        unseal("another-server-key-0123456789abcdef", row.secret)


def test_a_recorded_batch_commits_whole_or_not_at_all_and_a_full_claim_skips_the_probe(
    runtime: Runtime, certs: Certs
) -> None:
    """Attempts and status changes of one batch go in one transaction (on SQLite through the
    driver's executemany): a row that cannot be written rolls the whole batch back."""
    import dataclasses

    from sqlalchemy.exc import IntegrityError

    cfg = configure(runtime, certs)
    sub(runtime, "https://127.0.0.1:1/a")
    sub(runtime, "https://127.0.0.1:1/b")
    execute(ctx_for(runtime), "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    now = runtime.clock.now()
    jobs = store.claim_due(runtime.db, cfg, now, 2, runtime.secret_key, probe=False)
    assert len(jobs) == 2 and jobs[0].body is jobs[1].body  # one event, encoded once
    ok = [
        store.Result(
            job=j,
            attempted_at=now,
            duration_ms=3,
            status_code=500,
            error_class="http_5xx",
            error_message="HTTP 500",
            response_body="down",
        )
        for j in jobs
    ]
    broken = [ok[0], dataclasses.replace(ok[1], job=dataclasses.replace(jobs[1], tenant_id=None))]  # type: ignore[arg-type]
    with pytest.raises(IntegrityError):
        store.record(runtime.db, cfg, broken, now)
    assert count(runtime, DeliveryAttempt) == 0 and count(runtime, Delivery, Delivery.attempts == 0) == 2
    store.record(runtime.db, cfg, ok, now)
    with runtime.db.reading(None) as s:
        rows = s.execute(select(Delivery.status, Delivery.attempts, Delivery.last_error, Delivery.claim_token)).all()
        log = s.execute(select(DeliveryAttempt.response_body, DeliveryAttempt.duration_ms)).all()
    assert sorted(rows) == [("pending", 1, "http_5xx", None)] * 2 and sorted(log) == [("down", 3)] * 2
    # Retried rows are due again after the policy's delay; nothing is due before it.
    assert store.claim_due(runtime.db, cfg, now, 10, runtime.secret_key, probe=False) == []
    assert len(store.claim_due(runtime.db, cfg, now + timedelta(seconds=1), 10, runtime.secret_key)) == 2
