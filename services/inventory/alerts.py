"""Inventory alert rules and alerts."""

from __future__ import annotations

from sqlalchemy import select

from local_db import new_id
from local_db.models.inventory import (
    InventoryAlert,
    InventoryAlertRule,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.pagination import Page, paginate
from services.core.roles import ANYONE, STAFF
from services.inventory import stock as engine
from services.inventory.filters import _states
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


def _alert_out(a: InventoryAlert) -> AlertOut:
    return AlertOut(
        id=a.id,
        rule_id=a.rule_id,
        sku=a.sku,
        location_id=a.location_id,
        threshold=a.threshold,
        available=a.available,
        state=a.state,
        reason=a.reason,
        opened_at=a.opened_at,  # type: ignore[arg-type]
        acknowledged_at=a.acknowledged_at,
        resolved_at=a.resolved_at,
    )


def _rule_out(r: InventoryAlertRule) -> AlertRuleOut:
    return AlertRuleOut(
        id=r.id, sku=r.sku, location_id=r.location_id, threshold=r.threshold, origin=r.origin, created_at=r.created_at
    )


@use_case(
    "inventory.alerts.list",
    "GET /alerts",
    tx="read",
    roles=ANYONE,
    record="inventory.alert",
    summary="list alerts (rules=true: the rules)",
)
def list_alerts(ctx: Ctx, query: AlertQuery) -> Page[AlertOut | AlertRuleOut]:
    with ctx.read() as s:
        if query.rules:
            rstmt = select(InventoryAlertRule)
            if query.sku:
                rstmt = rstmt.where(InventoryAlertRule.sku == query.sku.strip())
            if query.location_id:
                rstmt = rstmt.where(InventoryAlertRule.location_id == query.location_id)
            rules = paginate(
                s, rstmt, query, columns={"created_at": InventoryAlertRule.created_at, "sku": InventoryAlertRule.sku}
            )
            return rules.map(_rule_out)
        stmt = select(InventoryAlert)
        wanted = _states(query.state, ALERT.states, "state")
        if wanted:
            stmt = stmt.where(InventoryAlert.state.in_(wanted))
        if query.sku:
            stmt = stmt.where(InventoryAlert.sku == query.sku.strip())
        if query.location_id:
            stmt = stmt.where(InventoryAlert.location_id == query.location_id)
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "opened_at": InventoryAlert.opened_at,
                "created_at": InventoryAlert.opened_at,
                "sku": InventoryAlert.sku,
                "state": InventoryAlert.state,
            },
            default_sort="-opened_at",
        )
    return page.map(_alert_out)


@use_case(
    "inventory.alerts.get",
    "GET /alerts/{id}",
    tx="read",
    roles=ANYONE,
    record="inventory.alert",
    summary="read an alert",
)
def get_alert(ctx: Ctx, id: str) -> AlertOut:
    with ctx.read() as s:
        a = s.get(InventoryAlert, id.strip())
        if a is None:
            raise NotFound(f"no alert {id}", {"id": id})
        return _alert_out(a)


@use_case(
    "inventory.alerts.create",
    "POST /alerts",
    tx="write",
    roles=STAFF,
    status=201,
    says="New alert rule",
    record="inventory.alert",
    summary="create an alert rule",
)
def create_alert_rule(ctx: Ctx, body: AlertRuleIn) -> AlertRuleOut:
    with ctx.write() as s:
        if body.location_id is not None:
            engine.location(s, body.location_id)
        rule = InventoryAlertRule(
            id=new_id(),
            sku=body.sku,
            location_id=body.location_id,
            threshold=body.threshold,
            origin="rule",
            created_at=ctx.now(),
        )
        s.add(rule)
        s.flush()
        # Already below: the alert opens now, not at the next movement.
        engine.evaluate(ctx, s, rule, "below the threshold when the rule was made")
        return _rule_out(rule)


def act_on_alert(ctx: Ctx, aid: str, action: str) -> AlertOut:
    with ctx.write() as s:
        a = s.get(InventoryAlert, aid.strip())
        if a is None:
            raise NotFound(f"no alert {aid}", {"id": aid})
        a.state = ALERT.check(a.state, action)
        now = ctx.now()
        if action == "acknowledge":
            a.acknowledged_at = now
        else:
            a.resolved_at = now
        s.flush()
        return _alert_out(a)


@use_case(
    "inventory.alerts.patch",
    "PATCH /alerts",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    record="inventory.alert",
    summary="acknowledge or resolve an alert ({id, action})",
)
def patch_alerts(ctx: Ctx, body: AlertPatch) -> AlertOut:
    return act_on_alert(ctx, body.id, body.action)


@use_case(
    "inventory.alerts.update",
    "PATCH /alerts/{id}",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    record="inventory.alert",
    summary="acknowledge or resolve an alert",
)
def update_alert(ctx: Ctx, id: str, body: AlertAction) -> AlertOut:
    return act_on_alert(ctx, id, body.action)
