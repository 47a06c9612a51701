"""Webhook endpoint health: an endpoint that has failed every delivery for too long is disabled.

Like Svix: a subscription whose deliveries have all failed for ``endpoint_disable_days`` (a tenant
setting, 5 days by default) is turned off by the periodic job ``events.endpoint_health`` (on the
scheduler, hourly). "All failed" is measured from the later of its last successful attempt and the
time it was last turned on: the first failed attempt after that must be older than the window, with
no success since. Disabling is one transaction: the subscription turns inactive with
``disabled_at`` and ``disabled_reason``, its pending deliveries are cancelled and the event
``webhook.endpoint_disabled`` is emitted; the owner's mail goes after the commit. The disabling is a
conditional update, so of two processes only one acts, and a process killed before the commit
leaves nothing done (the job runs again after its lease): the mail goes at most once.
``POST subscriptions/{id}/activate`` turns it on again and starts the count afresh.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast
from urllib.parse import urlsplit

from pydantic import BaseModel
from sqlalchemy import and_, func, select, update
from sqlalchemy.engine import CursorResult

from local_db.models import Membership, Tenant, User
from local_db.models.events import Delivery, DeliveryAttempt, Subscription
from services.core import auth
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.events import emit, register_event_type
from services.core.mail import Mail, send_after_commit
from services.core.scheduler import periodic
from services.events import states
from services.events.fanout import iso
from services.events.lookups import _settings_of

log = logging.getLogger("events.health")
DISABLED_TYPE = "webhook.endpoint_disabled"


class EndpointDisabled(BaseModel):
    subscription_id: str
    reason: str
    failing_since: str
    disabled_at: str


register_event_type(
    DISABLED_TYPE,
    "events",
    "a webhook endpoint was disabled because every delivery to it failed for the tenant's set time",
    EndpointDisabled,
)

_OK = and_(
    DeliveryAttempt.error_class.is_(None),
    DeliveryAttempt.status_code >= 200,
    DeliveryAttempt.status_code < 300,
)


@dataclass(frozen=True)
class _Failing:
    sub_id: str
    tenant_id: str
    since: datetime


def _failing_since(s: Any, sub_id: str, start: datetime) -> datetime | None:
    """The first failed attempt after the last success (or ``start``), when none succeeded since."""

    def first_or_last(agg: Any, *where: Any) -> datetime | None:
        q = (
            select(agg(DeliveryAttempt.attempted_at))
            .join(Delivery, Delivery.id == DeliveryAttempt.delivery_id)
            .where(Delivery.subscription_id == sub_id, *where)
        )
        return cast("datetime | None", s.scalar(q))

    last_ok = first_or_last(func.max, DeliveryAttempt.attempted_at >= start, _OK)
    after = DeliveryAttempt.attempted_at > last_ok if last_ok is not None else DeliveryAttempt.attempted_at >= start
    return first_or_last(func.min, after, ~_OK)


def failing_endpoints(rt: Runtime, now: datetime) -> list[_Failing]:
    """Active subscriptions past their tenant's window of failures."""
    out: list[_Failing] = []
    with rt.db.reading(None) as s:
        subs = s.execute(
            select(Subscription.id, Subscription.tenant_id, Subscription.enabled_at, Subscription.created_at).where(
                Subscription.active.is_(True)
            )
        ).all()
        windows: dict[str, timedelta] = {}
        for sub_id, tenant_id, enabled_at, created_at in subs:
            if tenant_id not in windows:
                days = _settings_of(s.get(Tenant, tenant_id)).endpoint_disable_days
                windows[tenant_id] = timedelta(days=days)
            first = _failing_since(s, sub_id, enabled_at or created_at)
            if first is not None and first <= now - windows[tenant_id]:
                out.append(_Failing(sub_id, tenant_id, first))
    return out


def _owner_emails(s: Any, created_by: str | None) -> list[str]:
    """Whom to tell: the person who made the subscription, else the tenant's owners."""
    if created_by:
        email = s.scalar(select(User.email).where(User.id == created_by, User.disabled.is_(False)))
        member = s.scalar(select(Membership.id).where(Membership.user_id == created_by))
        if email and member:
            return [email]
    return list(
        s.scalars(
            select(User.email)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.role == "owner", User.disabled.is_(False))
            .order_by(User.email)
        )
    )


def _where(url: str) -> str:
    # The address without its query: a token in a webhook URL never goes into a mail.
    u = urlsplit(url)
    return f"{u.scheme}://{u.netloc}{u.path}"


def disable(ctx: Ctx, sub_id: str, since: datetime) -> bool:
    """Disable one failing endpoint (once, whichever process gets there first)."""
    now = ctx.now()
    days = (now - since).days
    reason = f"every delivery failed since {iso(since)} ({days} days)"
    with ctx.write() as s:
        won = cast(
            "CursorResult[Any]",
            s.execute(
                update(Subscription)
                .where(Subscription.id == sub_id, Subscription.active.is_(True))
                .values(active=False, disabled_at=now, disabled_reason=reason, updated_at=now)
                .execution_options(synchronize_session=False)
            ),
        ).rowcount
        if won != 1:
            return False
        s.execute(
            update(Delivery)
            .where(Delivery.subscription_id == sub_id, Delivery.status == states.PENDING)
            .values(status=states.CANCELLED, completed_at=now, next_attempt_at=None)
            .execution_options(synchronize_session=False)
        )
        url, created_by = s.execute(
            select(Subscription.webhook_url, Subscription.created_by).where(Subscription.id == sub_id)
        ).one()
        data = {"subscription_id": sub_id, "reason": reason, "failing_since": iso(since), "disabled_at": iso(now)}
        emit(ctx, DISABLED_TYPE, data, source="events")
        for to in _owner_emails(s, created_by):
            text = (
                f"The webhook endpoint {_where(url)} (subscription {sub_id}) was disabled: {reason}.\n\n"
                "No more events are sent to it. Fix the endpoint, then activate the subscription again "
                f"(POST /{ctx.tenant.slug if ctx.tenant else ''}/events/api/subscriptions/{sub_id}/activate "
                "or the admin workspace)."
            )
            send_after_commit(ctx, Mail(to=to, subject="Webhook endpoint disabled", text=text))
    return True


@periodic("events.endpoint_health", every=timedelta(hours=1), lease=timedelta(minutes=10))
def endpoint_health(rt: Runtime) -> dict[str, Any]:
    """Disable every endpoint past its tenant's window of failures; the number disabled."""
    now = rt.clock.now()
    disabled = 0
    infos: dict[str, Any] = {}
    for f in failing_endpoints(rt, now):
        if f.tenant_id not in infos:
            with rt.db.reading(None) as s:
                t = s.get(Tenant, f.tenant_id)
                infos[f.tenant_id] = auth.tenant_info(t) if t is not None else None
        info = infos[f.tenant_id]
        if info is None:
            continue
        ctx = Ctx(rt, info, SYSTEM)
        ctx.operation = ("events.endpoint_health", "events.subscription")
        try:
            disabled += disable(ctx, f.sub_id, f.since)
        except Exception:  # noqa: BLE001 - one endpoint's failure leaves the others checked
            log.exception("disabling a failing webhook endpoint failed")
    return {"disabled": disabled}
