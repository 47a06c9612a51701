"""Issue 35 part 4: flows with a condition step. A flow branches on a contact field, a segment,
or whether the last message of the flow was opened; mail through a real SMTP server on loopback.
A flow with a cycle, or a branch to no step, is refused (400 naming the steps)."""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from email.policy import default as default_policy
from typing import Any

import pytest

from services.campaign import sending
from services.campaign.flowsteps import find_cycle
from services.campaign.sending import CampaignConfig
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import ValidationFailed
from services.core.mail import MailConfig
from tests.smtp_server import SmtpServer


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


def got(smtp: SmtpServer, to: str) -> list[str]:
    return [
        str(email.message_from_bytes(m["data"], policy=default_policy)["Subject"])
        for m in smtp.messages
        if m["rcpt"] == [to]
    ]


def _tpl(rt: Runtime, subject: str) -> str:
    body = {"name": subject, "subject": subject, "html": f"<p>{subject}</p>"}
    return str(execute(ctx_for(rt), "campaign.templates.email.create", body=body).id)


def _flow(rt: Runtime, steps: list[dict[str, Any]], list_id: str) -> Any:
    body = {"name": "Branches", "trigger": {"list_id": list_id}, "steps": steps, "status": "draft"}
    flow = execute(ctx_for(rt), "campaign.flows.create", body=body)
    return execute(ctx_for(rt), "campaign.flows.update", id=flow.id, body={"status": "live"})


def test_branch_on_a_field_a_segment_and_the_last_open(rt: Runtime, smtp: SmtpServer) -> None:
    lst = execute(ctx_for(rt), "campaign.lists.create", body={"name": "Branching"}).id
    welcome, oslo, elsewhere, vip, nudge, thanks = (
        _tpl(rt, s) for s in ("Welcome", "Oslo news", "World news", "VIP", "Did you see?", "Thanks for reading")
    )
    seg = execute(
        ctx_for(rt),
        "campaign.segments.create",
        body={"name": "Big spenders", "rules": {"all": [{"field": "attributes.spent", "op": "gte", "value": 500}]}},
    )
    _flow(
        rt,
        [
            {"send_template_id": welcome},
            {"id": "city", "if": {"field": "attributes.city", "op": "eq", "value": "Oslo"}, "else": "world"},
            {"send_template_id": oslo},
            {"if": {"segment_id": seg.id}, "then": "vip", "else": "wait"},
            {"id": "world", "send_template_id": elsewhere},
            {"if": {"segment_id": seg.id}, "else": "wait"},
            {"id": "vip", "send_template_id": vip},
            {"id": "wait", "wait": "P1D"},
            {"if": {"opened": "last"}, "then": "thanks"},
            {"send_template_id": nudge, "id": "nudge"},
            {"if": {"field": "status", "op": "eq", "value": "active"}, "then": "end"},
            {"id": "thanks", "send_template_id": thanks},
        ],
        lst,
    )
    people = {
        "oslo-vip@shop.test": {"city": "Oslo", "spent": 900},
        "oslo@shop.test": {"city": "Oslo", "spent": 10},
        "rome@shop.test": {"city": "Rome"},
    }
    for addr, attrs in people.items():
        execute(
            ctx_for(rt),
            "campaign.contacts.create",
            body={"email": addr, "name": addr.split("@")[0], "attributes": attrs, "list_ids": [lst]},
        )
    sending.tick(rt)
    assert got(smtp, "oslo-vip@shop.test") == ["Welcome", "Oslo news", "VIP"]
    assert got(smtp, "oslo@shop.test") == ["Welcome", "Oslo news"]
    assert got(smtp, "rome@shop.test") == ["Welcome", "World news"]
    # The Oslo reader opens the last message (the pixel); the others do not.
    last = [m for m in smtp.messages if m["rcpt"] == ["oslo@shop.test"]][-1]
    html = email.message_from_bytes(last["data"], policy=default_policy).get_body(("html",)).get_content()
    pixel = re.search(r"/p/o/([^\"]+)\"", html)
    assert pixel
    execute(ctx_for(rt), "campaign.public.open", token=pixel.group(1))
    rt.clock.advance(days=1, minutes=1)  # type: ignore[attr-defined]
    sending.tick(rt)
    assert got(smtp, "oslo@shop.test")[2:] == ["Thanks for reading"]
    assert got(smtp, "rome@shop.test")[2:] == ["Did you see?"]  # then "end": no thanks
    assert got(smtp, "oslo-vip@shop.test")[3:] == ["Did you see?"]
    flow = execute(ctx_for(rt), "campaign.flows.list", query={"search": "Branches"}).items[0]
    assert (flow.enrolled, flow.completed) == (3, 3)


