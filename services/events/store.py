"""The delivery worker's database side: claim due deliveries, record attempts, purge old rows.

Claims are platform-wide (all tenants) on an unscoped connection. A claim
sets a lease (``claimed_until``) and a token; only the holder of the token
may record the attempt, so several server processes on one PostgreSQL never
send one attempt twice (rows are picked with ``FOR UPDATE SKIP LOCKED``).
On SQLite the claim runs in a ``BEGIN IMMEDIATE`` transaction, which
serialises claimers; one worker per database is the supported set-up there.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, insert, null, or_, select, update

from local_db import Database, new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models.events import Delivery, DeliveryAttempt, Event, Subscription
from services.core.sealing import unseal
from services.events import states
from services.events.fanout import DeliveryConfig, encode, event_body

log = logging.getLogger("events.delivery")

D = table_of(Delivery)
A = table_of(DeliveryAttempt)
S = table_of(Subscription)
E = table_of(Event)
BODY_EXCERPT = 4096


@dataclass(frozen=True)
class Job:
    """One attempt to send: everything the sender needs, read at claim time."""

    delivery_id: str
    claim_token: str
    tenant_id: str
    subscription_id: str
    url: str
    secrets: tuple[str, ...]  # current first, then the previous one during a rotation's grace window
    event_type: str
    kind: str  # event, replay, test
    number: int  # 1-based attempt number
    max_attempts: int
    body: bytes
    signing: str = "hmac-sha256"  # or "standard-webhooks" (delivery.webhook_headers)

    @property
    def trigger(self) -> str:
        # A person asked for the first attempt of a test or replay; the rest follow the schedule.
        return "manual" if self.kind in ("test", "replay") and self.number == 1 else "scheduled"


@dataclass(frozen=True)
class Result:
    job: Job
    attempted_at: datetime
    duration_ms: int
    status_code: int | None
    error_class: str | None
    error_message: str | None
    response_body: str

    @property
    def ok(self) -> bool:
        return self.error_class is None and self.status_code is not None and 200 <= self.status_code < 300


# Statements built once with bind parameters (an IN list expands at run time): building and
# cache-keying a new statement per claim cost more than running it.
_DUE = and_(
    D.c.status == states.PENDING,
    D.c.next_attempt_at <= bindparam("now"),
    or_(D.c.claimed_until.is_(None), D.c.claimed_until < bindparam("now")),
)
_PICK = select(D.c.id).where(_DUE).order_by(D.c.next_attempt_at).limit(bindparam("limit"))
_PICK_LOCKED = _PICK.with_for_update(skip_locked=True)  # PostgreSQL: two workers never pick one row
_ANY_DUE = select(D.c.id).where(_DUE).limit(1)
_LEASE = (
    update(D)
    .where(D.c.id.in_(bindparam("ids", expanding=True)))
    .values(claimed_until=bindparam("lease"), claim_token=bindparam("token"))
)
_CLAIMED = (
    select(
        D.c.id,
        D.c.tenant_id,
        D.c.subscription_id,
        D.c.event_id,
        D.c.event_type,
        D.c.kind,
        D.c.payload,
        D.c.attempts,
        D.c.max_attempts,
        S.c.webhook_url,
        S.c.secret,
        S.c.previous_secret,
        S.c.previous_secret_expires_at,
        S.c.payload_format,
        S.c.signing,
        S.c.active,
    )
    .select_from(D.join(S, S.c.id == D.c.subscription_id))
    .where(D.c.id.in_(bindparam("ids", expanding=True)))
)
# One event goes to many subscriptions: its row (and JSON data) is read once per claim.
_EVENTS = select(E.c.id, E.c.source, E.c.created_at, E.c.data, E.c.origin).where(
    E.c.id.in_(bindparam("ids", expanding=True))
)
_DROP = (
    update(D)
    .where(D.c.id.in_(bindparam("ids", expanding=True)))
    .values(status=states.CANCELLED, completed_at=bindparam("now"), next_attempt_at=None, claimed_until=None)
)
_NEXT_DUE = select(func.min(D.c.next_attempt_at)).where(
    D.c.status == states.PENDING, or_(D.c.claimed_until.is_(None), D.c.claimed_until < bindparam("now"))
)


def next_due(db: Database, now: datetime) -> datetime | None:
    """When the earliest pending delivery not due yet becomes due."""
    with db.reading(None) as s:
        return s.connection().execute(_NEXT_DUE, {"now": now}).scalar_one_or_none()


def claim_due(
    db: Database, config: DeliveryConfig, now: datetime, limit: int, seal_key: str = "", *, probe: bool = True
) -> list[Job]:
    """Lease up to ``limit`` due deliveries and build their requests (secrets unsealed with ``seal_key``).

    ``probe``: look with a read first (most wake-ups find nothing, and SQLite then takes no write
    lock); the worker leaves it out while a backlog is draining (its last claim came back full)."""
    if limit <= 0:
        return []
    if probe:
        with db.reading(None) as s:
            if not s.connection().execute(_ANY_DUE, {"now": now}).first():
                return []
    token = new_id()
    lease = now + timedelta(seconds=3 * config.timeout + 30)
    with db.transaction(None) as s:
        conn = s.connection()
        pick = _PICK if db.is_sqlite else _PICK_LOCKED
        ids = [r[0] for r in conn.execute(pick, {"now": now, "limit": limit})]
        if not ids:
            return []
        conn.execute(_LEASE, {"ids": ids, "lease": lease, "token": token})
        rows = conn.execute(_CLAIMED, {"ids": ids}).all()
        event_ids = list({r.event_id for r in rows if r.event_id is not None})
        events = {e.id: e for e in conn.execute(_EVENTS, {"ids": event_ids})} if event_ids else {}
        jobs: list[Job] = []
        dropped: list[str] = []
        bodies: dict[tuple[str, str], bytes] = {}  # one event goes to many subscriptions: encode it once
        for r in rows:
            ev = events.get(r.event_id) if r.event_id is not None else None
            if not r.active or (r.event_id is not None and ev is None):
                dropped.append(r.id)
                continue
            jobs.append(_job(r, ev, token, now, seal_key, bodies))
        if dropped:
            # The subscription was turned off (or the event purged) after the delivery was queued.
            conn.execute(_DROP, {"ids": dropped, "now": now})
    return jobs


@lru_cache(maxsize=1024)
def _unsealed(seal_key: str, sealed: str) -> str:
    # Opening a sealed secret costs ~50-90 us and each subscription's is used for every delivery;
    # keyed by the sealed text, so a rotated secret (new sealed text) is opened afresh.
    return unseal(seal_key, sealed)


def _job(r: Any, ev: Any, token: str, now: datetime, seal_key: str, bodies: dict[tuple[str, str], bytes]) -> Job:
    if r.kind == "test":
        payload = dict(r.payload or {})
        if r.payload_format == "timestamp":
            payload.pop("source", None)
            payload["timestamp"] = payload.pop("created_at", None)
        body = encode(payload)
    else:
        key = (r.event_id, r.payload_format)
        cached = bodies.get(key)
        if cached is None:
            cached = bodies[key] = encode(
                event_body(
                    id=r.event_id,
                    type=r.event_type,
                    tenant_id=r.tenant_id,
                    source=ev.source,
                    origin=ev.origin,
                    created_at=ev.created_at,
                    data=ev.data,
                    payload_format=r.payload_format,
                )
            )
        body = cached
    secrets: tuple[str, ...] = (_unsealed(seal_key, r.secret),)
    expires = r.previous_secret_expires_at
    if r.previous_secret and expires is not None and expires > now:
        secrets += (_unsealed(seal_key, r.previous_secret),)
    return Job(
        delivery_id=r.id,
        claim_token=token,
        tenant_id=r.tenant_id,
        subscription_id=r.subscription_id,
        url=r.webhook_url,
        secrets=secrets,
        event_type=r.event_type,
        kind=r.kind,
        number=r.attempts + 1,
        max_attempts=r.max_attempts,
        body=body,
        signing=r.signing,
    )


_RECORD = (
    update(D)
    .where(D.c.id == bindparam("d_id"), D.c.claim_token == bindparam("d_token"))
    .values(
        attempts=bindparam("d_attempts"),
        status=bindparam("d_status"),
        next_attempt_at=bindparam("d_next"),
        completed_at=bindparam("d_done"),
        last_status_code=bindparam("d_code"),
        last_error=bindparam("d_error"),
        claimed_until=null(),  # NULL in the statement's text: every bound value comes from the rows
        claim_token=null(),
    )
)


_HELD = select(D.c.id, D.c.claim_token).where(D.c.id.in_(bindparam("ids", expanding=True)))
_HELD_LOCKED = _HELD.with_for_update()
_RECORD_MANY = Prepared(_RECORD)
_INSERT_ATTEMPTS = Prepared(insert(A))


def _outcome(config: DeliveryConfig, r: Result, now: datetime) -> tuple[str, datetime | None, datetime | None]:
    """The delivery's next status, next attempt time and completion time after this attempt."""
    j = r.job
    if r.ok:
        return states.SUCCEEDED, None, now
    if j.number >= j.max_attempts:
        return states.FAILED, None, now
    delay = config.delays[min(j.number, len(config.delays) - 1)]
    return states.RETRIED, now + timedelta(seconds=delay), None


