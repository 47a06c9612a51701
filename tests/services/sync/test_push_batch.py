"""The push applied in process (``execute``, no HTTP): what a chunk shares between its entries and
what it must not, and the pull feed seeing every record a push made, once."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models.events import Delivery, Event, Subscription
from local_db.models.support import SupportConfig, SupportMessage, SupportTicket
from local_db.models.sync import SyncChange, SyncReceipt
from services.core import auth
from services.core.commands import execute, sign_entry
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import NotFound
from services.support.helpdesk import config_written, load_config
from services.sync import protocol as p
from services.sync.service import resolve

ADMIN = demo_id("user", "admin@demo.test")
TICKETS = "/api/tenants/demo/support/tickets"


class Station:
    """A registered station that signs entries and pushes them in process."""

    def __init__(self, rt: Runtime, station_id: str = "desk-1") -> None:
        self.rt, self.sid = rt, station_id
        self.tenant = auth.load_tenant(rt.db, "demo")
        owner = auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), self.tenant)
        body = {"stationId": station_id, "name": "Front desk"}
        self.secret = execute(Ctx(rt, self.tenant, owner), "sync.stations.register", body=body).secret

    def entry(
        self, seq: int, *, path: str = TICKETS, method: str = "POST", body: Any = None, n_ids: int = 4
    ) -> dict[str, Any]:
        e = {
            "command": "support.tickets.create",
            "method": method,
            "path": path,
            "body": body
            if body is not None
            else {"subject": f"ticket {seq}", "description": "d", "email": "ann@example.test", "name": "Ann"},
            "idempotency_key": str(uuid.uuid4()),
            "actor_id": ADMIN,
            "created_at": datetime.now(UTC).isoformat(),
            "ids": [str(uuid.uuid4()) for _ in range(n_ids)],
        }
        signed = {**e, "station_id": self.sid, "tenant_id": self.tenant.id, "station_seq": seq}
        return {**e, "seq": seq, "void": False, "signature": sign_entry(self.secret.encode(), signed)}

    def push(self, entries: list[dict[str, Any]]) -> Any:
        purpose = p.push_purpose([e["signature"] for e in entries])
        headers = p.signed_headers(self.secret, "demo", self.sid, purpose, time.time())
        return execute(Ctx(self.rt, self.tenant, SYSTEM), "sync.push", body={"entries": entries}, headers=headers)

    def pulled(self) -> list[tuple[str, str]]:
        """Every (table, id) of the tenant's pull feed, page by page."""
        out: list[tuple[str, str]] = []
        cursor = ""
        while True:
            headers = p.signed_headers(self.secret, "demo", self.sid, f"pull:{cursor}:1000", time.time())
            page = execute(Ctx(self.rt, self.tenant, SYSTEM), "sync.pull", query={"cursor": cursor}, headers=headers)
            out += [(c.table, c.id) for c in page.changes]
            cursor = page.cursor
            if not page.more:
                return out


def test_the_pull_feed_has_every_record_a_push_made_once_and_none_of_a_rejected_entry(runtime: Runtime) -> None:
    st = Station(runtime)
    before = set(st.pulled())
    good = [st.entry(seq) for seq in (1, 2, 3)]
    # Refused for a taken id, nothing of them kept: the ticket's id (its insert fails), and the
    # event's (the ticket and its message were written and logged before the event's insert failed).
    taken, late = st.entry(4), st.entry(5)
    taken["ids"][0] = good[0]["ids"][0]
    late["ids"][2] = good[0]["ids"][2]
    for seq, e in ((4, taken), (5, late)):
        unsigned = {k: v for k, v in e.items() if k not in ("seq", "void", "signature")}
        signed = {**unsigned, "station_id": st.sid, "tenant_id": st.tenant.id, "station_seq": seq}
        e["signature"] = sign_entry(st.secret.encode(), signed)
    last = st.entry(6)
    answers = st.push([*good, taken, late, last]).answers
    assert [a.status for a in answers] == ["applied", "applied", "applied", "rejected", "rejected", "applied"]
    feed = [c for c in st.pulled() if c not in before]
    assert len(feed) == len(set(feed))  # once each
    for e in [*good, last]:
        ticket_id, message_id = e["ids"][0], e["ids"][1]
        assert ("support_tickets", ticket_id) in feed and ("support_messages", message_id) in feed
    assert [a.result["id"] for a in answers if a.status == "applied"] == [e["ids"][0] for e in [*good, last]]
    assert ("support_messages", taken["ids"][1]) not in feed
    assert ("support_tickets", late["ids"][0]) not in feed and ("support_messages", late["ids"][1]) not in feed
    with runtime.db.reading(st.tenant.id) as s:
        tickets = s.execute(select(func.count()).select_from(SupportTicket)).scalar_one()
        logged = s.execute(
            select(func.count()).select_from(SyncChange).where(SyncChange.table_name == "support_tickets")
        ).scalar_one()
    assert tickets == logged  # every ticket of the tenant (demo ones and pushed) is in the feed


