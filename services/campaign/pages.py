"""The subscriber's pages: the subscribe form of a public list and its double opt-in.

``/p/subscribe/{list_id}`` takes an address and the visitor's consent and stores the contact as
``pending`` (a new address) with the list waiting in its consent record; nothing is sent to it
until the confirmation link is used. The mail links to ``/p/confirm/{token}``, a page whose
button (a POST) confirms: mail scanners follow links, so a GET must change nothing. The consent
kept on the contact (GDPR Art. 7(1): consent must be provable) is
``{at, source, ip, confirmed_at}``.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from local_db.models.campaign import Campaign, CampaignContact, CampaignEmailTemplate, CampaignList
from services.campaign import tokens
from services.campaign.flowsteps import enroll
from services.campaign.lookups import _require_module, _unsubscribed
from services.campaign.public import _mask, _message, unsubscribe_by
from services.campaign.schemas import EMAIL
from services.campaign.sending import Composer
from services.core.commands import execute
from services.core.errors import NotFound
from services.core.links import public_url
from services.core.mail import Mail, send_after_commit
from services.core.pages import Page, PageCall, RawHtml, page

_EMAIL = re.compile(EMAIL)
CONFIRM = "confirm"
PREFERENCES = "preferences"


def preferences_url(rt: Any, slug: str, contact_id: str) -> str:
    """The contact's preference centre: lists to keep or leave, unsubscribe from all."""
    return f"{public_url(rt)}/{slug}/campaign/p/preferences/{tokens.make(rt, PREFERENCES, contact_id)}"


def confirm_url(call: PageCall, contact_id: str) -> str:
    token = tokens.make(call.runtime, CONFIRM, contact_id)
    return f"{public_url(call.runtime)}/{call.tenant.slug}/campaign/p/confirm/{token}"


def _public_list(s: Any, list_id: str) -> CampaignList:
    lst = s.get(CampaignList, list_id[:36])
    if lst is None or not lst.public:
        raise NotFound("list not found")  # a private list is not offered: it looks unknown
    return lst


@page("campaign.subscribe", "/subscribe/{list_id}", methods=("GET", "POST"), limit="public_events")
def subscribe(call: PageCall, list_id: str) -> Page:
    ctx = call.ctx()
    _require_module(ctx)
    with ctx.read() as s:
        lst = _public_list(s, list_id)
        name_of_list, description = lst.name, lst.description
    values = {"email": call.form.get("email", "").strip(), "name": call.form.get("name", "").strip()}
    view = {"list_name": name_of_list, "description": description, "values": values}
    title = call.gettext("Subscribe")
    if call.method == "GET":
        return Page("campaign/subscribe.html", {**view, "errors": {}}, title=title)
    errors: dict[str, str] = {}
    if len(values["email"]) > 320 or not _EMAIL.match(values["email"]):
        errors["email"] = call.gettext("Please enter a valid e-mail address.")
    if len(values["name"]) > 200:
        errors["name"] = call.gettext("At most 200 characters, please.")
    if call.form.get("consent") != "yes":
        errors["consent"] = call.gettext("Please agree to receive these messages.")
    if errors:
        return Page("campaign/subscribe.html", {**view, "errors": errors}, status=400, title=title)
    now = ctx.now()
    consent = {
        "at": now.isoformat(),
        "source": f"subscribe form: {name_of_list}"[:200],
        "ip": call.ip,
        "confirmed_at": None,
        "pending_list_ids": [list_id],
    }
    with ctx.write() as s:
        key = values["email"].lower()
        c = s.scalar(select(CampaignContact).where(CampaignContact.email_key == key))
        if c is None:
            c = CampaignContact(
                tenant_id=ctx.tenant_id,
                email=values["email"],
                email_key=key,
                name=values["name"],
                status="pending",
                consent=consent,
                list_ids=[],
                created_at=now,
                updated_at=now,
            )
            s.add(c)
            s.flush()
        elif c.status in ("bounced", "blocked") or (c.status == "active" and list_id in (c.list_ids or [])):
            # Nothing to ask: the same answer as a new address (the page tells no one who is subscribed).
            c = None
        else:
            pending = list(dict.fromkeys([*((c.consent or {}).get("pending_list_ids") or []), list_id]))
            c.consent = {**consent, "pending_list_ids": pending}
            if c.status == "unsubscribed":
                c.status = "pending"  # opting in again: confirmed like a new address
            c.updated_at = now
        if c is not None:
            link = confirm_url(call, c.id)
            text = (
                f"Please confirm your subscription to {name_of_list}:\n\n{link}\n\n"
                "If you did not ask for it, ignore this message: nothing will be sent to you."
            )
            send_after_commit(
                ctx, Mail(to=c.email, subject=f"Confirm your subscription: {name_of_list}", text=text, private=True)
            )
    return Page("campaign/check_inbox.html", {"list_name": name_of_list}, title=call.gettext("Check your inbox"))