def record(db: Database, config: DeliveryConfig, results: Sequence[Result], now: datetime) -> list[Result]:
    """Store the attempts and move each delivery on, the whole batch in one transaction (one
    locking read, one executemany UPDATE, one executemany INSERT); returns the deliveries that
    failed for good."""
    failed: list[Result] = []
    if not results:
        return failed
    with db.transaction(None) as s:
        conn = s.connection()
        # Which claims are still held: a lease can run out while a process stalls, and then the
        # next holder records. The rows are locked (PostgreSQL) or the database is (SQLite's
        # BEGIN IMMEDIATE), so the answer stays true until the commit.
        held_q = _HELD if db.is_sqlite else _HELD_LOCKED
        held = {(row[0], row[1]) for row in conn.execute(held_q, {"ids": [r.job.delivery_id for r in results]})}
        updates: list[dict[str, Any]] = []
        attempts: list[dict[str, Any]] = []
        for r in results:
            j = r.job
            if (j.delivery_id, j.claim_token) not in held:
                # Lease lost (this process stalled past it) or the delivery was purged: the holder records.
                log.warning("delivery %s: attempt %s not recorded, claim no longer held", j.delivery_id, j.number)
                continue
            status, nxt, done = _outcome(config, r, now)
            updates.append(
                {
                    "d_id": j.delivery_id,
                    "d_token": j.claim_token,
                    "d_attempts": j.number,
                    "d_status": status,
                    "d_next": nxt,
                    "d_done": done,
                    "d_code": r.status_code,
                    "d_error": r.error_class,
                }
            )
            attempts.append(
                {
                    "id": new_id(),
                    "tenant_id": j.tenant_id,
                    "delivery_id": j.delivery_id,
                    "number": j.number,
                    "trigger": j.trigger,
                    "attempted_at": r.attempted_at,
                    "duration_ms": r.duration_ms,
                    "status_code": r.status_code,
                    "error_class": r.error_class,
                    "error_message": (r.error_message or None) and r.error_message[:300],
                    "response_body": r.response_body,
                }
            )
            if status == states.FAILED and j.kind != "test":
                failed.append(r)
        if updates:
            _RECORD_MANY.run_many(conn, updates)
            _INSERT_ATTEMPTS.run_many(conn, attempts)
    for r in failed:
        j = r.job
        log.error(
            "ALERT webhook delivery failed after %d attempts: tenant=%s subscription=%s delivery=%s event_type=%s "
            "url=%s last=%s",
            j.number,
            j.tenant_id,
            j.subscription_id,
            j.delivery_id,
            j.event_type,
            j.url.split("?", 1)[0],  # a token in the query is a secret: never in a log line
            r.error_class or r.status_code,
        )
    return failed


