"""Issue 35 part 4: A/B subject tests. A share of the list gets each subject; after the set time
the scheduler's delayed job picks the winner by opens (or clicks) and the rest get its subject.
Mail goes through a real SMTP server on loopback; the decision runs on the real scheduler."""

from __future__ import annotations

import email
import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from email.policy import default as default_policy
from typing import Any

import pytest
from sqlalchemy import select

from local_db.models import Event
from services.campaign.sending import CampaignConfig
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, ValidationFailed
from services.core.files import Upload
from services.core.jobs import JobWorker
from services.core.mail import MailConfig
from services.core.scheduler import Scheduler
from tests.smtp_server import SmtpServer

N = 60


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


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


def subject(m: dict[str, Any]) -> str:
    return str(email.message_from_bytes(m["data"], policy=default_policy)["Subject"])


def open_token(m: dict[str, Any]) -> str:
    html = email.message_from_bytes(m["data"], policy=default_policy).get_body(("html",)).get_content()
    found = re.search(r"/p/o/([^\"]+)\"", html)
    assert found
    return found.group(1)


def _setup(rt: Runtime, **ab: Any) -> Any:
    lst = execute(ctx_for(rt), "campaign.lists.create", body={"name": "AB"})
    rows = [{"email": f"ab{i}@shop.test", "name": f"Reader {i}"} for i in range(N)]
    execute(
        ctx_for(rt),
        "campaign.contacts.import",
        query={"list_id": lst.id},
        upload=Upload("c.json", "application/json", json.dumps(rows).encode()),
    )
    tpl = execute(
        ctx_for(rt),
        "campaign.templates.email.create",
        body={"name": "AB", "subject": "unused", "html": "<p>Hi {{ contact.name }}</p>"},
    )
    test = {"subjects": ["Sale for {{ contact.first_name }}", "Last chance"], "share": 0.5, "wait": "PT2H", **ab}
    return execute(
        ctx_for(rt),
        "campaign.campaigns.create",
        body={"name": "AB", "template_id": tpl.id, "list_ids": [lst.id], "ab_test": test},
    )


def test_the_share_gets_each_subject_and_the_winner_by_opens_goes_to_the_rest(rt: Runtime, smtp: SmtpServer) -> None:
    camp = _setup(rt)
    execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    run_jobs(rt)
    assert len(smtp.messages) == N // 2  # the test share only
    by_subject = Counter("Last" if subject(m) == "Last chance" else "Sale" for m in smtp.messages)
    assert by_subject == {"Sale": N // 4, "Last": N // 4}
    waiting = execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id)
    assert waiting.status == "running" and waiting.ab_test["decide_at"] and waiting.ab_test["winner"] is None
    with pytest.raises(Conflict):  # a started test is not changed
        execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"ab_test": None})
    # Readers open "Last chance" more often (twice, counted once per message).
    last = [m for m in smtp.messages if subject(m) == "Last chance"]
    sale = [m for m in smtp.messages if subject(m) != "Last chance"]
    for m in last[:6] + sale[:2] + last[:1]:
        execute(ctx_for(rt), "campaign.public.open", token=open_token(m))
    sched = Scheduler(rt, owner="test")
    assert sched.run_due() == 0  # not yet: the wait is two hours
    run_jobs(rt)
    assert len(smtp.messages) == N // 2
    rt.clock.advance(hours=2, minutes=1)  # type: ignore[attr-defined]
    assert sched.run_due() == 1
    run_jobs(rt)
    rest = smtp.messages[N // 2 :]
    assert len(rest) == N - N // 2 and {subject(m) for m in rest} == {"Last chance"}
    rcpts = [m["rcpt"][0] for m in smtp.messages]
    assert len(set(rcpts)) == N  # each reader once
    done = execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id)
    assert done.status == "finished" and done.ab_test["winner"] == 1 and done.sent == N
    stats = execute(ctx_for(rt), "campaign.campaigns.stats", id=camp.id)
    assert stats.variants is not None
    assert [(v["sent"], v["opened"], v["winner"]) for v in stats.variants] == [(N // 4, 2, False), (N // 4, 6, True)]
    with rt.db.reading(None) as s:
        decided = [d for (d,) in s.execute(select(Event.data).where(Event.type == "campaign.ab_decided"))]
    assert len(decided) == 1 and decided[0]["winner"] == 1 and decided[0]["subject"] == "Last chance"
    assert decided[0]["variants"][1]["rate"] == round(6 / (N // 4), 4)
    assert sched.run_due() == 0  # decided once


def test_a_paused_test_is_decided_by_its_resume(rt: Runtime, smtp: SmtpServer) -> None:
    camp = _setup(rt, metric="clicks", share=0.2)
    execute(ctx_for(rt), "campaign.campaigns.send", id=camp.id, body={})
    run_jobs(rt)
    assert len(smtp.messages) == 12
    execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "paused"})
    rt.clock.advance(hours=3)  # type: ignore[attr-defined]
    Scheduler(rt, owner="test").run_due()  # the decision job finds the campaign paused
    run_jobs(rt)
    assert len(smtp.messages) == 12
    assert execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id).ab_test["winner"] is None
    execute(ctx_for(rt), "campaign.campaigns.update", id=camp.id, body={"status": "running"})
    run_jobs(rt)
    done = execute(ctx_for(rt), "campaign.campaigns.get", id=camp.id)
    # No clicks at all: a tie goes to the first subject.
    assert done.status == "finished" and done.ab_test["winner"] == 0 and len(smtp.messages) == N
    assert {subject(m) for m in smtp.messages[12:]} == {"Sale for Reader"}


BAD_TESTS: list[tuple[dict[str, Any], str]] = [
    ({"subjects": ["Only one"]}, "subjects"),
    ({"subjects": ["Same", "Same"]}, "subjects"),
    ({"subjects": ["A", "{% if %}"]}, "ab_test.subjects[1]"),
    ({"subjects": ["A", "B"], "wait": "PT10S"}, "ab_test.wait"),
    ({"subjects": ["A", "B"], "wait": "soon"}, "ab_test.wait"),
    ({"subjects": ["A", "B"], "share": 0}, "share"),
    ({"subjects": ["A", "B"], "metric": "replies"}, "metric"),
]


def test_a_bad_test_is_refused_and_nothing_stored(rt: Runtime) -> None:
    tpl = execute(ctx_for(rt), "campaign.templates.email.create", body={"name": "T", "subject": "S", "text": "x"})
    before = execute(ctx_for(rt), "campaign.campaigns.list", query={}).total
    for ab, field in BAD_TESTS:
        with pytest.raises(ValidationFailed) as bad:
            execute(
                ctx_for(rt), "campaign.campaigns.create", body={"name": "Bad", "template_id": tpl.id, "ab_test": ab}
            )
        assert field in json.dumps(bad.value.details) + bad.value.message, (ab, bad.value.details)
    assert execute(ctx_for(rt), "campaign.campaigns.list", query={}).total == before


def test_sms_campaigns_have_no_subject_to_test(rt: Runtime) -> None:
    sms = execute(ctx_for(rt), "campaign.templates.sms.create", body={"name": "S", "body": "Hi"})
    with pytest.raises(ValidationFailed) as bad:
        execute(
            ctx_for(rt),
            "campaign.campaigns.create",
            body={"name": "S", "channel": "sms", "template_id": sms.id, "ab_test": {"subjects": ["A", "B"]}},
        )
    assert bad.value.details == {"field": "ab_test"}
