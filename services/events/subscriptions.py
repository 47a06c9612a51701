"""Events: subscriptions."""

from __future__ import annotations

import base64
import hmac
import secrets
from datetime import timedelta
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.events import Delivery, DeliveryAttempt, Event, Subscription
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed, conflict_state, get_or_404
from services.core.pagination import Page, paginate
from services.core.roles import MANAGERS
from services.core.safety import UnsafeTarget, check_url
from services.core.sealing import seal, unseal
from services.events import states
from services.events.fanout import (
    INSERT_DELIVERY,
    config_of,
    delivery_row,
    iso,
    made_deliveries,
)
from services.events.schemas import (
    AttemptOut,
    DeliveryOut,
    DeliveryQuery,
    RotateSecret,
    SubscriptionCreate,
    SubscriptionCreated,
    SubscriptionOut,
    SubscriptionQuery,
    SubscriptionUpdate,
    check_whsec,
)

TEST_EVENT_TYPE = "webhook.test"


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
def create_subscription(ctx: Ctx, body: SubscriptionCreate, session: Session = SESSION) -> SubscriptionCreated:
    url = _safe_url(ctx, body.webhook_url)
    now = ctx.now()
    made = None
    if body.secret is None:  # standard-webhooks (the schema asks hmac-sha256 for one): 32 random bytes
        made = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    sub = Subscription(
        id=new_id(),
        event_types=body.types,
        target="webhook",
        webhook_url=url,
        secret=seal(ctx.runtime.secret_key, made or body.secret or ""),
        filter=body.filter,
        payload_format=body.payload_format,
        signing=body.signing,
        active=body.active,
        created_at=now,
        updated_at=now,
        created_by=ctx.principal.user_id,
        enabled_at=now,
    )
    session.add(sub)
    session.flush()
    return SubscriptionCreated(**_sub_out(sub).model_dump(), secret=made)


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
    # Failures before now no longer count against it (endpoint health starts afresh).
    sub.active, sub.updated_at, sub.enabled_at = True, ctx.now(), ctx.now()
    sub.disabled_at, sub.disabled_reason = None, None
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
    if sub.signing == "standard-webhooks":
        try:
            check_whsec(body.secret)
        except ValueError as exc:
            raise ValidationFailed(str(exc), {"fields": [{"field": "secret", "message": str(exc)}]}) from None
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
    made_deliveries(session)
    d = session.get(Delivery, row["id"])
    assert d is not None
    return _delivery_out(d, [])


class ResendOut(BaseModel):
    id: str
    status: str


@use_case(
    "events.deliveries.resend",
    "POST /deliveries/{delivery_id}/resend",
    tx="write",
    needs=("the subscriber's web address",),
    roles=MANAGERS,
    status=202,
    summary="send one delivery again to its one endpoint (a new delivery, sent at once)",
)
def resend_delivery(ctx: Ctx, delivery_id: str, session: Session = SESSION) -> ResendOut:
    """Only this endpoint gets it again (a replay goes to every matching subscription); the new
    delivery is marked as a replay (X-Service-Replay) and follows the retry policy."""
    d = get_or_404(session, Delivery, delivery_id, what="delivery", message="{what} not found", key="delivery_id")
    sub = _load_sub(session, d.subscription_id)
    if not sub.active:
        raise conflict_state("subscription", "inactive", "resend a delivery to")
    if d.event_id is not None and session.get(Event, d.event_id) is None:
        raise conflict_state("event", "expired", "resend")  # past retention: the body is gone
    now = ctx.now()
    row = delivery_row(
        tenant_id=ctx.tenant_id,
        subscription_id=sub.id,
        event_id=d.event_id,
        event_type=d.event_type,
        kind="test" if d.kind == "test" else "replay",
        now=now,
        config=config_of(ctx.runtime),
        payload=d.payload,
        max_attempts=1 if d.kind == "test" else None,
    )
    row["next_attempt_at"] = now
    session.connection().execute(INSERT_DELIVERY, [row])
    made_deliveries(session)
    return ResendOut(id=row["id"], status=row["status"])