def release(db: Database, jobs: Sequence[Job]) -> None:
    """Give back claims that were never sent (clean shutdown), so another worker takes them at once."""
    if not jobs:
        return
    stmt = (
        update(D)
        .where(D.c.id == bindparam("d_id"), D.c.claim_token == bindparam("d_token"))
        .values(claimed_until=None, claim_token=None)
    )
    with db.transaction(None) as s:
        s.connection().execute(stmt, [{"d_id": j.delivery_id, "d_token": j.claim_token} for j in jobs])


def purge(db: Database, now: datetime, retention_days: int = 90) -> dict[str, int]:
    """Delete events and deliveries (with their attempts) older than the retention window."""
    cutoff = now - timedelta(days=retention_days)
    with db.transaction(None) as s:
        conn = s.connection()
        old = select(D.c.id).where(
            or_(D.c.created_at < cutoff, D.c.event_id.in_(select(E.c.id).where(E.c.created_at < cutoff)))
        )
        n_attempts = conn.execute(delete(A).where(A.c.delivery_id.in_(old))).rowcount
        n_deliveries = conn.execute(
            delete(D).where(
                or_(D.c.created_at < cutoff, D.c.event_id.in_(select(E.c.id).where(E.c.created_at < cutoff)))
            )
        ).rowcount
        n_events = conn.execute(delete(E).where(E.c.created_at < cutoff)).rowcount
    return {"events": n_events, "deliveries": n_deliveries, "attempts": n_attempts}
