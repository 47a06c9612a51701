"""Support service: states, numbers, guest access, notes, SLA, categories, attachments, e-mail domain, triage."""

from __future__ import annotations

import hashlib
import json
import socket
import struct
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.support import SupportConfig, SupportMessage, SupportTicket
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.demo import DEMO_PASSWORD, demo_id
from services.core.errors import Conflict, Forbidden, NotFound, PayloadTooLarge, ValidationFailed
from services.core.files import Upload
from services.support import states
from services.support.challenge import ChallengeConfig, ChallengeUnavailable, DemoVerifier, TurnstileVerifier
from services.support.demo import CATEGORIES
from services.support.dns import Resolver, UdpResolver, decode_txt_answer, encode_query
from services.support.schemas import BusinessHours
from services.support.sla import add_business_minutes
from services.support.triage import CategoryText, CorpusTicket, TfidfIndex
from tests.support_fakes import FakeSiteverify, siteverify_server

OK = "demo-challenge-ok"
NEW = {"email": "Guest@Example.com", "name": "Gina Guest", "subject": "Broken kettle",
       "description": "The kettle arrived broken.", "challenge_token": OK}  # fmt: skip


def agent(rt: Runtime, email: str = "operator@demo.test", slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    user = auth.authenticate_password(rt.db, email, DEMO_PASSWORD)
    return Ctx(rt, tenant, auth.user_principal(rt.db, user.id, tenant))


def guest(rt: Runtime, slug: str = "demo") -> Ctx:
    return Ctx(rt, auth.load_tenant(rt.db, slug), Principal(kind="public", id="ip:10.0.0.1"), ip="10.0.0.1")


def create(rt: Runtime, **over: Any) -> Any:
    return execute(guest(rt), "support.public.tickets.create", body={**NEW, **over})


def test_state_table_allows_only_its_moves() -> None:
    states.check_transition("open", "pending", "agent")
    states.check_transition("resolved", "open", "customer")
    with pytest.raises(Conflict) as e:
        states.check_transition("closed", "open", "agent")
    assert e.value.details == {"current_state": "closed", "action": "move to open"}
    with pytest.raises(Conflict):
        states.check_transition("open", "resolved", "customer")
    assert states.allowed_targets("resolved") == ["open", "closed"]
    assert states.after_customer_reply("resolved") == "open"
    with pytest.raises(Conflict):
        states.after_customer_reply("closed")


def test_public_creation_numbers_hashes_and_emits(runtime: Runtime) -> None:
    out = create(runtime)
    year = datetime.now(UTC).year
    # 20 demo tickets took the first numbers of the year.
    assert out.ticket_number == f"TKT-{year}-000021"
    assert create(runtime).ticket_number == f"TKT-{year}-000022"
    with runtime.db.reading(demo_id("tenant", "demo")) as s:
        t = s.execute(select(SupportTicket).where(SupportTicket.number == out.ticket_number)).scalar_one()
        ev = s.execute(select(Event).where(Event.type == "ticket.created")).scalars().all()
    assert t.requester_email == "guest@example.com" and t.state == "open" and t.source == "public"
    assert t.access_token_hash == hashlib.sha256(out.access_token.encode()).hexdigest()
    assert out.access_token not in json.dumps([t.access_token_hash, t.description])
    assert t.first_response_due is not None and t.resolution_due is not None
    assert {e.data["ticket_number"] for e in ev} >= {out.ticket_number}


def test_challenge_refused_and_unconfigured(runtime: Runtime) -> None:
    with pytest.raises(Forbidden, match="bot-challenge"):
        create(runtime, challenge_token="demo-challenge-OK")  # exactly the token, or refused
    with pytest.raises(ValidationFailed):
        execute(
            guest(runtime),
            "support.public.tickets.create",
            body={k: v for k, v in NEW.items() if k != "challenge_token"},
        )
    runtime.provide(ChallengeConfig(kind=None))
    with pytest.raises(ChallengeUnavailable):
        create(runtime)


def test_guest_access_wrong_token_equals_unknown_number(runtime: Runtime) -> None:
    out = create(runtime)
    g = guest(runtime)
    with pytest.raises(NotFound) as wrong:
        execute(g, "support.public.tickets.lookup", body={"ticket_number": out.ticket_number, "access_token": "nope"})
    with pytest.raises(NotFound) as unknown:
        execute(g, "support.public.tickets.lookup", body={"ticket_number": "TKT-1999-000001", "access_token": "nope"})
    assert wrong.value.to_body() == unknown.value.to_body()
    # Another tenant's guest route does not know the number either.
    with pytest.raises(NotFound):
        execute(guest(runtime, "other"), "support.public.tickets.lookup",
                body={"ticket_number": out.ticket_number, "access_token": out.access_token})  # fmt: skip
    seen = execute(g, "support.public.tickets.lookup",
                   body={"ticket_number": out.ticket_number.lower(), "access_token": out.access_token})  # fmt: skip
    assert seen.number == out.ticket_number and seen.messages[0].author_kind == "customer"


def test_notes_stay_internal_and_replies_move_states(runtime: Runtime) -> None:
    out = create(runtime)
    a = agent(runtime)
    tid = execute(a, "support.tickets.get", ticket_id=out.ticket_number).id
    execute(
        a, "support.messages.create", ticket_id=tid, body={"body": "SECRET: customer is a reseller", "internal": True}
    )
    execute(a, "support.messages.create", ticket_id=tid, body={"body": "We are on it."})
    assert execute(a, "support.tickets.get", ticket_id=tid).first_response_at is not None
    msgs = execute(guest(runtime), "support.public.messages.list", number=out.ticket_number,
                   headers={"x-access-token": out.access_token}).root  # fmt: skip
    assert "SECRET" not in json.dumps([m.model_dump(mode="json") for m in msgs])
    assert [m.body for m in msgs][-1] == "We are on it."
    agent_view = execute(a, "support.messages.list", ticket_id=tid).root
    assert [m.internal for m in agent_view].count(True) == 1
    # resolved -> customer reply reopens; closed -> 409.
    t = execute(a, "support.tickets.update", ticket_id=tid, body={"state": "resolved"})
    assert t.state == "resolved" and t.resolved_at is not None
    execute(guest(runtime), "support.public.messages.reply", number=out.ticket_number,
            body={"access_token": out.access_token, "body": "Still broken"})  # fmt: skip
    assert execute(a, "support.tickets.get", ticket_id=tid).state == "open"
    execute(a, "support.tickets.update", ticket_id=tid, body={"state": "resolved"})
    execute(a, "support.tickets.update", ticket_id=tid, body={"state": "closed"})
    with pytest.raises(Conflict) as e:
        execute(guest(runtime), "support.public.messages.reply", number=out.ticket_number,
                body={"access_token": out.access_token, "body": "hello?"})  # fmt: skip
    assert e.value.details == {"current_state": "closed", "action": "reply to"}
    with pytest.raises(Conflict):
        execute(a, "support.tickets.update", ticket_id=tid, body={"priority": "low"})
    with runtime.db.reading(demo_id("tenant", "demo")) as s:
        types = [e.type for e in s.execute(select(Event).order_by(Event.created_at)).scalars()]
    assert types.count("ticket.resolved") >= 2 and "ticket.replied" in types


def test_wrong_transition_is_409_and_nothing_changes(runtime: Runtime) -> None:
    a = agent(runtime)
    t = execute(a, "support.tickets.list", query={"state": "open", "limit": 1}).items[0]
    with pytest.raises(Conflict) as e:
        execute(a, "support.tickets.update", ticket_id=t.id, body={"priority": "urgent", "state": "closed"})
    assert (e.value.details or {})["current_state"] == "open"
    assert execute(a, "support.tickets.get", ticket_id=t.id).priority == t.priority


def test_business_minutes_skip_nights_and_weekends() -> None:
    hours = BusinessHours(timezone="UTC", days=[0, 1, 2, 3, 4], start="09:00", end="17:00")
    friday = datetime(2026, 1, 9, 16, 0, tzinfo=UTC)
    assert add_business_minutes(friday, 120, hours) == datetime(2026, 1, 12, 10, 0, tzinfo=UTC)
    saturday_night = datetime(2026, 1, 10, 23, 0, tzinfo=UTC)
    assert add_business_minutes(saturday_night, 30, hours) == datetime(2026, 1, 12, 9, 30, tzinfo=UTC)
    off = BusinessHours(enabled=False)
    assert add_business_minutes(friday, 120, off) == friday + timedelta(hours=2)


def test_queues_and_breaching(runtime: Runtime) -> None:
    a = agent(runtime)
    counts = execute(a, "support.queues")
    assert counts.all == 20 and counts.waiting == 4 and counts.new >= 1
    runtime.clock = FixedClock(datetime.now(UTC) + timedelta(days=60))
    later = execute(agent(runtime), "support.queues")
    assert later.breaching == 10  # every open or pending ticket is late by then
    page = execute(agent(runtime), "support.tickets.list", query={"queue": "breaching", "limit": 100})
    assert page.total == 10 and all(t.sla_breached for t in page.items)


def test_category_delete_conflict_or_reassign(runtime: Runtime) -> None:
    a = agent(runtime)
    billing, shipping = demo_id("support-category", "billing"), demo_id("support-category", "shipping")
    with pytest.raises(Conflict) as e:
        execute(a, "support.categories.delete", category_id=billing)
    assert e.value.details == {"ticket_count": 4}
    with pytest.raises(Conflict):
        execute(a, "support.categories.create", body={"name": "billing"})
    execute(a, "support.categories.delete", category_id=billing, query={"reassign_to": shipping})
    cats = {c.name: c.ticket_count for c in execute(a, "support.categories.list").root}
    assert "Billing" not in cats and cats["Shipping & delivery"] == 8


def test_attachment_limits_and_types(runtime: Runtime) -> None:
    a = agent(runtime)
    runtime.upload_limit = 1024
    with pytest.raises(PayloadTooLarge):
        execute(a, "support.attachments.upload", query={}, upload=Upload("big.txt", "text/plain", b"x" * 1025))
    with pytest.raises(ValidationFailed, match="type"):
        execute(
            a, "support.attachments.upload", query={}, upload=Upload("x.zip", "application/zip", b"PK\x03\x04\x00\x00")
        )
    att = execute(a, "support.attachments.upload", query={}, upload=Upload("note.txt", "text/plain", b"hello"))
    assert att.content_type == "text/plain" and att.size == 5
    assert execute(a, "support.attachments.get", attachment_id=att.id).content == b"hello"
    tid = execute(a, "support.tickets.list", query={"state": "open", "limit": 1}).items[0].id
    msg = execute(a, "support.messages.create", ticket_id=tid, body={"body": "see file", "attachment_ids": [att.id]})
    assert [x.id for x in msg.attachments] == [att.id]
    with pytest.raises(Conflict):
        execute(a, "support.attachments.delete", attachment_id=att.id)


class FakeResolver:
    def __init__(self) -> None:
        self.records: dict[str, list[str]] = {}

    def txt_records(self, name: str) -> list[str]:
        return self.records.get(name, [])


def test_email_domain_flow(runtime: Runtime) -> None:
    fake = FakeResolver()
    runtime.provide(Resolver(fake))
    admin = agent(runtime, "admin@demo.test")
    reg = execute(admin, "support.email_domain.register", body={"domain": "Help.Example.COM"})
    assert reg.domain == "help.example.com" and reg.status == "pending"
    with pytest.raises(Conflict, match="TXT"):
        execute(admin, "support.email_domain.verify")
    assert execute(admin, "support.email_domain.get").last_checked_at is not None  # the failed check is kept
    fake.records[reg.txt_name] = ["v=spf1 -all", reg.txt_value]
    assert execute(admin, "support.email_domain.verify").status == "verified"
    with pytest.raises(Forbidden):
        execute(agent(runtime), "support.email_domain.delete")  # operators may read, not remove
    execute(admin, "support.email_domain.delete")
    gone = execute(admin, "support.email_domain.get")  # a status route answers a status
    assert gone.status == "none" and gone.domain is None


def test_udp_resolver_against_a_local_dns_server() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]

    def answer() -> None:
        query, addr = sock.recvfrom(512)
        qid = struct.unpack(">H", query[:2])[0]
        question = query[12:]
        txt = b"platform-verification=abc"
        rdata = bytes([len(txt)]) + txt
        rr = b"\xc0\x0c" + struct.pack(">HHIH", 16, 1, 60, len(rdata)) + rdata
        sock.sendto(struct.pack(">HHHHHH", qid, 0x8180, 1, 1, 0, 0) + question + rr, addr)

    th = threading.Thread(target=answer, daemon=True)
    th.start()
    try:
        assert UdpResolver("127.0.0.1", port, timeout=2).txt_records("_x.example.com") == ["platform-verification=abc"]
    finally:
        th.join(2)
        sock.close()
    assert decode_txt_answer(encode_query("a.b", 7)[:12], 8) == []  # another id: ignored


