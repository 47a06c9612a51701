"""Campaign use cases through ``execute``: contacts and imports, segments, templates, sends over a
real SMTP server on loopback and a local SMS provider, unsubscribe and tracking, flows, surveys."""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.policy import default as default_policy
from typing import Any

import pytest
from sqlalchemy import select

from local_db.models import Event
from local_db.models.campaign import CampaignContact, CampaignFlowRun
from services.campaign import sending
from services.campaign.sending import CampaignConfig
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.files import Upload
from services.core.jobs import JobWorker
from services.core.mail import MailConfig
from tests.sms_server import SmsServer
from tests.smtp_server import SmtpServer

OWNER = "owner@demo.test"


def ctx_for(rt: Runtime, email_: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email_), tenant))


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as srv:
        yield srv


@pytest.fixture
def rt(runtime: Runtime, smtp: SmtpServer) -> Runtime:
    runtime.clock = FixedClock(datetime.now(UTC).replace(microsecond=0))
    runtime.provide(MailConfig(smtp_url=smtp.url, sender="Shop <news@shop.test>"))
    runtime.provide(CampaignConfig(public_url="https://mail.shop.test"))
    return runtime


def run_jobs(rt: Runtime) -> None:
    worker = JobWorker(rt)
    while worker.run_one():
        pass


def events(rt: Runtime, type_: str) -> list[dict[str, Any]]:
    with rt.db.reading(None) as s:
        return [d for (d,) in s.execute(select(Event.data).where(Event.type == type_).order_by(Event.created_at))]


def parse(msg: dict[str, Any]) -> Any:
    return email.message_from_bytes(msg["data"], policy=default_policy)