@page("campaign.confirm", "/confirm/{token}", methods=("GET", "POST"), limit="public_events")
def confirm(call: PageCall, token: str) -> Page:
    ctx = call.ctx()
    _require_module(ctx)
    contact_id = tokens.read(call.runtime, CONFIRM, token)
    title = call.gettext("Confirm your subscription")
    with ctx.write() if call.method == "POST" else ctx.read() as s:
        c = s.get(CampaignContact, contact_id) if contact_id else None
        if c is None:
            raise NotFound("link not found")
        consent = dict(c.consent or {})
        pending = [i for i in consent.get("pending_list_ids") or [] if s.get(CampaignList, i) is not None]
        names = [s.get(CampaignList, i).name for i in pending]  # type: ignore[union-attr]
        if not pending:
            return Page("campaign/confirmed.html", {"names": [], "already": True}, title=title)
        if call.method == "GET":
            return Page("campaign/confirm.html", {"names": names}, title=title)
        now = ctx.now()
        c.list_ids = list(dict.fromkeys([*(c.list_ids or []), *pending]))
        consent.pop("pending_list_ids", None)
        consent["confirmed_at"] = now.isoformat()
        c.consent = consent
        c.status, c.updated_at = "active", now
        s.flush()
        enroll(ctx, s, [c.id], list_ids=pending)  # flows triggered by joining these lists start now
    prefs = preferences_url(call.runtime, call.tenant.slug, c.id)
    return Page("campaign/confirmed.html", {"names": names, "already": False, "preferences": prefs}, title=title)


@page("campaign.preferences", "/preferences/{token}", methods=("GET", "POST"), limit="public_events")
def preferences(call: PageCall, token: str) -> Page:
    """The lists the contact is on and the public ones it may join, to keep or leave; or
    unsubscribe from all. Leaving every list keeps the contact; "unsubscribe from all" suppresses it."""
    ctx = call.ctx()
    _require_module(ctx)
    contact_id = tokens.read(call.runtime, PREFERENCES, token)
    title = call.gettext("Your subscriptions")
    with ctx.write() if call.method == "POST" else ctx.read() as s:
        c = s.get(CampaignContact, contact_id) if contact_id else None
        if c is None:
            raise NotFound("link not found")
        mine = set(c.list_ids or [])
        offered = [
            lst for lst in s.scalars(select(CampaignList).order_by(CampaignList.name)) if lst.public or lst.id in mine
        ]
        notice = ""
        if call.method == "POST":
            now = ctx.now()
            if call.form.get("action") == "unsubscribe_all":
                if c.status != "unsubscribed":
                    was = c.status
                    c.status = "unsubscribed"
                    if was == "active":
                        _unsubscribed(ctx, c, "preferences")
                notice = call.gettext("You are unsubscribed from all messages.")
            else:
                # One checkbox per list (``list-<id>``): the form is one value per name.
                wanted = {lst.id for lst in offered if call.form.get(f"list-{lst.id}") == "yes"}
                joined = wanted - mine
                c.list_ids = [lst.id for lst in offered if lst.id in wanted] + [
                    i for i in (c.list_ids or []) if i not in {lst.id for lst in offered}
                ]
                if joined and c.status == "active":
                    enroll(ctx, s, [c.id], list_ids=joined)
                notice = call.gettext("Your choices are saved.")
            c.updated_at = now
            s.flush()
            mine = set(c.list_ids or [])
        lists = [{"id": lst.id, "name": lst.name, "on": lst.id in mine} for lst in offered]
        view = {"lists": lists, "email": _mask(c.email), "unsubscribed": c.status == "unsubscribed", "notice": notice}
    return Page("campaign/preferences.html", view, title=title)


