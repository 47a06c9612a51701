"""Analytics alerts: a metric crossing a threshold over a window, checked on the scheduler.

An alert sums its metric over the last ``window_days`` UTC days (today included, from the daily
roll-up) and compares the sum with its threshold (``above``: greater than, ``below``: less than).
The periodic job ``analytics.alerts`` checks every alert each 5 minutes: when one crosses (state
``ok`` -> ``firing``) the event ``analytics.alert_triggered`` is emitted and the recipients are
mailed after the commit; when the sum is back on the right side it returns to ``ok`` silently, and
fires again at the next crossing. The move is a conditional update, so of two processes one acts,
and a process killed before its commit leaves nothing done: a crossing is mailed at most once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from pydantic import BaseModel
from sqlalchemy import exists, func, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from local_db.models.analytics import AnalyticsAlert, MetricDaily, MetricPoint
from services.analytics import schemas as sc
from services.analytics.lookups import _get
from services.core.commands import SESSION, use_case
from services.core.context import Ctx, Runtime
from services.core.errors import ValidationFailed
from services.core.events import EVENT_TYPES, emit, register_event_type
from services.core.mail import Mail, send_after_commit
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.scheduler import each_tenant, periodic

TRIGGERED = "analytics.alert_triggered"
CHECK_EVERY = timedelta(minutes=5)


class AlertTriggered(BaseModel):
    alert_id: str
    name: str
    metric: str
    condition: str
    threshold: float
    window_days: int
    value: float


register_event_type(TRIGGERED, "analytics", "an analytics alert's metric crossed its threshold", AlertTriggered)


def known_metric(s: Session, name: str) -> bool:
    """A metric this tenant has recorded, or a catalogue event's count (``events.<type>``)."""
    if name.startswith("events.") and name.removeprefix("events.") in EVENT_TYPES:
        return True
    return bool(
        s.scalar(select(exists().where(MetricDaily.name == name)))
        or s.scalar(select(exists().where(MetricPoint.name == name)))
    )


def check_metrics(s: Session, names: list[str]) -> None:
    unknown = [n for n in names if not known_metric(s, n)]
    if unknown:
        msg = f"unknown metric {unknown[0]!r}: record it first, or name an events.<type> count"
        raise ValidationFailed(msg, {"fields": [{"field": "metric", "message": msg}]})


def _out(a: AnalyticsAlert) -> sc.AlertOut:
    return sc.AlertOut.model_validate(a, from_attributes=True)


@use_case(
    "analytics.alerts.create",
    "POST /alerts",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New alert",
    summary="an alert {name, metric, condition: above|below, threshold, window_days, recipients}",
)
def create_alert(ctx: Ctx, body: sc.AlertIn, session: Session = SESSION) -> sc.AlertOut:
    check_metrics(session, [body.metric])
    a = AnalyticsAlert(
        name=body.name,
        metric=body.metric,
        condition=body.condition,
        threshold=body.threshold,
        window_days=body.window_days,
        recipients=list(dict.fromkeys(r.lower() for r in body.recipients)),
        state="ok",
        created_at=ctx.now(),
    )
    session.add(a)
    session.flush()
    return _out(a)


@use_case("analytics.alerts.list", "GET /alerts", tx="read", roles=STAFF, summary="the alerts with their state")
def list_alerts(ctx: Ctx, query: ListQuery, session: Session = SESSION) -> Page[sc.AlertOut]:
    stmt = select(AnalyticsAlert)
    if query.search:
        stmt = stmt.where(contains(AnalyticsAlert.name, query.search))
    page = paginate(session, stmt, query, columns={"created_at": AnalyticsAlert.created_at})
    return page.map(_out)


@use_case("analytics.alerts.get", "GET /alerts/{id}", tx="read", roles=STAFF, summary="one alert")
def get_alert(ctx: Ctx, id: str, session: Session = SESSION) -> sc.AlertOut:
    return _out(_get(session, AnalyticsAlert, id, "alert"))


@use_case("analytics.alerts.delete", "DELETE /alerts/{id}", tx="write", roles=MANAGERS, says="Delete alert")
def delete_alert(ctx: Ctx, id: str, session: Session = SESSION) -> None:
    session.delete(_get(session, AnalyticsAlert, id, "alert"))


def window_sum(s: Session, metric: str, days: int, now: datetime) -> float:
    today = now.date()
    total = s.scalar(
        select(func.sum(MetricDaily.value)).where(
            MetricDaily.name == metric, MetricDaily.day > today - timedelta(days=days), MetricDaily.day <= today
        )
    )
    return round(float(total or 0.0), 6)


def _crossed(a: AnalyticsAlert, value: float) -> bool:
    return value > a.threshold if a.condition == "above" else value < a.threshold


def check_tenant(ctx: Ctx) -> int:
    """Check this tenant's alerts; the number that fired now."""
    now, fired = ctx.now(), 0
    with ctx.read() as s:
        ids = list(s.scalars(select(AnalyticsAlert.id)))
    for alert_id in ids:
        with ctx.write() as s:
            a = s.get(AnalyticsAlert, alert_id)
            if a is None:
                continue
            value = window_sum(s, a.metric, a.window_days, now)
            crossed = _crossed(a, value)
            goes = "firing" if crossed else "ok"
            values: dict[str, Any] = {"state": goes, "last_value": value, "last_checked_at": now}
            if crossed and a.state == "ok":
                values["fired_at"] = now
            # Conditional on the state read: of two processes checking at once, one moves it.
            won = cast(
                "CursorResult[Any]",
                s.execute(
                    update(AnalyticsAlert)
                    .where(AnalyticsAlert.id == alert_id, AnalyticsAlert.state == a.state)
                    .values(**values)
                    .execution_options(synchronize_session=False)
                ),
            ).rowcount
            if won != 1 or not (crossed and a.state == "ok"):
                continue
            fired += 1
            data = {
                "alert_id": a.id,
                "name": a.name,
                "metric": a.metric,
                "condition": a.condition,
                "threshold": a.threshold,
                "window_days": a.window_days,
                "value": value,
            }
            emit(ctx, TRIGGERED, data, source="analytics")
            text = (
                f"The alert {a.name!r} fired: {a.metric} summed over the last {a.window_days} days is {value:g}, "
                f"{a.condition} its threshold {a.threshold:g} (checked {now:%Y-%m-%d %H:%M} UTC)."
            )
            for to in a.recipients:
                send_after_commit(ctx, Mail(to=to, subject=f"Alert: {a.name}", text=text))
    return fired


@periodic("analytics.alerts", every=CHECK_EVERY, lease=timedelta(minutes=10))
def check_all(rt: Runtime) -> dict[str, Any]:
    """Every tenant with alerts, one tenant's failure leaving the others checked."""
    with_alerts = select(AnalyticsAlert.tenant_id).distinct()
    done = each_tenant(rt, check_tenant, among=with_alerts, operation=("analytics.alerts.check", "analytics.alert"))
    return {"fired": sum(done.values())}