@pytest.fixture
def siteverify() -> Iterator[str]:
    with siteverify_server() as url:
        yield url


def test_turnstile_siteverify_against_a_local_endpoint(siteverify: str) -> None:
    v = TurnstileVerifier("s3cret", url=siteverify)
    assert v.verify("good-token", "203.0.113.9") is True
    assert FakeSiteverify.seen[-1]["remoteip"] == ["203.0.113.9"]
    assert v.verify("bad-token", None) is False
    with pytest.raises(ChallengeUnavailable):
        TurnstileVerifier("s3cret", url="http://127.0.0.1:9/nothing", timeout=0.5).verify("t", None)
    assert DemoVerifier().verify(OK, None) and not DemoVerifier().verify("demo-challenge-ok2", None)


def test_station_numbers_are_provisional(station: Runtime) -> None:
    a = agent(station)
    t = execute(
        a, "support.tickets.create", body={"email": "x@example.com", "name": "X", "subject": "s", "description": "d"}
    )
    assert t.provisional and t.number.startswith("PROV-station-test-")


def test_my_tickets_cross_tenant_only_where_member(runtime: Runtime) -> None:
    create(runtime, email="operator@demo.test")
    execute(guest(runtime, "other"), "support.public.tickets.create", body={**NEW, "email": "operator@demo.test"})
    user = auth.authenticate_password(runtime.db, "operator@demo.test", DEMO_PASSWORD)
    ctx = Ctx(runtime, None, Principal(kind="user", id=user.id, email=user.email))
    page = execute(ctx, "support.my_tickets", query={})
    assert page.total == 1 and page.items[0].tenant == "demo"