CYCLES: list[tuple[list[dict[str, Any]], list[str]]] = [
    ([{"id": "a", "wait": "P1D"}, {"id": "b", "if": {"opened": "last"}, "then": "a"}], ["a", "b"]),
    ([{"id": "self", "if": {"opened": "last"}, "else": "self"}], ["self"]),
    (
        [
            {"wait": "P1D"},
            {"id": "x", "if": {"clicked": "last"}, "then": "z", "else": "end"},
            {"id": "y", "wait": "PT1H"},
            {"id": "z", "if": {"field": "name", "op": "exists"}, "then": "y"},
        ],
        ["y", "z"],
    ),
]
BAD_STEPS: list[tuple[dict[str, Any], str]] = [
    ({"if": {"opened": "last"}, "then": "nowhere"}, "steps[0].then"),
    ({"if": {"opened": "first"}}, "steps[0].if"),
    ({"if": {"segment_id": "no-such-segment"}}, "steps[0].if"),
    ({"if": {"field": "shoe_size", "op": "eq", "value": 9}}, "steps[0].if.all[0]"),
    ({"if": {"field": "name", "op": "resembles", "value": "x"}}, "steps[0].if.all[0]"),
    ({"if": {}}, "steps[0].if"),
    ({"if": {"opened": "last"}, "goto": "end"}, "steps[0]"),
    ({"id": "end", "wait": "P1D"}, "steps[0]"),
]


def test_a_flow_with_a_cycle_is_refused_naming_its_steps(rt: Runtime) -> None:
    lst = execute(ctx_for(rt), "campaign.lists.create", body={"name": "Cyc"}).id
    ok = execute(
        ctx_for(rt),
        "campaign.flows.create",
        body={"name": "OK", "trigger": {"list_id": lst}, "steps": [{"wait": "P1D"}]},
    )
    before = execute(ctx_for(rt), "campaign.flows.list", query={}).total
    for steps, named in CYCLES:
        with pytest.raises(ValidationFailed) as bad:
            execute(
                ctx_for(rt), "campaign.flows.create", body={"name": "C", "trigger": {"list_id": lst}, "steps": steps}
            )
        assert bad.value.details is not None and sorted(bad.value.details["cycle"]) == sorted(named)
        assert "cycle" in bad.value.message and all(n in bad.value.message for n in named)
        # An existing flow edited into a cycle is refused too, and keeps its steps.
        with pytest.raises(ValidationFailed):
            execute(ctx_for(rt), "campaign.flows.update", id=ok.id, body={"steps": steps})
    assert execute(ctx_for(rt), "campaign.flows.list", query={}).total == before  # nothing stored
    assert execute(ctx_for(rt), "campaign.flows.get", id=ok.id).steps == [{"wait": "P1D"}]


def test_a_bad_condition_step_is_refused(rt: Runtime) -> None:
    lst = execute(ctx_for(rt), "campaign.lists.create", body={"name": "Bad"}).id
    for step, field in BAD_STEPS:
        with pytest.raises(ValidationFailed) as bad:
            execute(
                ctx_for(rt), "campaign.flows.create", body={"name": "B", "trigger": {"list_id": lst}, "steps": [step]}
            )
        assert bad.value.details is not None and bad.value.details["field"] == field, (step, bad.value.details)
    assert execute(ctx_for(rt), "campaign.flows.list", query={"search": "B"}).total == 0


def test_two_steps_with_one_id_are_refused(rt: Runtime) -> None:
    lst = execute(ctx_for(rt), "campaign.lists.create", body={"name": "Dup"}).id
    steps = [{"id": "a", "wait": "P1D"}, {"id": "a", "wait": "P2D"}]
    with pytest.raises(ValidationFailed) as bad:
        execute(ctx_for(rt), "campaign.flows.create", body={"name": "D", "trigger": {"list_id": lst}, "steps": steps})
    assert bad.value.details == {"field": "steps[1]"}


def test_find_cycle_over_plain_graphs() -> None:
    assert find_cycle([[1], [2], [3]]) == []
    assert find_cycle([[1], [2], [0]]) == [0, 1, 2]
    assert find_cycle([[1, 2], [3], [3], [4]]) == []  # a diamond is no cycle
    assert find_cycle([[1, 4], [2], [1], [4]]) == [1, 2]
