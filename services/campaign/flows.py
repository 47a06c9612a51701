"""Campaign: flows."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignFlow,
    CampaignFlowRun,
)
from services.campaign import schemas as sc
from services.campaign.flowsteps import check_steps
from services.campaign.lookups import _check_lists, _get
from services.campaign.states import (
    FLOW,
    FLOW_TARGETS,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import STAFF

record_kind("campaign.flow", get="campaign.flows.get", label="name")


def _check_flow(s: Session, trigger: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    if set(trigger) not in ({"event_type"}, {"list_id"}):
        raise ValidationFailed("trigger is {event_type} or {list_id}", {"field": "trigger"})
    if "list_id" in trigger:
        _check_lists(s, [str(trigger["list_id"])])
    elif not isinstance(trigger["event_type"], str) or not trigger["event_type"]:
        raise ValidationFailed("trigger.event_type is an event type", {"field": "trigger.event_type"})
    check_steps(s, steps)


def _flow_out(s: Session, f: CampaignFlow) -> sc.FlowOut:
    counts = dict(
        s.execute(
            select(CampaignFlowRun.status, func.count())
            .where(CampaignFlowRun.flow_id == f.id)
            .group_by(CampaignFlowRun.status)
        ).all()
    )
    return sc.FlowOut(
        id=f.id,
        name=f.name,
        trigger=f.trigger,
        steps=f.steps,
        status=f.status,  # type: ignore[arg-type]
        enrolled=sum(int(v) for v in counts.values()),
        completed=int(counts.get("done", 0)),
        created_at=f.created_at,
        updated_at=f.updated_at,
    )


@use_case("campaign.flows.list", "GET /flows", tx="read", roles=STAFF, record="campaign.flow")
def list_flows(ctx: Ctx, query: ListQuery) -> Page[sc.FlowOut]:
    stmt = select(CampaignFlow)
    if query.search:
        stmt = stmt.where(contains(CampaignFlow.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CampaignFlow.created_at, "name": CampaignFlow.name})
        return page.map(lambda f: _flow_out(s, f))


@use_case("campaign.flows.get", "GET /flows/{id}", tx="read", roles=STAFF, record="campaign.flow")
def get_flow(ctx: Ctx, id: str) -> sc.FlowOut:
    with ctx.read() as s:
        return _flow_out(s, _get(s, CampaignFlow, id, "flow"))


@use_case(
    "campaign.flows.create",
    "POST /flows",
    tx="write",
    roles=STAFF,
    status=201,
    says="New flow",
    record="campaign.flow",
    summary="an automation: trigger {event_type|list_id}, steps [{wait: ISO 8601} | {send_template_id} | {if, then, else}]",
)
def create_flow(ctx: Ctx, body: sc.FlowIn) -> sc.FlowOut:
    now = ctx.now()
    with ctx.write() as s:
        _check_flow(s, body.trigger, body.steps)
        f = CampaignFlow(
            name=body.name, trigger=body.trigger, steps=body.steps, status=body.status, created_at=now, updated_at=now
        )
        s.add(f)
        s.flush()
        return _flow_out(s, f)


@use_case("campaign.flows.update", "PUT /flows/{id}", tx="write", roles=STAFF, says="Edit flow", record="campaign.flow")
def update_flow(ctx: Ctx, id: str, body: sc.FlowUpdate) -> sc.FlowOut:
    with ctx.write() as s:
        f = _get(s, CampaignFlow, id, "flow")
        trigger = body.trigger if body.trigger is not None else f.trigger
        steps = body.steps if body.steps is not None else f.steps
        _check_flow(s, trigger, steps)
        if body.name is not None:
            f.name = body.name
        f.trigger, f.steps = trigger, steps
        if body.status is not None and body.status != f.status:
            f.status = FLOW.check(f.status, FLOW_TARGETS[body.status])
            if f.status == "live":
                f.cursor_at = ctx.now()  # events from now on enroll
        f.updated_at = ctx.now()
        s.flush()
        return _flow_out(s, f)