# --- triage ----------------------------------------------------------------------------

DATA = Path(__file__).with_name("data") / "triage_labelled.json"


def test_triage_on_held_out_templates_beats_keywords_alone_and_the_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    """Held out by template: the 240 tickets come from 43 templates, so a random split would test
    mostly wordings seen in training (template recall, not triage). A third of each category's
    templates (index % 3 == 0) is the test set; its tickets' wordings are never seen in training.
    The thresholds (NEIGHBOUR_FLOOR, MIN_SCORE) were chosen on another third (index % 3 == 1)."""
    rows = json.loads(DATA.read_text())
    assert len(rows) >= 200 and len({r["template"] for r in rows}) >= 40
    held = {r["template"] for r in rows if int(r["template"].split("/")[1]) % 3 == 0}
    train = [r for r in rows if r["template"] not in held]
    test = [r for r in rows if r["template"] in held]
    cats = [CategoryText(k, n, " ".join([n, d, *kw])) for k, n, d, kw in CATEGORIES]
    corpus = [CorpusTicket(str(i), f"T{i}", r["subject"], f"{r['subject']}\n{r['description']}", r["category"], "normal")
              for i, r in enumerate(train)]  # fmt: skip
    index = TfidfIndex(corpus, cats)
    guesses = [index.classify(f"{r['subject']}\n{r['description']}") for r in test]
    hits = sum(g.category_id == r["category"] for g, r in zip(guesses, test, strict=True))
    made = sum(g.category_id is not None for g in guesses)  # weak evidence: no suggestion at all
    # The commonest training category (ties broken by name, so the figure is the same every run),
    # and how often always answering it would be right on the test set.
    counts = Counter(r["category"] for r in train)
    majority = min(counts, key=lambda c: (-counts[c], c))
    baseline = sum(r["category"] == majority for r in test) / len(test)
    cold = TfidfIndex([], cats)  # categories' own words only, no resolved tickets yet
    cold_hits = sum(cold.classify(f"{r['subject']}\n{r['description']}").category_id == r["category"] for r in test)
    with capsys.disabled():
        print(f"\ntriage on held-out templates: {hits / len(test):.1%} right ({made} of {len(test)} suggested, "
              f"{hits / made:.1%} of those right); keywords alone {cold_hits / len(test):.1%}; "
              f"majority baseline {baseline:.1%}; {len(held)} templates held out")  # fmt: skip
    assert hits >= cold_hits  # the resolved tickets must not make it worse than the categories' words
    assert hits / len(test) > baseline + 0.3 and hits / made > 0.85