def test_one_refused_entry_in_a_chunk_undoes_its_own_writes_and_each_applied_event_is_delivered_once(
    runtime: Runtime,
) -> None:
    # Entries run without a savepoint; the one that fails makes the chunk run again with a savepoint
    # around it: the entries before it must not be applied twice, nor their events delivered twice
    # (the chunk reads the webhook subscriptions once).
    st = Station(runtime)
    with runtime.db.transaction(st.tenant.id) as s:
        s.add(
            Subscription(
                tenant_id=st.tenant.id,
                event_types=["ticket.created"],
                webhook_url="https://hooks.example.test/tickets",
                secret="whsec-test",
            )
        )
    good = [st.entry(seq) for seq in (1, 2)]
    late = st.entry(3)
    late["ids"][2] = good[0]["ids"][2]  # its ticket and message are written, then its event's id is taken
    unsigned = {k: v for k, v in late.items() if k not in ("seq", "void", "signature")}
    signed = {**unsigned, "station_id": st.sid, "tenant_id": st.tenant.id, "station_seq": 3}
    late["signature"] = sign_entry(st.secret.encode(), signed)
    after = [st.entry(seq) for seq in (4, 5)]
    answers = st.push([*good, late, *after]).answers
    assert [a.status for a in answers] == ["applied", "applied", "rejected", "applied", "applied"]
    applied = [e["ids"][0] for e in [*good, *after]]
    with runtime.db.reading(st.tenant.id) as s:
        made = s.execute(select(SupportTicket.id).where(SupportTicket.id.in_([*applied, late["ids"][0]])))
        assert sorted(made.scalars()) == sorted(applied)
        assert s.get(SupportMessage, late["ids"][1]) is None
        events = s.execute(
            select(Event.id).where(Event.type == "ticket.created", Event.id.in_([e["ids"][2] for e in [*good, *after]]))
        ).scalars()
        delivered = s.execute(select(Delivery.event_id).where(Delivery.kind == "event")).scalars().all()
        receipts = s.execute(select(func.count()).select_from(SyncReceipt)).scalar_one()
    assert sorted(delivered) == sorted(events)  # one delivery per applied ticket's event, none of the refused
    assert len(delivered) == 4
    assert receipts == 5


def test_a_ticket_made_on_the_platform_outside_a_push_is_in_the_pull_feed(runtime: Runtime) -> None:
    st = Station(runtime)
    admin = auth.user_principal(runtime.db, ADMIN, st.tenant)
    t = execute(
        Ctx(runtime, st.tenant, admin),
        "support.tickets.create",
        body={"subject": "by phone", "description": "d", "email": "bo@example.test", "name": "Bo"},
    )
    feed = st.pulled()
    assert ("support_tickets", t.id) in feed
    assert sum(1 for table, _ in feed if table == "support_messages") >= 1


