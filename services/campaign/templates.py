"""Campaign: templates."""

from __future__ import annotations

from sqlalchemy import select

from local_db.models.campaign import (
    CampaignEmailTemplate,
    CampaignSmsTemplate,
)
from services.campaign import render
from services.campaign import schemas as sc
from services.campaign.lookups import _get
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import STAFF

record_kind("campaign.email_template", get="campaign.templates.email.get", label="name")


record_kind("campaign.sms_template", get="campaign.templates.sms.get", label="name")


def _sms_out(t: CampaignSmsTemplate) -> sc.SmsTemplateOut:
    n, enc, chars = render.sms_segments(t.body)
    return sc.SmsTemplateOut(
        id=t.id,
        name=t.name,
        body=t.body,
        segments=n,
        encoding=enc,
        characters=chars,
        created_at=t.created_at,  # type: ignore[arg-type]
    )


@use_case(
    "campaign.templates.email.list", "GET /templates/email", tx="read", roles=STAFF, record="campaign.email_template"
)
def list_email_templates(ctx: Ctx, query: ListQuery) -> Page[sc.EmailTemplateOut]:
    stmt = select(CampaignEmailTemplate)
    if query.search:
        stmt = stmt.where(contains(CampaignEmailTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": CampaignEmailTemplate.created_at, "name": CampaignEmailTemplate.name}
        )
        return page.map(sc.EmailTemplateOut.model_validate)


@use_case(
    "campaign.templates.email.get",
    "GET /templates/email/{id}",
    tx="read",
    roles=STAFF,
    record="campaign.email_template",
)
def get_email_template(ctx: Ctx, id: str) -> sc.EmailTemplateOut:
    with ctx.read() as s:
        return sc.EmailTemplateOut.model_validate(_get(s, CampaignEmailTemplate, id, "template"))


@use_case(
    "campaign.templates.email.create",
    "POST /templates/email",
    tx="write",
    roles=STAFF,
    status=201,
    says="New e-mail template",
    record="campaign.email_template",
    summary="an e-mail template ({{ contact.name }}, {{ unsubscribe_url }}), rendered in a sandbox",
)
def create_email_template(ctx: Ctx, body: sc.EmailTemplateIn) -> sc.EmailTemplateOut:
    if not body.html and not body.text:
        raise ValidationFailed("a template needs html or text", {"field": "text"})
    render.check(body.subject, "subject")
    render.check(body.html, "html", html=True)
    render.check(body.text, "text")
    with ctx.write() as s:
        t = CampaignEmailTemplate(
            name=body.name, subject=body.subject, html=body.html, text=body.text, created_at=ctx.now()
        )
        s.add(t)
        s.flush()
        return sc.EmailTemplateOut.model_validate(t)


@use_case("campaign.templates.sms.list", "GET /templates/sms", tx="read", roles=STAFF, record="campaign.sms_template")
def list_sms_templates(ctx: Ctx, query: ListQuery) -> Page[sc.SmsTemplateOut]:
    stmt = select(CampaignSmsTemplate)
    if query.search:
        stmt = stmt.where(contains(CampaignSmsTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": CampaignSmsTemplate.created_at, "name": CampaignSmsTemplate.name}
        )
        return page.map(_sms_out)


@use_case(
    "campaign.templates.sms.get", "GET /templates/sms/{id}", tx="read", roles=STAFF, record="campaign.sms_template"
)
def get_sms_template(ctx: Ctx, id: str) -> sc.SmsTemplateOut:
    with ctx.read() as s:
        return _sms_out(_get(s, CampaignSmsTemplate, id, "template"))


@use_case(
    "campaign.templates.sms.create",
    "POST /templates/sms",
    tx="write",
    roles=STAFF,
    status=201,
    says="New SMS template",
    record="campaign.sms_template",
    summary="an SMS template; answers its segments and encoding (GSM-7 160/153, UCS-2 70/67)",
)
def create_sms_template(ctx: Ctx, body: sc.SmsTemplateIn) -> sc.SmsTemplateOut:
    render.check(body.body, "body")
    with ctx.write() as s:
        t = CampaignSmsTemplate(name=body.name, body=body.body, created_at=ctx.now())
        s.add(t)
        s.flush()
        return _sms_out(t)