def test_weak_evidence_suggests_nothing() -> None:
    cats = [CategoryText(k, n, " ".join([n, d, *kw])) for k, n, d, kw in CATEGORIES]
    g = TfidfIndex([], cats).classify("hello, something about my thing")
    assert g.category_id is None and g.matched_terms == []


def test_triage_endpoints_on_demo_data(runtime: Runtime) -> None:
    a = agent(runtime)
    g = execute(a, "support.triage", body={"subject": "Refund", "description": "I was charged twice on my card"})
    assert g.category_name == "Billing" and 0 < g.confidence <= 1 and "card" in g.matched_terms
    # As the ticket wrote them, never a stem ("charg"): agents read them as the evidence.
    words = {"refund", "i", "was", "charged", "twice", "on", "my", "card"}
    assert g.matched_terms and set(g.matched_terms) <= words, g.matched_terms
    urgent = execute(a, "support.triage", body={"subject": "Outage", "description": "site down, urgent, error 500"})
    assert urgent.priority == "urgent" and urgent.category_name == "Technical problem"
    out = create(runtime, subject="Parcel missing", description="My parcel was marked delivered but not at my door")
    tid = execute(a, "support.tickets.get", ticket_id=out.ticket_number).id
    r = execute(a, "support.triage.reply", body={"ticket_id": tid})
    assert r.reply is not None and "neighbour" in r.reply and r.reply.startswith("Hello Gina")
    with pytest.raises(ValidationFailed):
        execute(a, "support.triage", body={})
    # Deterministic: the same question, the same answer.
    assert execute(a, "support.triage", body={"ticket_id": tid}) == execute(
        a, "support.triage", body={"ticket_id": tid}
    )


