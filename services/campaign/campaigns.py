"""Campaign: campaigns."""

from __future__ import annotations

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, object_session

from local_db.models.campaign import (
    Campaign,
    CampaignContact,
    CampaignEmailTemplate,
    CampaignMessage,
    CampaignSegment,
    CampaignSmsTemplate,
)
from services.campaign import abtest
from services.campaign import schemas as sc
from services.campaign.lookups import Counts, _check_lists, _get, message_counts
from services.campaign.sending import start
from services.campaign.states import (
    CAMPAIGN,
    CAMPAIGN_TARGETS,
    EDITABLE,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed, conflict_state
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF

record_kind("campaign.campaign", get="campaign.campaigns.get", label="name")


def campaign_out(c: Campaign, counts: Counts | None = None) -> sc.CampaignOut:
    """The campaign with its figures from the send records (``counts``: read with the page)."""
    if counts is None:
        counts = message_counts(object_session(c), [c.id]).get(c.id, Counts())  # type: ignore[arg-type]
    total = max(c.total, counts.recipients)
    progress = 100 if c.status == "finished" else (int(100 * counts.recipients / total) if total else 0)
    return sc.CampaignOut(
        id=c.id,
        name=c.name,
        channel=c.channel,  # type: ignore[arg-type]
        list_ids=list(c.list_ids or []),
        segment_id=c.segment_id,
        template_id=c.template_id,
        status=c.status,  # type: ignore[arg-type]
        send_at=c.send_at,
        rate=c.rate,
        job_id=c.job_id,
        progress=progress,
        total=total,
        sent=counts.sent,
        recipients=counts.recipients,
        failed=counts.failed,
        bounced=counts.bounced,
        opened=counts.opened,
        clicked=counts.clicked,
        unsubscribed=counts.unsubscribed,
        started_at=c.started_at,
        finished_at=c.finished_at,
        created_at=c.created_at,
        updated_at=c.updated_at,
        ab_test=c.ab_test,
    )


def _check_refs(s: Session, channel: str, template_id: str | None, segment_id: str | None, list_ids: list[str]) -> None:
    if template_id is not None:
        model = CampaignEmailTemplate if channel == "email" else CampaignSmsTemplate
        if s.get(model, template_id) is None:
            raise ValidationFailed(f"no {channel} template {template_id}", {"field": "template_id"})
    if segment_id is not None and s.get(CampaignSegment, segment_id) is None:
        raise ValidationFailed(f"no segment {segment_id}", {"field": "segment_id"})
    _check_lists(s, list_ids)


@use_case("campaign.campaigns.list", "GET /campaigns", tx="read", roles=STAFF, record="campaign.campaign")
def list_campaigns(ctx: Ctx, query: sc.CampaignQuery) -> Page[sc.CampaignOut]:
    stmt = select(Campaign)
    if query.status:
        stmt = stmt.where(Campaign.status == query.status)
    if query.channel:
        stmt = stmt.where(Campaign.channel == query.channel)
    if query.search:
        stmt = stmt.where(contains(Campaign.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"created_at": Campaign.created_at, "name": Campaign.name, "send_at": Campaign.send_at},
        )
        counts = message_counts(s, [c.id for c in page.items])
        return page.map(lambda c: campaign_out(c, counts.get(c.id, Counts())))


@use_case("campaign.campaigns.get", "GET /campaigns/{id}", tx="read", roles=STAFF, record="campaign.campaign")
def get_campaign(ctx: Ctx, id: str) -> sc.CampaignOut:
    with ctx.read() as s:
        return campaign_out(_get(s, Campaign, id, "campaign"))


@use_case(
    "campaign.campaigns.create",
    "POST /campaigns",
    tx="write",
    roles=STAFF,
    status=201,
    says="New campaign",
    record="campaign.campaign",
)
def create_campaign(ctx: Ctx, body: sc.CampaignIn) -> sc.CampaignOut:
    now = ctx.now()
    with ctx.write() as s:
        _check_refs(s, body.channel, body.template_id, body.segment_id, body.list_ids)
        c = Campaign(
            name=body.name,
            channel=body.channel,
            list_ids=list(dict.fromkeys(body.list_ids)),
            segment_id=body.segment_id,
            template_id=body.template_id,
            status="draft",
            send_at=body.send_at,
            rate=body.rate,
            ab_test=abtest.stored(body.ab_test, body.channel),
            created_at=now,
            updated_at=now,
        )
        s.add(c)
        s.flush()
        return campaign_out(c)


@use_case(
    "campaign.campaigns.update",
    "PATCH /campaigns/{id}",
    tx="write",
    roles=STAFF,
    says="Edit campaign",
    record="campaign.campaign",
    summary="edit a draft, scheduled or paused campaign; {status} moves it as the state table allows",
)
def update_campaign(ctx: Ctx, id: str, body: sc.CampaignUpdate) -> sc.CampaignOut:
    fields = body.model_fields_set - {"status"}
    with ctx.write() as s:
        c = _get(s, Campaign, id, "campaign")
        if fields:
            if c.status not in EDITABLE:
                raise conflict_state("campaign", c.status, "edit")
            _check_refs(
                s,
                c.channel,
                body.template_id if "template_id" in fields else None,
                body.segment_id if "segment_id" in fields else None,
                body.list_ids or [],
            )
            if "ab_test" in fields:
                if (c.ab_test or {}).get("test_size") is not None:
                    raise conflict_state("campaign", c.status, "change an A/B test that has started")
                c.ab_test = abtest.stored(body.ab_test, c.channel)
            for f in fields - {"ab_test"}:
                if f == "name" and body.name is None:
                    continue
                setattr(c, f, getattr(body, f) if f != "list_ids" else list(dict.fromkeys(body.list_ids or [])))
        if body.status is not None and body.status != c.status:
            action = CAMPAIGN_TARGETS.get(body.status)
            if action is None:
                raise conflict_state("campaign", c.status, f"move to {body.status}")
            if action == "schedule" and c.send_at is None:
                raise ValidationFailed("scheduling needs send_at", {"field": "send_at"})
            if action == "resume" and c.status == "paused":
                start(ctx, s, c, "resume")
            else:
                c.status = CAMPAIGN.check(c.status, action)
        c.updated_at = ctx.now()
        s.flush()
        return campaign_out(c)


@use_case(
    "campaign.campaigns.send",
    "POST /campaigns/{id}/send",
    tx="write",
    roles=STAFF,
    says="Send campaign",
    record="campaign.campaign",
    summary="{} sends now (a job: status and progress on the campaign), {send_at} schedules",
)
def send_campaign(ctx: Ctx, id: str, body: sc.SendIn) -> sc.CampaignOut:
    with ctx.write() as s:
        c = _get(s, Campaign, id, "campaign")
        if not c.template_id:
            raise ValidationFailed("the campaign has no template", {"field": "template_id"})
        if body.send_at is not None and body.send_at > ctx.now():
            CAMPAIGN.check(c.status, "schedule")
            c.send_at = body.send_at
            c.status = "scheduled"
            c.updated_at = ctx.now()
        else:
            start(ctx, s, c, "resume" if c.status == "paused" else "start")
        s.flush()
        return campaign_out(c)


def _rate(n: int, d: int) -> float:
    return round(n / d, 4) if d else 0.0


@use_case("campaign.campaigns.stats", "GET /campaigns/{id}/stats", tx="read", roles=STAFF, record="campaign.campaign")
def campaign_stats(ctx: Ctx, id: str) -> sc.StatsOut:
    """Counts of the send; opens and clicks are unique per recipient."""
    with ctx.read() as s:
        c = _get(s, Campaign, id, "campaign")
        n = message_counts(s, [c.id]).get(c.id, Counts())
        return sc.StatsOut(
            recipients=n.recipients,
            sent=n.sent,
            failed=n.failed,
            bounced=n.bounced,
            opened=n.opened,
            clicked=n.clicked,
            unsubscribed=n.unsubscribed,
            open_rate=_rate(n.opened, n.sent),
            click_rate=_rate(n.clicked, n.sent),
            variants=abtest.variants(s, c) if c.ab_test else None,
        )


@use_case("campaign.analytics", "GET /analytics", tx="read", roles=STAFF, summary="the tenant's campaign totals")
def overview(ctx: Ctx) -> sc.OverviewOut:
    with ctx.read() as s:
        contacts = dict(s.execute(select(CampaignContact.status, func.count()).group_by(CampaignContact.status)).all())
        campaigns = dict(s.execute(select(Campaign.status, func.count()).group_by(Campaign.status)).all())
        m = CampaignMessage
        sums = s.execute(
            select(
                func.count(),
                func.coalesce(func.sum(case((m.status == "sent", 1), else_=0)), 0),
                func.coalesce(func.sum(case((m.status == "bounced", 1), else_=0)), 0),
                func.count(m.opened_at),
                func.count(m.clicked_at),
                func.count(m.unsubscribed_at),
            ).where(m.campaign_id.is_not(None))
        ).one()
    return sc.OverviewOut(
        contacts={str(k): int(v) for k, v in contacts.items()},
        campaigns={str(k): int(v) for k, v in campaigns.items()},
        recipients=int(sums[0]),
        sent=int(sums[1]),
        bounced=int(sums[2]),
        opened=int(sums[3]),
        clicked=int(sums[4]),
        unsubscribed=int(sums[5]),
    )