def test_a_later_entry_of_the_chunk_sees_a_helpdesk_change_made_by_an_earlier_one(runtime: Runtime) -> None:
    st = Station(runtime)
    admin = auth.user_principal(runtime.db, ADMIN, st.tenant)
    cfg = execute(Ctx(runtime, st.tenant, admin), "support.helpdesk.get").model_dump(mode="json")
    cfg["business_hours"]["enabled"] = False
    cfg["sla"]["normal"]["first_response_minutes"] = 7
    change = st.entry(2, path="/api/tenants/demo/support/helpdesk", method="PUT", body=cfg, n_ids=0)
    answers = st.push([st.entry(1), change, st.entry(3)]).answers
    assert [a.status for a in answers] == ["applied", "applied", "applied"]
    first, last = answers[0].result, answers[2].result
    took = datetime.fromisoformat(last["first_response_due"]) - datetime.fromisoformat(last["created_at"])
    assert took.total_seconds() == 7 * 60  # the new target, calendar minutes
    assert first["first_response_due"] != last["first_response_due"]


def test_a_session_that_wrote_the_configuration_reads_it_afresh(runtime: Runtime) -> None:
    tenant = auth.load_tenant(runtime.db, "demo")
    with runtime.db.transaction(tenant.id) as s:
        kept = load_config(s)
        assert load_config(s) is kept  # read once per session
        row = s.execute(select(SupportConfig)).scalar_one()
        savepoint = s.begin_nested()
        config_written(s)
        row.data = {**row.data, "auto_reply": {**row.data["auto_reply"], "enabled": not kept.auto_reply.enabled}}
        assert load_config(s).auto_reply.enabled is not kept.auto_reply.enabled
        savepoint.rollback()  # the change undone: the session does not keep the undone one
        assert load_config(s).auto_reply.enabled is kept.auto_reply.enabled


def test_replayed_paths_resolve_by_their_shape() -> None:
    op, slug, params = resolve("POST", "/api/tenants/demo/support/tickets/t-1/messages?x=1")
    assert (op.name, slug, params) == ("support.messages.create", "demo", {"ticket_id": "t-1"})
    assert resolve("POST", "/api/tenants/demo/support/tickets")[0].name == "support.tickets.create"
    with pytest.raises(NotFound):
        resolve("POST", "/api/tenants/demo/support/tickets/t-1/messages/extra")
    with pytest.raises(NotFound):
        resolve("DELETE", "/api/tenants/demo/support/tickets")


def test_an_idempotency_key_used_before_is_answered_from_its_record_and_a_chunk_uses_each_key_once(
    runtime: Runtime,
) -> None:
    st = Station(runtime)
    admin = auth.user_principal(runtime.db, ADMIN, st.tenant)
    body = {"subject": "twice", "description": "d", "email": "ann@example.test", "name": "Ann"}
    first = execute(Ctx(runtime, st.tenant, admin), "support.tickets.create", body=body, idempotency_key="k-1")
    same, other = st.entry(1, body=body), st.entry(2, body={**body, "subject": "another"})
    fresh, again = st.entry(3), st.entry(4)
    same["idempotency_key"] = other["idempotency_key"] = "k-1"
    again["idempotency_key"] = fresh["idempotency_key"]  # a key first used inside this very chunk
    again["body"] = fresh["body"]
    for seq, e in enumerate((same, other, fresh, again), start=1):
        unsigned = {k: v for k, v in e.items() if k not in ("seq", "void", "signature")}
        signed = {**unsigned, "station_id": st.sid, "tenant_id": st.tenant.id, "station_seq": seq}
        e["signature"] = sign_entry(st.secret.encode(), signed)
    answers = st.push([same, other, fresh, again]).answers
    assert [a.status for a in answers] == ["applied", "conflict", "applied", "applied"]
    assert answers[0].result["id"] == first.id  # the first call's answer, no second ticket
    assert answers[3].result["id"] == answers[2].result["id"]
    with runtime.db.reading(st.tenant.id) as s:
        subjects = s.execute(select(SupportTicket.subject).where(SupportTicket.subject == "twice")).scalars().all()
    assert subjects == ["twice"]
