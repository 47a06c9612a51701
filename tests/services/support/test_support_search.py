"""Ticket search (FTS5 trigram index with a LIKE fallback), queue counts and the triage model cache."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select, text

from local_db.models.support import SupportTicket
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import DEMO_PASSWORD, demo_id
from services.support import helpdesk, search, tickets
from services.support.ai import TriageCache
from services.support.search import SearchState

DEMO, OTHER = demo_id("tenant", "demo"), demo_id("tenant", "other")


def agent(rt: Runtime, email: str = "operator@demo.test", slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    user = auth.authenticate_password(rt.db, email, DEMO_PASSWORD)
    return Ctx(rt, tenant, auth.user_principal(rt.db, user.id, tenant))


def new_ticket(ctx: Ctx, **over: Any) -> Any:
    body = {"email": "zed.quinlan@northwind.test", "name": "Zed Quinlan", "subject": "Flux capacitor humming",
            "description": "The flux capacitor hums loudly since the firmware update."} | over  # fmt: skip
    return execute(ctx, "support.tickets.create", body=body)


def found(ctx: Ctx, term: str, **query: Any) -> list[str]:
    return [t.number for t in execute(ctx, "support.tickets.list", query={"search": term, **query}).items]


def fts_rows(rt: Runtime, ticket_id: str) -> list[tuple[Any, ...]]:
    """The index entries of a ticket (its rowid), with the tenant and subject they stand for."""
    with rt.db.reading(None) as s:
        rows = s.execute(
            text(
                f"SELECT f.tenant_id, f.subject FROM {search.FTS} f JOIN support_tickets t ON t.rowid = f.rowid"
                f" WHERE t.id = :t AND {search.FTS} MATCH :q"
            ),
            {"t": ticket_id, "q": f'id:"{ticket_id}" OR number:"TKT" OR number:"PROV"'},
        ).all()
    return [tuple(r) for r in rows]


def integrity_ok(rt: Runtime) -> bool:
    """FTS5's own check: the index holds exactly the tickets' current texts."""
    with rt.db.transaction(None) as s:
        s.execute(text(f"INSERT INTO {search.FTS}({search.FTS}, rank) VALUES ('integrity-check', 1)"))
    return True


def test_search_finds_by_number_subject_email_and_body(runtime: Runtime) -> None:
    a = agent(runtime)
    t = new_ticket(a)
    assert search.fts_available(a) == runtime.db.is_sqlite  # PostgreSQL: the LIKE search, same answers
    assert found(a, t.number) == [t.number]  # exact number: the unique index
    assert found(a, t.number.lower()) == [t.number]
    assert found(a, t.number[-6:]) == [t.number]  # part of a number
    assert found(a, "capacitor") == [t.number]  # subject, substring
    assert found(a, "CAPACITOR HUM") == [t.number]  # every word, any case
    assert found(a, "northwind") == [t.number]  # requester e-mail
    assert found(a, "zed.quinlan@north") == [t.number]
    assert found(a, "firmware") == [t.number]  # description (the first message)
    assert found(a, "capacitor nothing-like-this") == []
    # Demo tickets created before the index existed were filled in when it was built.
    assert [x.subject for x in execute(a, "support.tickets.list", query={"search": "alice@exa"}).items] == [
        "Charged twice for order 1042",
        "Refund for returned jacket",
    ]
    # Words under 3 characters cannot use trigrams: LIKE on the rows the other words selected.
    assert found(a, "flux ca") == [t.number] and found(a, "flux zz") == []
    assert len(found(a, "ch", limit=100)) >= 1  # only short words: the LIKE search
    # Filters combine with the search.
    assert found(a, "capacitor", state="resolved") == [] and found(a, "capacitor", queue="new") == [t.number]
    assert found(a, '"quoted" 100%_') == []  # FTS and LIKE syntax in the input is just text


def test_search_never_crosses_tenants(runtime: Runtime) -> None:
    a, b = agent(runtime), agent(runtime, "owner@other.test", "other")
    assert search.fts_available(a) == runtime.db.is_sqlite  # built on the first search, kept by triggers
    mine = new_ticket(a, subject="Quasar widget squeaks")
    theirs = new_ticket(b, subject="Quasar widget squeaks", email="zed.quinlan@northwind.test")
    if runtime.db.is_sqlite:  # The FTS index holds both rows, each with its tenant...
        assert fts_rows(runtime, theirs.id) == [(OTHER, "Quasar widget squeaks")]
        assert fts_rows(runtime, mine.id) == [(DEMO, "Quasar widget squeaks")]
    # ...and every search answers only the session's tenant.
    for term in ("quasar", "squeaks widget", "northwind", theirs.number, "zed.quinlan"):
        ids_a = {t.id for t in execute(a, "support.tickets.list", query={"search": term, "limit": 100}).items}
        ids_b = {t.id for t in execute(b, "support.tickets.list", query={"search": term, "limit": 100}).items}
        assert theirs.id not in ids_a and mine.id not in ids_b
    assert {t.id for t in execute(b, "support.tickets.list", query={"search": "quasar"}).items} == {theirs.id}
    only_b = new_ticket(b, subject="Xylophone tuning request")
    assert found(a, "xylophone") == [] and found(b, "xylophone") == [only_b.number]
    assert not runtime.db.is_sqlite or integrity_ok(runtime)


def test_search_follows_ticket_changes(runtime: Runtime) -> None:
    a = agent(runtime)
    assert search.fts_available(a) == runtime.db.is_sqlite  # PostgreSQL: the LIKE search, same answers
    t = new_ticket(a, subject="Gearbox rattles at speed")
    assert found(a, "gearbox") == [t.number]
    # Any write of the indexed columns (here straight through the ORM) updates the index in its transaction.
    with runtime.db.transaction(DEMO) as s:
        row = s.get(SupportTicket, t.id)
        assert row is not None
        row.subject = "Clutch slips when cold"
        row.number = "TKT-2099-999999"
    assert found(a, "gearbox") == [] and found(a, "clutch slips") == ["TKT-2099-999999"]
    assert found(a, "TKT-2099-999999") == ["TKT-2099-999999"]
    sqlite = runtime.db.is_sqlite  # the index's own rows: SQLite (PostgreSQL reads the tables)
    assert not sqlite or fts_rows(runtime, t.id) == [(DEMO, "Clutch slips when cold")]
    # Changes of other columns leave the index alone; the ticket stays findable.
    execute(a, "support.tickets.update", ticket_id=t.id, body={"state": "resolved", "priority": "high"})
    assert found(a, "clutch") == ["TKT-2099-999999"] and (not sqlite or len(fts_rows(runtime, t.id)) == 1)
    # A new ticket is findable at once; a deleted one is gone from the index.
    n = new_ticket(a, subject="Clutch pedal squeaks")
    assert sorted(found(a, "clutch")) == sorted(["TKT-2099-999999", n.number])
    with runtime.db.transaction(DEMO) as s:
        s.delete(s.get(SupportTicket, n.id))
    assert found(a, "clutch") == ["TKT-2099-999999"] and (not sqlite or fts_rows(runtime, n.id) == [])
    assert not sqlite or integrity_ok(runtime)


def test_like_fallback_matches_the_fts_search(runtime: Runtime) -> None:
    """PostgreSQL (or an SQLite without FTS5) searches with LIKE on number, subject and e-mail."""
    a = agent(runtime)
    t = new_ticket(a)
    fts = {term: found(a, term) for term in ("capacitor", "northwind", t.number, "charged twice", "alice@exa")}
    runtime.provide(SearchState(ready=False))
    assert {term: found(a, term) for term in fts} == fts
    assert found(a, "firmware") == [t.number]  # the description is the first message


def test_search_finds_words_of_later_messages(runtime: Runtime) -> None:
    """A word a customer wrote in a reply (or an agent in an internal note) finds the ticket."""
    a, b = agent(runtime), agent(runtime, "owner@other.test", "other")
    t = new_ticket(a, subject="Printer offline")
    theirs = new_ticket(b, subject="Printer offline")
    reply = {"body": "Still broken after replacing the Zanzibar toner cartridge.", "internal": False}
    execute(a, "support.messages.create", ticket_id=t.id, body=reply)
    execute(b, "support.messages.create", ticket_id=theirs.id, body=reply)
    execute(a, "support.messages.create", ticket_id=t.id, body={"body": "Escalate to Quetzal team", "internal": True})
    assert found(a, "zanzibar") == [t.number] and found(b, "zanzibar") == [theirs.number]
    assert found(a, "quetzal") == [t.number]  # internal notes too: the search is for staff
    # Words may come from different places: the subject and a reply.
    assert found(a, "printer zanzibar") == [t.number] and found(a, "printer nowhere-word") == []
    assert found(a, "zanzibar toner cartridge") == [t.number]
    # The LIKE search (PostgreSQL) reads message text as well.
    runtime.provide(SearchState(ready=False))
    assert found(a, "zanzibar") == [t.number] and found(a, "printer quetzal") == [t.number]
    runtime.provide(SearchState())
    # A deleted ticket takes its messages out of the index (the messages' cascade and trigger).
    with runtime.db.transaction(DEMO) as s:
        s.delete(s.get(SupportTicket, t.id))
    assert found(a, "zanzibar") == [] and found(b, "zanzibar") == [theirs.number]
    if runtime.db.is_sqlite:
        with runtime.db.transaction(None) as s:
            s.execute(
                text(f"INSERT INTO {search.MESSAGES_FTS}({search.MESSAGES_FTS}, rank) VALUES ('integrity-check', 1)")
            )


def test_rebuild_refills_the_index(runtime: Runtime) -> None:
    a = agent(runtime)
    if not search.fts_available(a):
        pytest.skip("the FTS5 index is SQLite's")
    t = new_ticket(a, subject="Periscope fogged up")
    with runtime.db.transaction(None) as s:
        s.execute(text(f"INSERT INTO {search.FTS}({search.FTS}) VALUES ('delete-all')"))
    assert found(a, "periscope") == []
    with runtime.db.transaction(None) as s:
        search.rebuild(s)
    assert found(a, "periscope") == [t.number] and integrity_ok(runtime)


def test_queue_counts_match_the_lists(runtime: Runtime) -> None:
    a = agent(runtime)
    new_ticket(a)
    counts = execute(a, "support.queues").model_dump()
    for queue, n in counts.items():
        assert execute(a, "support.tickets.list", query={"queue": queue}).total == n, queue
    assert counts["all"] == 21
    # Another tenant's tickets are not counted.
    new_ticket(agent(runtime, "owner@other.test", "other"))
    assert execute(a, "support.queues").model_dump() == counts


def test_triage_model_is_cached_and_rebuilt_on_changes(runtime: Runtime) -> None:
    a = agent(runtime)
    body = {"subject": "Refund", "description": "I was charged twice on my card"}
    execute(a, "support.triage", body=body)
    cache = runtime.part(TriageCache).by_tenant
    first = cache[DEMO][1]
    execute(a, "support.triage", body=body)
    assert cache[DEMO][1] is first  # nothing changed: the same model
    new_ticket(a)  # a new open ticket is not in the corpus
    execute(a, "support.triage", body=body)
    assert cache[DEMO][1] is first
    # Resolving a ticket adds it to the corpus.
    t = new_ticket(a, subject="Gift card balance wrong", description="My gift card balance is wrong")
    execute(a, "support.tickets.update", ticket_id=t.id, body={"state": "resolved"})
    execute(a, "support.triage", body=body)
    second = cache[DEMO][1]
    assert second is not first and t.id in {x.id for x in second.tickets}
    # Reopening takes it out again (the version counter: the newest resolved time may not change).
    execute(a, "support.tickets.update", ticket_id=t.id, body={"state": "open"})
    execute(a, "support.triage", body=body)
    third = cache[DEMO][1]
    assert third is not second and t.id not in {x.id for x in third.tickets}
    # A new category is a new candidate.
    c = execute(a, "support.categories.create", body={"name": "Gift cards", "description": "Gift card balances",
                                                      "keywords": ["gift"]})  # fmt: skip
    g = execute(a, "support.triage", body={"subject": "gift card", "description": "gift card balance"})
    assert cache[DEMO][1] is not third and g.category_id == c.id
    # The cache is per tenant.
    execute(agent(runtime, "owner@other.test", "other"), "support.triage", body=body)
    assert cache[OTHER][1] is not cache[DEMO][1]
    with runtime.db.reading(DEMO) as s:
        assert s.execute(select(SupportTicket).where(SupportTicket.id == t.id)).scalar_one().state == "open"
    assert helpdesk.TRIAGE_COUNTER


def test_searches_with_many_hits_walk_the_index_and_give_the_same_page(runtime: Runtime, monkeypatch: Any) -> None:
    ctx = agent(runtime)
    for term in ("example", "order", "a"):
        for order in ("desc", "asc"):
            normal = execute(ctx, "support.tickets.list", query={"search": term, "limit": 5, "order": order,
                                                                  "sort": "updated_at"})  # fmt: skip
            monkeypatch.setattr(tickets, "MANY_HITS", 0)
            walked = execute(ctx, "support.tickets.list", query={"search": term, "limit": 5, "order": order,
                                                                  "sort": "updated_at"})  # fmt: skip
            monkeypatch.setattr(tickets, "MANY_HITS", 500)
            assert [t.id for t in walked.items] == [t.id for t in normal.items]
            assert walked.total == normal.total
    # The walk is what the plan runs: SQLite drives it by (tenant_id, updated_at), not by the hits.
    if not runtime.db.is_sqlite:
        return
    with runtime.db.reading(ctx.tenant_id) as s:
        stmt = select(SupportTicket.id).where(search.search_filter(ctx, "example", many_hits=True))
        stmt = stmt.order_by(SupportTicket.updated_at.desc()).limit(5)
        compiled = stmt.compile(runtime.db.engine)
        args = tuple(compiled.params[k] for k in compiled.positiontup or ())
        plan = s.connection().exec_driver_sql("EXPLAIN QUERY PLAN " + str(compiled), args).all()
    assert any("ix_support_tickets_tenant_updated" in str(row) for row in plan), plan