def test_contacts_consent_lists_and_import(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    lst = execute(ctx, "campaign.lists.create", body={"name": "Buyers"})
    c = execute(
        ctx,
        "campaign.contacts.create",
        body={
            "email": "Mia@Example.com",
            "name": "Mia",
            "consent": {"source": "signup form", "text": "v3"},
            "list_ids": [lst.id],
        },
    )
    assert c.consent["source"] == "signup form" and c.consent["at"] and c.list_ids == [lst.id]
    with pytest.raises(Conflict):  # e-mail unique per tenant, case-insensitive
        execute(ctx_for(rt), "campaign.contacts.create", body={"email": "mia@example.COM"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(rt), "campaign.contacts.create", body={"email": "not-an-email"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(rt), "campaign.contacts.create", body={"email": "x@y.test", "list_ids": ["nope"]})
    # Another tenant neither sees nor reaches it.
    with pytest.raises(NotFound):
        execute(ctx_for(rt, "owner@other.test", "other"), "campaign.contacts.get", id=c.id)
    with pytest.raises(Forbidden):  # the operator lacks the module
        execute(ctx_for(rt, "operator@demo.test"), "campaign.contacts.list", query={})

    csv_text = (
        "email,name,phone,city\r\n"
        "a1@shop.test,Ann,+15550001,Rome\r\n"
        "broken,Bob,,Oslo\r\n"  # row 2: bad e-mail
        'a3@shop.test,"Cole, Jr.",,"Lyon"\r\n'
        "A1@shop.test,Ann again,,Rome\r\n"  # duplicate in the file: skipped
        "mia@example.com,Mia Rossi,,Milan\r\n"  # existing: updated
        "a6@shop.test,Only two\r\n"  # row 6: field count
    )
    out = execute(
        ctx_for(rt),
        "campaign.contacts.import",
        query={"list_id": lst.id},
        upload=Upload("c.csv", "text/csv", csv_text.encode()),
    )
    assert (out.imported, out.updated, out.skipped) == (2, 1, 1)
    assert [e.row for e in out.errors] == [2, 6] and "email" in out.errors[0].error
    mia = execute(ctx_for(rt), "campaign.contacts.get", id=c.id)
    assert mia.name == "Mia Rossi" and mia.attributes["city"] == "Milan" and mia.consent["source"] == "signup form"
    js = b'[{"email": "j1@shop.test", "name": "Jo", "attributes": {"orders": 3}}, {"email": ""}, 7]'
    out = execute(ctx_for(rt), "campaign.contacts.import", query={}, upload=Upload("c.json", "application/json", js))
    assert out.imported == 1 and [e.row for e in out.errors] == [2, 3]
    with pytest.raises(ValidationFailed):
        execute(ctx_for(rt), "campaign.contacts.import", query={}, upload=Upload("c.csv", "text/csv", b"name\r\nx\r\n"))
    page = execute(ctx_for(rt), "campaign.contacts.list", query={"list_id": lst.id})
    assert page.total == 3
    assert execute(ctx_for(rt), "campaign.lists.get", id=lst.id).contacts == 3


def test_segments_rules_and_templates(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    for bad in (
        {"all": [{"field": "nope", "op": "eq", "value": 1}]},
        {"some": []},
        {"all": [{"field": "name", "op": "zz"}]},
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "campaign.segments.create", body={"name": "x", "rules": bad})
    seg = execute(
        ctx,
        "campaign.segments.create",
        body={
            "name": "Recent buyers in Springfield",
            "rules": {
                "all": [
                    {"field": "attributes.last_order_at", "op": "within_days", "value": 90},
                    {"field": "status", "op": "eq", "value": "active"},
                    {
                        "any": [
                            {"field": "attributes.city", "op": "eq", "value": "springfield"},
                            {"field": "email", "op": "starts_with", "value": "zzz"},
                        ]
                    },
                ]
            },
        },
    )
    assert 0 < seg.contacts < 48
    with pytest.raises(ValidationFailed):  # a template that does not compile
        execute(ctx, "campaign.templates.email.create", body={"name": "x", "subject": "{{ oops", "text": "x"})
    sms = execute(
        ctx, "campaign.templates.sms.create", body={"name": "s", "body": "Hi {{ contact.first_name }}" + "x" * 160}
    )
    assert (sms.segments, sms.encoding) == (2, "gsm7")
    uni = execute(ctx, "campaign.templates.sms.create", body={"name": "u", "body": "Grüße 🎉 " * 9})
    assert uni.encoding == "ucs2" and uni.segments == 2
    # The sandbox refuses internals.
    from services.campaign import render

    with pytest.raises(Exception):  # noqa: B017 - jinja2's SecurityError
        render.render("{{ contact.__class__.__mro__ }}", {"contact": object()})


def test_templates_render_as_the_sandbox_does_and_links_sign_as_before(runtime: Runtime) -> None:
    """Templates that only print values render from their compiled parts: the output must be the
    sandbox's own for every kind of lookup, and anything else must still go to the sandbox."""
    from jinja2.sandbox import SandboxedEnvironment

    from services.campaign import render, tokens
    from services.core.signing import sign

    values: list[dict[str, Any]] = [
        {
            "contact": {
                "name": 'Zoë <b>&"',
                "first_name": "Zoë",
                "email": "z@x.test",
                "phone": None,
                "attributes": {"city": "Rome", "n": 3, "l": [1, "<x>"], "d": {"k": "v&"}, "items": "I"},
            },
            "unsubscribe_url": "https://x.test/u?a=1&b=2",
        },
        {"contact": {"name": None, "first_name": "", "attributes": {}}, "unsubscribe_url": "u"},
        {"contact": "not a dict"},
        {},
    ]
    sources = [
        "Hi {{ contact.first_name }}!\n",
        "{{ contact.name }}|{{ contact['name'] }}|{{ contact.phone }}|{{ unsubscribe_url }}",
        "{{ contact.attributes.city }} {{ contact.attributes.n }} {{ contact.attributes.l }} {{ contact.attributes.d }}",
        "{{ contact.attributes.missing }}.{{ contact.attributes.d.k }}{{ contact.attributes['d']['k'] }}",
        "{{ contact.attributes['items'] }}{{ contact.nope.deeper }}{{ missing }}{{ contact.attributes.city.upper() }}",
        "{{ contact.attributes.l[0] }}{% if contact.name %}named{% endif %}{{ contact.first_name|upper }}",
        "",
    ]
    for html in (False, True):
        env = SandboxedEnvironment(autoescape=html)
        for source in sources:
            for v in values:
                try:
                    want = str(env.from_string(source).render(**v))
                except Exception as exc:  # noqa: BLE001 - the same failure is expected below
                    with pytest.raises(type(exc)):
                        render.render(source, v, html)
                else:
                    assert render.render(source, v, html) == want, (source, v, html)
    assert render.compiled("Hi {{ contact.first_name }}").parts is not None  # the fast form is used
    assert render.compiled("{% if x %}y{% endif %}").parts is None
    # The links' MAC is the platform signer's HMAC-SHA256, first 32 hex, as the public routes check it.
    key = tokens.key(runtime)
    tok = tokens.make(runtime, "click:https://a.test/", "m-1")
    assert tok == "m-1." + sign(key, b"click:https://a.test/:m-1")[len("sha256=") :][:32]
    assert tokens.read(runtime, "click:https://a.test/", tok) == "m-1"
    assert tokens.read(runtime, "click:https://b.test/", tok) is None


def _campaign(ctx: Ctx, **extra: Any) -> Any:
    lst = execute(ctx, "campaign.lists.create", body={"name": "Send list"})
    tpl = execute(
        ctx,
        "campaign.templates.email.create",
        body={
            "name": "Sale",
            "subject": "Hi {{ contact.first_name }}",
            "html": '<p>Hello {{ contact.name }}</p><a href="https://shop.example.com/sale?a=1&amp;b=2">Shop</a>',
            "text": "Hello {{ contact.name }}",
        },
    )
    for i, status in enumerate(["active", "active", "active", "unsubscribed", "bounced", "blocked", "active"]):
        execute(
            ctx_for(ctx.runtime),
            "campaign.contacts.create",
            body={"email": f"r{i}@shop.test", "name": f"Reader {i}", "status": status, "list_ids": [lst.id]},
        )
    return execute(
        ctx_for(ctx.runtime),
        "campaign.campaigns.create",
        body={"name": "Spring", "template_id": tpl.id, "list_ids": [lst.id], **extra},
    )


def test_send_over_smtp_with_unsubscribe_tracking_and_stats(rt: Runtime, smtp: SmtpServer) -> None:
    ctx = ctx_for(rt)
    smtp.reject.add("r6@shop.test")  # a hard bounce
    camp = _campaign(ctx)
    sent = execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    assert sent.status == "running" and sent.job_id
    assert events(rt, "campaign.sent")[-1]["campaign_id"] == camp.id
    run_jobs(rt)
    done = execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id)
    assert done.status == "finished" and done.progress == 100
    assert events(rt, "campaign.completed")[-1]["campaign_id"] == camp.id
    got = sorted(m["rcpt"][0] for m in smtp.messages)
    assert got == ["r0@shop.test", "r1@shop.test", "r2@shop.test"]  # never the suppressed ones
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
    assert (stats.recipients, stats.sent, stats.bounced, stats.opened) == (4, 3, 1, 0)
    with rt.db.reading(None) as s:
        assert s.scalar(select(CampaignContact.status).where(CampaignContact.email_key == "r6@shop.test")) == "bounced"

    msg = parse(smtp.messages[0])
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsub = re.search(r"<(https://mail\.shop\.test/demo/campaign/api/p/unsubscribe/([^>]+))>", msg["List-Unsubscribe"])
    assert unsub
    assert msg["Subject"].startswith("Hi Reader")
    html = msg.get_body(("html",)).get_content()
    opened = re.search(r"/p/o/([^\"]+)\"", html)
    click = re.search(r'/p/c/([^"?]+)\?url=([^"]+)"', html)
    assert opened and click
    # Open, click (unique), the redirect goes only where the token says.
    execute(ctx_for(rt), "campaign.public.open", token=opened.group(1))
    execute(ctx_for(rt), "campaign.public.open", token=opened.group(1))
    from urllib.parse import unquote

    target = unquote(click.group(2))
    assert target == "https://shop.example.com/sale?a=1&b=2"
    r = execute(ctx_for(rt), "campaign.public.click", token=click.group(1), query={"url": target})
    assert r.location == target
    with pytest.raises(NotFound):  # an open redirect it is not
        execute(ctx_for(rt), "campaign.public.click", token=click.group(1), query={"url": "https://evil.test/"})
    with pytest.raises(NotFound):
        execute(ctx_for(rt), "campaign.public.unsubscribe", token=unsub.group(2)[:-2] + "00")
    out = execute(ctx_for(rt), "campaign.public.unsubscribe", token=unsub.group(2))
    assert out.unsubscribed and "***" in out.email
    execute(ctx_for(rt), "campaign.public.unsubscribe", token=unsub.group(2))  # twice: still fine, one event
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
    assert (stats.opened, stats.clicked, stats.unsubscribed) == (1, 1, 1)
    assert len([e for e in events(rt, "contact.unsubscribed") if e["campaign_id"] == camp.id]) == 1
    # A finished campaign cannot be sent again; a new one skips the unsubscribed reader.
    with pytest.raises(Conflict) as wrong:
        execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    assert wrong.value.details["current_state"] == "finished"
    again = execute(
        ctx_for(rt),
        "campaign.campaigns.create",
        body={"name": "Again", "template_id": camp.template_id, "list_ids": camp.list_ids},
    )
    smtp.messages.clear()
    execute(ctx_for(rt), "campaign.campaigns.send", id=again.id, body={})
    run_jobs(rt)
    assert len(smtp.messages) == 2 and execute(ctx_for(rt), "campaign.campaigns.stats", id=again.id).recipients == 2
    overview = execute(ctx_for(rt), "campaign.analytics")
    assert overview.sent >= 5 and overview.contacts["unsubscribed"] >= 2


def test_a_send_over_two_connections_writes_valid_headers_for_non_ascii_names(rt: Runtime, smtp: SmtpServer) -> None:
    """Subjects, names and the sender's name outside ASCII travel as RFC 2047 words; every message
    has its Message-ID, Date and one-click unsubscribe; each recipient gets one message."""
    rt.provide(MailConfig(smtp_url=smtp.url, sender="Café Zoë <news@shop.test>"))
    ctx = ctx_for(rt)
    lst = execute(ctx, "campaign.lists.create", body={"name": "Names"})
    names = ["Zoë Ñandú", "Łukasz Żółw", "José 🎉", "Plain Name", "Åsa Öberg"]
    for i, name in enumerate(names):
        execute(
            ctx_for(rt),
            "campaign.contacts.create",
            body={"email": f"n{i}@shop.test", "name": name, "list_ids": [lst.id]},
        )
    tpl = execute(
        ctx_for(rt),
        "campaign.templates.email.create",
        body={
            "name": "Names",
            "subject": "Grüße, {{ contact.name }}: 20 % für Sie",
            "html": "<p>Hallo {{ contact.first_name }}</p>",
            "text": "Hallo {{ contact.first_name }}",
        },
    )
    camp = execute(
        ctx_for(rt), "campaign.campaigns.create", body={"name": "N", "template_id": tpl.id, "list_ids": [lst.id]}
    )
    execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    run_jobs(rt)
    got = {m["rcpt"][0]: parse(m) for m in smtp.messages}
    assert sorted(got) == [f"n{i}@shop.test" for i in range(len(names))] and len(smtp.messages) == len(names)
    ids = set()
    for i, name in enumerate(names):
        raw = next(m["data"] for m in smtp.messages if m["rcpt"] == [f"n{i}@shop.test"])
        head = raw.split(b"\r\n\r\n", 1)[0]
        assert head.isascii() and all(len(line) <= 998 for line in head.split(b"\r\n"))
        msg = got[f"n{i}@shop.test"]
        assert str(msg["Subject"]) == f"Grüße, {name}: 20 % für Sie"
        assert (
            msg["From"].addresses[0].display_name == "Café Zoë"
            and msg["From"].addresses[0].addr_spec == "news@shop.test"
        )
        assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and msg["List-Unsubscribe"].startswith(
            "<https://"
        )
        assert msg["Date"].datetime is not None and msg["Message-ID"]
        ids.add(str(msg["Message-ID"]))
        assert msg.get_body(("plain",)).get_content().startswith(f"Hallo {name.split(' ')[0]}")
        assert f"Hallo {name.split(' ')[0]}" in msg.get_body(("html",)).get_content()
    assert len(ids) == len(names)
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
    assert (stats.recipients, stats.sent) == (len(names), len(names))


def test_batches_travel_while_the_one_before_is_written_each_recipient_once(
    rt: Runtime, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from local_db.models.campaign import CampaignMessage

    monkeypatch.setattr(sending, "BATCH", 2)  # four batches: three written while the next travels
    smtp.reject.add("r6@shop.test")
    camp = _campaign(ctx_for(rt))
    execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    run_jobs(rt)
    got = sorted(m["rcpt"][0] for m in smtp.messages)
    assert got == ["r0@shop.test", "r1@shop.test", "r2@shop.test"]
    with rt.db.reading(None) as s:
        rows = list(
            s.execute(
                select(CampaignMessage.contact_id, CampaignMessage.status).where(CampaignMessage.campaign_id == camp.id)
            )
        )
    assert (
        len(rows) == 4 and len({c for c, _ in rows}) == 4 and sorted(st for _, st in rows) == ["bounced"] + ["sent"] * 3
    )
    done = execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id)
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
    assert (
        done.status == "finished"
        and done.progress == 100
        and (stats.recipients, stats.sent, stats.bounced) == (4, 3, 1)
    )


def test_campaign_states_schedule_pause_resume_cancel(rt: Runtime, smtp: SmtpServer) -> None:
    ctx = ctx_for(rt)
    camp = _campaign(ctx)
    later = rt.clock.now() + timedelta(hours=2)
    sch = execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={"send_at": later.isoformat()})
    assert sch.status == "scheduled"
    back = execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "draft", "name": "Renamed"})
    assert back.status == "draft" and back.name == "Renamed"
    with pytest.raises(Conflict):  # a draft does not pause
        execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "paused"})
    execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={"send_at": later.isoformat()})
    sending.tick(rt)
    assert execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id).status == "scheduled"  # not yet
    rt.clock.advance(hours=3)  # type: ignore[attr-defined]
    sending.tick(rt)
    assert execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id).status == "running"
    paused = execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "paused"})
    assert paused.status == "paused"
    run_jobs(rt)  # the job sees the pause and stops without sending
    assert smtp.messages == []
    execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "running", "name": "Resumed"})
    with pytest.raises(Conflict):  # a running campaign is not edited
        execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"name": "x"})
    run_jobs(rt)
    assert execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id).status == "finished" and len(smtp.messages) == 4
    c2 = execute(ctx_for(rt), "campaign.campaigns.create", body={"name": "C", "template_id": camp.template_id})
    execute(ctx_for(rt), "campaign.campaigns.send", id=c2.id, body={})
    cancelled = execute(ctx_for(rt), "campaign.campaigns.update", id=c2.id, body={"status": "cancelled"})
    assert cancelled.status == "cancelled"
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "campaign.campaigns.update", id=c2.id, body={"status": "running"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(rt), "campaign.campaigns.create", body={"name": "C", "template_id": "nope"})


