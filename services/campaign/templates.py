"""Campaign: templates."""

from __future__ import annotations

import smtplib
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignContact,
    CampaignEmailTemplate,
    CampaignSmsTemplate,
)
from services.campaign import render
from services.campaign import schemas as sc
from services.campaign.lookups import _get
from services.campaign.sending import Composer
from services.core import mail as core_mail
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ServiceError, ValidationFailed
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
    _check_email(body.subject, body.html, body.text)
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


class MailFailed(ServiceError):
    """The mail server did not take the test message (502: the fault is not the request's)."""

    code = "MAIL_FAILED"
    status = 502


# Who a preview or test is for when no contact is chosen: values every template can print.
SAMPLE = SimpleNamespace(
    id="sample",
    email="alex.example@example.com",
    name="Alex Example",
    phone="+15550100",
    attributes={},
)
PREVIEW_ID = "preview"  # the message id the links of a preview or test are signed for: no message has it


def _contact(s: Session, contact_id: str | None) -> Any:
    return SAMPLE if contact_id is None else _get(s, CampaignContact, contact_id, "contact")


def _render(make: Any) -> Any:
    """Render for one contact; a template that compiles but fails for these values is a 400."""
    try:
        return make()
    except Exception as exc:  # noqa: BLE001 - the sandbox's refusals and jinja2's runtime errors alike
        reason = str(exc)[:300] or type(exc).__name__
        raise ValidationFailed(f"the template fails for this contact: {reason}", {"reason": reason}) from exc


def _check_email(subject: str, html: str, text: str) -> None:
    if not html and not text:
        raise ValidationFailed("a template needs html or text", {"field": "text"})
    render.check(subject, "subject")
    render.check(html, "html", html=True)
    render.check(text, "text")


@use_case(
    "campaign.templates.email.update",
    "PUT /templates/email/{id}",
    tx="write",
    roles=STAFF,
    says="Edit e-mail template",
    record="campaign.email_template",
    summary="edit a template (the fields sent); checked as on create. A running send keeps the version it started with",
)
def update_email_template(ctx: Ctx, id: str, body: sc.EmailTemplateUpdate) -> sc.EmailTemplateOut:
    with ctx.write() as s:
        t = _get(s, CampaignEmailTemplate, id, "template")
        subject = body.subject if body.subject is not None else t.subject
        html = body.html if body.html is not None else t.html
        text = body.text if body.text is not None else t.text
        _check_email(subject, html, text)
        if body.name is not None:
            t.name = body.name
        t.subject, t.html, t.text = subject, html, text
        s.flush()
        return sc.EmailTemplateOut.model_validate(t)


@use_case(
    "campaign.templates.email.preview",
    "GET /templates/email/{id}/preview",
    tx="read",
    roles=STAFF,
    record="campaign.email_template",
    summary="the message as a contact (?contact_id=; none: a sample) would get it, links and unsubscribe included",
)
def preview_email_template(ctx: Ctx, id: str, query: sc.PreviewQuery) -> sc.PreviewOut:
    with ctx.read() as s:
        t = _get(s, CampaignEmailTemplate, id, "template")
        contact = _contact(s, query.contact_id)
        mail = _render(lambda: Composer(ctx, t).email(contact, PREVIEW_ID))
    return sc.PreviewOut(to=mail.to, subject=mail.subject, text=mail.text, html=mail.html)


@use_case(
    "campaign.templates.email.test",
    "POST /templates/email/{id}/test",
    tx="read",
    roles=STAFF,
    says="Send a test",
    record="campaign.email_template",
    summary="send the template, filled for a contact (or a sample), to one address now; recorded nowhere",
)
def send_test_email(ctx: Ctx, id: str, body: sc.TestSendIn) -> sc.TestSendOut:
    with ctx.read() as s:
        t = _get(s, CampaignEmailTemplate, id, "template")
        contact = _contact(s, body.contact_id)
        mail = _render(lambda: Composer(ctx, t).email(contact, PREVIEW_ID))
    # The contact's values, the tester's address; the subject says it is a test.
    mail = core_mail.Mail(
        to=body.email, subject=f"[Test] {mail.subject}", text=mail.text, html=mail.html, headers=mail.headers
    )
    try:
        core_mail.deliver(ctx.runtime, ctx.tenant_id, mail)
    except smtplib.SMTPRecipientsRefused as exc:
        raise ValidationFailed("the mail server refused the address", {"field": "email"}) from exc
    except (smtplib.SMTPException, OSError) as exc:
        raise MailFailed(f"the mail server did not take the test: {type(exc).__name__}") from exc
    return sc.TestSendOut(sent=True, to=body.email, subject=mail.subject)


@use_case(
    "campaign.templates.sms.update",
    "PUT /templates/sms/{id}",
    tx="write",
    roles=STAFF,
    says="Edit SMS template",
    record="campaign.sms_template",
)
def update_sms_template(ctx: Ctx, id: str, body: sc.SmsTemplateUpdate) -> sc.SmsTemplateOut:
    with ctx.write() as s:
        t = _get(s, CampaignSmsTemplate, id, "template")
        if body.body is not None:
            render.check(body.body, "body")
            t.body = body.body
        if body.name is not None:
            t.name = body.name
        s.flush()
        return _sms_out(t)


@use_case(
    "campaign.templates.sms.preview",
    "GET /templates/sms/{id}/preview",
    tx="read",
    roles=STAFF,
    record="campaign.sms_template",
    summary="the SMS as a contact (?contact_id=; none: a sample) would get it, with its segments",
)
def preview_sms_template(ctx: Ctx, id: str, query: sc.PreviewQuery) -> sc.PreviewOut:
    with ctx.read() as s:
        t = _get(s, CampaignSmsTemplate, id, "template")
        contact = _contact(s, query.contact_id)
        text = _render(lambda: render.render(t.body, render.contact_values(contact)))
    return sc.PreviewOut(to=contact.phone or "", subject="", body=text, segments=render.sms_segments(text)[0])
