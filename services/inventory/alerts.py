"""Inventory alert rules and alerts."""

from __future__ import annotations

from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryAlert,
    InventoryAlertRule,
)
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import get_or_404
from services.core.pagination import Listing, Page, one_of
from services.core.roles import STAFF
from services.inventory import stock as engine
from services.inventory.schemas import (
    AlertAction,
    AlertOut,
    AlertPatch,
    AlertQuery,
    AlertRuleIn,
    AlertRuleOut,
)
from services.inventory.states import ALERT

record_kind("inventory.alert", get="inventory.alerts.get", label="sku")
declare_defaults("inventory.alerts", record="inventory.alert")


RULES = Listing(
    InventoryAlertRule,
    filters={
        "sku": InventoryAlertRule.sku,
        "location_id": lambda _n, v: InventoryAlertRule.location_id.in_(engine.within(v, False)),
    },
    sort={"created_at": InventoryAlertRule.created_at, "sku": InventoryAlertRule.sku},
)
ALERTS = Listing(
    InventoryAlert,
    filters={
        "state": one_of(InventoryAlert.state, ALERT.states),
        "sku": InventoryAlert.sku,
        "location_id": lambda _n, v: InventoryAlert.location_id.in_(engine.within(v, False)),
    },
    sort={
        "opened_at": InventoryAlert.opened_at,
        "created_at": InventoryAlert.opened_at,
        "sku": InventoryAlert.sku,
        "state": InventoryAlert.state,
    },
    default_sort="-opened_at",
)


@use_case("inventory.alerts.list", "GET /alerts", tx="read", summary="list alerts (rules=true: the rules)")
def list_alerts(ctx: Ctx, query: AlertQuery, session: Session = SESSION) -> Page[AlertOut | AlertRuleOut]:
    if query.rules:
        return RULES.page(session, query, AlertRuleOut)
    return ALERTS.page(session, query, AlertOut)


def _alert(s: Session, aid: str) -> InventoryAlert:
    return get_or_404(s, InventoryAlert, aid.strip(), what="alert", key="id")


@use_case("inventory.alerts.get", "GET /alerts/{id}", tx="read", summary="read an alert")
def get_alert(ctx: Ctx, id: str, session: Session = SESSION) -> AlertOut:
    return AlertOut.model_validate(_alert(session, id))


@use_case(
    "inventory.alerts.create",
    "POST /alerts",
    tx="write",
    roles=STAFF,
    status=201,
    says="New alert rule",
    summary="create an alert rule",
)
def create_alert_rule(ctx: Ctx, body: AlertRuleIn, session: Session = SESSION) -> AlertRuleOut:
    fields = body.model_dump()
    if body.location_id is not None:
        fields["location_id"] = engine.location(session, body.location_id).id  # a code is kept as its id
    rule = InventoryAlertRule(id=new_id(), origin="rule", created_at=ctx.now(), **fields)
    session.add(rule)
    session.flush()
    # Already below: the alert opens now, not at the next movement.
    engine.evaluate(ctx, session, rule, "below the threshold when the rule was made")
    return AlertRuleOut.model_validate(rule)


def act_on_alert(ctx: Ctx, s: Session, aid: str, action: str) -> AlertOut:
    """Acknowledge or resolve: the state and its timestamp from the alert's table."""
    a = _alert(s, aid)
    ALERT.apply(ctx, a, action)
    s.flush()
    return AlertOut.model_validate(a)


_MOVES = ALERT.moves("acknowledge", "resolve", field="action")


@use_case(
    "inventory.alerts.patch",
    "PATCH /alerts",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    summary="acknowledge or resolve an alert ({id, action})",
    moves=_MOVES,
)
def patch_alerts(ctx: Ctx, body: AlertPatch, session: Session = SESSION) -> AlertOut:
    return act_on_alert(ctx, session, body.id, body.action)


@use_case(
    "inventory.alerts.update",
    "PATCH /alerts/{id}",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    summary="acknowledge or resolve an alert",
    moves=_MOVES,
)
def update_alert(ctx: Ctx, id: str, body: AlertAction, session: Session = SESSION) -> AlertOut:
    return act_on_alert(ctx, session, id, body.action)