def test_an_sla_outcome_already_reached_never_changes_with_the_priority(runtime: Runtime) -> None:
    made = create(runtime, subject="Printer on fire")
    a = agent(runtime)
    t = execute(a, "support.tickets.list", query={"search": made.ticket_number, "limit": 1}).items[0]
    first_due, resolution_due = t.first_response_due, t.resolution_due
    # Past the first-response target (not yet the resolution one): breached, and it stays breached.
    runtime.clock = FixedClock(first_due + timedelta(minutes=5))
    assert resolution_due > runtime.clock.now()
    out = execute(agent(runtime), "support.tickets.update", ticket_id=t.id, body={"priority": "low"})
    assert out.first_response_due == first_due and out.sla_breached  # not turned into "met" by a laxer target
    # The resolution target was still open: it follows the new priority.
    assert out.resolution_due != resolution_due
    # A first response met stays met, whatever the priority becomes.
    fresh = create(runtime, subject="Kettle again")
    f = execute(agent(runtime), "support.tickets.list", query={"search": fresh.ticket_number, "limit": 1}).items[0]
    execute(agent(runtime), "support.messages.create", ticket_id=f.id, body={"body": "On it.", "internal": False})
    met = execute(agent(runtime), "support.tickets.update", ticket_id=f.id, body={"priority": "urgent"})
    assert met.first_response_at is not None and met.first_response_due == f.first_response_due


def test_a_changed_configuration_applies_to_the_next_ticket(runtime: Runtime) -> None:
    """The validated configuration is kept between tickets: a change (by the route, or written to the
    table as a station's pull does) is used by the very next ticket."""
    a = agent(runtime, "owner@demo.test")
    cfg = execute(a, "support.helpdesk.get")
    first = create(runtime, subject="Before the change")
    cfg.auto_reply.enabled = False
    execute(a, "support.helpdesk.put", body=cfg.model_dump(mode="json"))
    second = create(runtime, subject="After the change")
    tenant = auth.load_tenant(runtime.db, "demo")
    with runtime.db.reading(tenant.id) as s:
        replies = {
            n: s.execute(
                select(func.count()).select_from(SupportMessage).join(SupportTicket).where(SupportTicket.number == n)
            ).scalar_one()
            for n in (first.ticket_number, second.ticket_number)
        }
    assert replies[first.ticket_number] == replies[second.ticket_number] + 1  # no auto-reply after the change
    # Written to the table directly (a station's pull): seen at once, too.
    with runtime.db.transaction(tenant.id) as s:
        row = s.execute(select(SupportConfig)).scalar_one()
        row.data = {**row.data, "auto_reply": {**row.data["auto_reply"], "enabled": True}}
    third = create(runtime, subject="After the pull")
    with runtime.db.reading(tenant.id) as s:
        n = s.execute(
            select(func.count())
            .select_from(SupportMessage)
            .join(SupportTicket)
            .where(SupportTicket.number == third.ticket_number)
        ).scalar_one()
    assert n == replies[first.ticket_number]


def test_a_ticket_carries_the_moves_its_state_allows_an_agent(runtime: Runtime) -> None:
    tickets = execute(agent(runtime), "support.tickets.list", query={"queue": "all", "limit": 100}).items
    assert {t.state for t in tickets} >= {"open", "resolved"}
    for t in tickets:  # the same table as the states a ticket may move to
        assert t.allowed_actions == t.allowed_states == states.TICKET.actions_from(t.state, "agent"), t.number
    assert next(t for t in tickets if t.state == "resolved").allowed_actions == ["open", "closed"]