@page("campaign.unsubscribe", "/unsubscribe/{token}", methods=("GET", "POST"), limit="public_events")
def unsubscribe(call: PageCall, token: str) -> Page:
    """The unsubscribe page (moved here from ``/api/p/unsubscribe``, which keeps working for links
    already sent and for one-click POSTs): a GET shows a button, the POST unsubscribes."""
    ctx = call.ctx()
    _require_module(ctx)
    title = call.gettext("Unsubscribe")
    if call.method == "POST":
        out = unsubscribe_by(ctx, token)
        return Page("campaign/unsubscribed.html", {"email": out.email}, title=title)
    with ctx.read() as s:
        m = _message(s, ctx, "unsubscribe", token)
        c = s.get(CampaignContact, m.contact_id)
        if c is None:
            raise NotFound("link not found")
        return Page("campaign/unsubscribe.html", {"email": _mask(c.email)}, title=title)


@page("campaign.survey", "/survey/{survey_id}", methods=("GET", "POST"), limit="public_events")
def survey(call: PageCall, survey_id: str) -> Page:
    """An open survey as a form; its answers go through the API's own use case (same checks)."""
    ctx = call.ctx()
    _require_module(ctx)
    out = execute(ctx, "campaign.public.survey", id=survey_id[:36])
    view: dict[str, Any] = {"survey": {"name": out.name, "questions": out.questions}, "values": call.form}
    title = out.name
    if call.method == "GET":
        return Page("campaign/survey.html", {**view, "errors": {}}, title=title)
    errors: dict[str, str] = {}
    answers: dict[str, Any] = {}
    for q in out.questions:
        raw = call.form.get(f"q-{q['id']}", "").strip()
        if not raw:
            continue
        if q["type"] == "rating":
            if not raw.isdigit() or not 1 <= int(raw) <= 10:
                errors[f"q-{q['id']}"] = call.gettext("Please choose a number from 1 to 10.")
                continue
            answers[q["id"]] = int(raw)
        elif q["type"] == "choice" and raw not in q.get("options", []):
            errors[f"q-{q['id']}"] = call.gettext("Please choose one of the options.")
        elif len(raw) > 5000:
            errors[f"q-{q['id']}"] = call.gettext("At most 5000 characters, please.")
        else:
            answers[q["id"]] = raw
    if not answers and not errors:
        errors["form"] = call.gettext("Please answer at least one question.")
    if errors:
        return Page("campaign/survey.html", {**view, "errors": errors}, status=400, title=title)
    execute(ctx, "campaign.public.answer", id=out.id, body={"answers": answers})
    return Page("campaign/survey_thanks.html", {"name": out.name}, title=call.gettext("Thank you"))


@page("campaign.view", "/view/{token}", limit="public_events")
def view(call: PageCall, token: str) -> Page | RawHtml:
    """The sent message in the browser: the campaign's template rendered again for its contact,
    with the same links (tracked, unsubscribe, preferences) as the mail. An HTML mail is shown as
    it is, under a policy that lets no script run; a text-only mail on the shared template."""
    ctx = call.ctx()
    _require_module(ctx)
    with ctx.read() as s:
        m = _message(s, ctx, "view", token)
        c = s.get(CampaignContact, m.contact_id)
        camp = s.get(Campaign, m.campaign_id) if m.campaign_id else None
        tpl = s.get(CampaignEmailTemplate, camp.template_id) if camp is not None and camp.template_id else None
        if c is None or tpl is None or m.channel != "email":
            raise NotFound("link not found")
        composer = Composer(ctx, tpl)
        ab = dict(camp.ab_test or {}) if camp is not None else {}
        if ab.get("subjects"):
            # An A/B test: the subject this contact got (its variant's, else the winner's).
            variant = m.variant if m.variant is not None else ab.get("winner")
            if variant is not None and 0 <= int(variant) < len(ab["subjects"]):
                composer.ab(ab["subjects"], {}, int(variant))
        mail = composer.email(c, m.id)
    if mail.html:
        return RawHtml(mail.html)
    return Page("campaign/view.html", {"subject": mail.subject, "text": mail.text}, title=mail.subject)