def test_sms_campaign_through_a_local_provider(rt: Runtime) -> None:
    with SmsServer() as provider:
        rt.provide(CampaignConfig(public_url="https://mail.shop.test", sms_url=provider.url))
        provider.refuse.add("+15550999")
        ctx = ctx_for(rt)
        lst = execute(ctx, "campaign.lists.create", body={"name": "SMS"})
        for i, phone in enumerate(["+15550001", "+15550999", None]):
            execute(
                ctx_for(rt),
                "campaign.contacts.create",
                body={"email": f"s{i}@shop.test", "name": f"Sam {i}", "phone": phone, "list_ids": [lst.id]},
            )
        tpl = execute(
            ctx_for(rt),
            "campaign.templates.sms.create",
            body={"name": "t", "body": "Hi {{ contact.first_name }}, your order is ready"},
        )
        camp = execute(
            ctx_for(rt),
            "campaign.campaigns.create",
            body={"name": "S", "channel": "sms", "template_id": tpl.id, "list_ids": [lst.id]},
        )
        execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
        run_jobs(rt)
        assert provider.messages == [{"to": "+15550001", "body": "Hi Sam, your order is ready"}]
        stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
        assert (stats.recipients, stats.sent, stats.failed) == (2, 1, 1)


def test_welcome_flow_with_a_wait(rt: Runtime, smtp: SmtpServer) -> None:
    ctx = ctx_for(rt)
    lst = execute(ctx, "campaign.lists.create", body={"name": "New"})
    t1 = execute(
        ctx_for(rt), "campaign.templates.email.create", body={"name": "W1", "subject": "Welcome", "text": "one"}
    )
    t2 = execute(
        ctx_for(rt), "campaign.templates.email.create", body={"name": "W2", "subject": "Day two", "text": "two"}
    )
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(rt),
            "campaign.flows.create",
            body={"name": "x", "trigger": {"list_id": lst.id}, "steps": [{"wait": "2 days"}]},
        )
    flow = execute(
        ctx_for(rt),
        "campaign.flows.create",
        body={
            "name": "Welcome",
            "trigger": {"list_id": lst.id},
            "steps": [{"send_template_id": t1.id}, {"wait": "P2D"}, {"send_template_id": t2.id}],
        },
    )
    execute(ctx_for(rt), "campaign.flows.update", id=flow.id, body={"status": "live"})
    execute(
        ctx_for(rt), "campaign.contacts.create", body={"email": "new@shop.test", "name": "Nia", "list_ids": [lst.id]}
    )
    sending.tick(rt)
    assert [parse(m)["Subject"] for m in smtp.messages if m["rcpt"] == ["new@shop.test"]] == ["Welcome"]
    rt.clock.advance(days=1)  # type: ignore[attr-defined]
    sending.tick(rt)
    assert len([m for m in smtp.messages if m["rcpt"] == ["new@shop.test"]]) == 1  # still waiting
    rt.clock.advance(days=1, minutes=1)  # type: ignore[attr-defined]
    sending.tick(rt)
    subjects = [parse(m)["Subject"] for m in smtp.messages if m["rcpt"] == ["new@shop.test"]]
    assert subjects == ["Welcome", "Day two"]
    got = execute(ctx_for(rt), "campaign.flows.get", id=flow.id)
    assert (got.enrolled, got.completed) == (1, 1)
    # An event trigger: a ticket opened by a contact starts the flow for them.
    ev_flow = execute(
        ctx_for(rt),
        "campaign.flows.create",
        body={
            "name": "After ticket",
            "trigger": {"event_type": "ticket.created"},
            "steps": [{"send_template_id": t1.id}],
        },
    )
    execute(ctx_for(rt), "campaign.flows.update", id=ev_flow.id, body={"status": "live"})
    rt.clock.advance(seconds=5)  # type: ignore[attr-defined]
    c = ctx_for(rt)
    from services.core.events import emit

    with c.write():
        emit(c, "ticket.created", {"ticket_id": "t-1", "email": "NEW@shop.test"})
    sending.tick(rt)
    with rt.db.reading(None) as s:
        assert s.scalar(select(CampaignFlowRun.status).where(CampaignFlowRun.flow_id == ev_flow.id)) == "done"


def test_surveys_answered_while_open(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    q = [
        {"id": "score", "type": "rating", "label": "Score"},
        {"id": "pick", "type": "choice", "label": "Pick", "options": ["a", "b"]},
    ]
    v = execute(ctx, "campaign.surveys.create", body={"name": "NPS", "questions": q})
    with pytest.raises(Conflict):  # a draft takes no answers
        execute(ctx_for(rt), "campaign.public.answer", id=v.id, body={"answers": {"score": 5}})
    execute(ctx_for(rt), "campaign.surveys.update", id=v.id, body={"status": "open"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(rt), "campaign.public.answer", id=v.id, body={"answers": {"pick": "c"}})
    execute(ctx_for(rt), "campaign.public.answer", id=v.id, body={"answers": {"score": 9, "pick": "a"}})
    execute(ctx_for(rt), "campaign.surveys.update", id=v.id, body={"status": "closed"})
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "campaign.public.answer", id=v.id, body={"answers": {"score": 5}})
    page = execute(ctx_for(rt), "campaign.surveys.responses", id=v.id, query={})
    assert page.total == 1 and page.items[0].answers == {"score": 9, "pick": "a"}


def test_demo_has_a_campaign_with_stats(rt: Runtime) -> None:
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=demo_id("campaign", "spring"))
    assert stats.sent > 0 and stats.opened > 0 and stats.bounced > 0


def test_a_station_records_the_send_and_leaves_sending_to_the_platform(station: Runtime) -> None:
    from local_db.models import OutboxEntry
    from local_db.models.jobs import Job

    ctx = ctx_for(station)
    camp = execute(ctx, "campaign.campaigns.get", id=demo_id("campaign", "summer"))
    sent = execute(ctx_for(station), "campaign.campaigns.send", id=camp.id, body={})
    assert sent.status == "running" and sent.job_id is None  # no job here: the platform sends
    with station.db.reading(None) as s:
        ops = [o for (o,) in s.execute(select(OutboxEntry.command))]
        assert "campaign.campaigns.send" in ops
        assert not list(s.execute(select(Job.id).where(Job.kind == "campaign.send")))
