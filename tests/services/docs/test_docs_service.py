"""Documentation use cases through ``execute``: status and trash, categories, search (ranked, inside
words, snippets, filters), suggestions for a ticket, media checks, strangers."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from local_db.models.events import Event
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Forbidden, NotFound, PayloadTooLarge, ValidationFailed
from services.core.files import Upload
from services.docs import search as fts

OWNER = "owner@demo.test"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def event_types(rt: Runtime, doc_id: str) -> list[str]:
    with rt.db.reading(None) as s:
        rows = s.execute(select(Event).where(Event.type.like("docs.%")).order_by(Event.created_at)).scalars()
        return [e.type for e in rows if e.data.get("document_id") == doc_id]


def test_status_trash_and_restore(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    d = execute(
        ctx,
        "docs.documents.create",
        body={"title": "Conveyor lubrication", "body": "Oil weekly.", "tags": ["oil", "oil"]},
    )
    assert (d.status, d.tags) == ("draft", ["oil"])
    d = execute(ctx_for(runtime), "docs.documents.update", id=d.id, body={"status": "published"})
    assert d.status == "published" and d.published_at is not None
    d = execute(ctx_for(runtime), "docs.documents.update", id=d.id, body={"status": "archived"})
    execute(ctx_for(runtime), "docs.documents.delete", id=d.id, query={})
    with pytest.raises(NotFound):  # a trashed document is 404 on GET
        execute(ctx, "docs.documents.get", id=d.id)
    trash = execute(ctx, "docs.documents.list", query={"trashed": True})
    assert d.id in {x.id for x in trash.items} and demo_id("docs-document", "trashed") in {x.id for x in trash.items}
    back = execute(ctx_for(runtime), "docs.documents.restore", id=d.id)
    assert back.status == "archived" and back.deleted_at is None
    with pytest.raises(NotFound):  # not in the trash any more
        execute(ctx_for(runtime), "docs.documents.restore", id=d.id)
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "device@demo.test"), "docs.documents.delete", id=d.id, query={"permanent": True})
    execute(ctx_for(runtime), "docs.documents.delete", id=d.id, query={"permanent": True})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime), "docs.documents.restore", id=d.id)
    assert event_types(runtime, d.id) == [
        "docs.document_published",
        "docs.document_archived",
        "docs.document_trashed",
        "docs.document_restored",
        "docs.document_deleted",
    ]


def test_search_ranks_finds_inside_words_and_marks_snippets(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    assert fts.fts_available(ctx) == runtime.db.is_sqlite  # PostgreSQL: the ILIKE search
    body = "Die Vorlesepaten treffen sich montags. Lorem ipsum dolor sit amet."
    a = execute(ctx, "docs.documents.create", body={"title": "Vorlesepaten", "body": body, "status": "published"})
    b = execute(
        ctx,
        "docs.documents.create",
        body={"title": "Other", "body": "Kein lesen hier, nur Vorlesepaten.", "status": "published"},
    )
    draft = execute(ctx, "docs.documents.create", body={"title": "Vorlesepaten draft", "body": "draft"})
    hits = execute(ctx, "docs.documents.search", query={"q": "lese"}).items
    ids = [h.id for h in hits]
    assert ids[:2] == [a.id, b.id] and draft.id not in ids  # title hit first; drafts only when asked
    assert "<mark>" in hits[0].snippet and hits[0].score > hits[1].score > 0
    assert [h.id for h in execute(ctx, "docs.documents.search", query={"q": "lese", "status": "draft"}).items] == [
        draft.id
    ]
    # Every word must match; short words are checked too.
    assert [h.id for h in execute(ctx, "docs.documents.search", query={"q": "vorlese montags"}).items] == [a.id]
    assert [h.id for h in execute(ctx, "docs.documents.search", query={"q": "Vorlesepaten nur"}).items] == [b.id]
    # Demo articles, filtered by category; the trash never shows.
    cat = demo_id("docs-category", "returns")
    refunds = execute(ctx, "docs.documents.search", query={"q": "refund", "category_id": cat}).items
    assert refunds and all(h.category_id == cat for h in refunds)
    assert execute(ctx, "docs.documents.search", query={"q": "longer used"}).total == 0
    page = execute(ctx, "docs.documents.search", query={"q": "the", "limit": 2, "offset": 2})
    assert len(page.items) <= 2 and page.total >= 4
    for bad in ({"q": ""}, {"q": "x" * 201}, {"q": "x", "page": 0}):
        with pytest.raises(ValidationFailed):
            execute(ctx, "docs.documents.search", query=bad)
    assert execute(ctx, "docs.documents.search", query={"q": 'a"b\x00 OR NEAR('}).total == 0  # FTS syntax is text
    # Another tenant finds nothing of ours.
    assert (
        execute(ctx_for(runtime, "owner@other.test", "other"), "docs.documents.search", query={"q": "lese"}).total == 0
    )


def test_search_counts_to_a_cap_and_follows_every_change(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``TOTAL_CAP`` hits the total is the cap and ``total_capped`` says there are more (the
    ranking still orders them all); the index's scope table follows trash, status and category."""
    ctx = ctx_for(runtime)
    docs = [
        execute(
            ctx,
            "docs.documents.create",
            body={"title": f"Kalibrierung {n}", "body": "kalibrier " * (n + 1), "status": "published"},
        )
        for n in range(5)
    ]
    full = execute(ctx, "docs.documents.search", query={"q": "kalibrier"})
    assert (full.total, full.meta()["meta"]["total_capped"]) == (5, False)
    monkeypatch.setattr(fts, "TOTAL_CAP", 3)
    capped = execute(ctx, "docs.documents.search", query={"q": "kalibrier", "limit": 2, "offset": 2})
    assert (capped.total, capped.meta()["meta"]["total_capped"], capped.meta()["pagination"]["total_capped"]) == (
        3,
        True,
        True,
    )
    assert [h.id for h in capped.items] == [h.id for h in full.items[2:4]]  # the same ranking, paged
    monkeypatch.setattr(fts, "TOTAL_CAP", 5)  # exactly the cap: not capped
    assert execute(ctx, "docs.documents.search", query={"q": "kalibrier"}).meta()["meta"]["total_capped"] is False
    # Trash, status and category changes reach the search in the same transaction.
    execute(ctx_for(runtime), "docs.documents.delete", id=docs[0].id, query={})
    execute(ctx_for(runtime), "docs.documents.update", id=docs[1].id, body={"status": "archived"})
    cat = demo_id("docs-category", "returns")
    execute(ctx_for(runtime), "docs.documents.update", id=docs[2].id, body={"category_id": cat})
    left = {h.id for h in execute(ctx, "docs.documents.search", query={"q": "kalibrier"}).items}
    assert left == {d.id for d in docs[2:]}
    in_cat = execute(ctx, "docs.documents.search", query={"q": "kalibrier", "category_id": cat}).items
    assert [h.id for h in in_cat] == [docs[2].id]
    execute(ctx_for(runtime), "docs.documents.restore", id=docs[0].id)
    assert docs[0].id in {h.id for h in execute(ctx, "docs.documents.search", query={"q": "kalibrier"}).items}
    if fts.fts_available(ctx):  # the refill after a bulk load keeps the same answers
        with runtime.db.transaction(ctx.tenant_id) as s:
            fts.rebuild(s)
    assert {h.id for h in execute(ctx, "docs.documents.search", query={"q": "kalibrier"}).items} == left | {docs[0].id}
    # Marks in one pass: a word is never found inside another word's marks.
    assert fts.mark("Marmelade lesen", ["lese", "mar"]) == "<mark>Mar</mark>melade <mark>lese</mark>n"
    # A short word is checked on the text of the hits the scope kept.
    assert [h.id for h in execute(ctx, "docs.documents.search", query={"q": "kalibrier 4"}).items] == [docs[4].id]


def test_like_search_matches_the_same_way(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    with runtime.db.reading(ctx.tenant_id) as s:
        hits, total = fts._like_search(ctx, s, ["refund"], None, None, 10, 0, False)
        assert total >= 1 and any("<mark>" in h.snippet for h in hits)
        assert hits[0].title.startswith("Refunds")
        # A short page tells the total itself; a full one and an empty one past the start count.
        full, n = fts._like_search(ctx, s, ["the"], None, None, 100, 0, False)
        assert len(full) == n >= 4
        assert fts._like_search(ctx, s, ["the"], None, None, 2, 0, False)[1] == n
        assert fts._like_search(ctx, s, ["the"], None, None, 2, n - 1, False)[1] == n
        assert fts._like_search(ctx, s, ["the"], None, None, 2, n + 5, False) == ([], n)


def test_search_counts_only_when_the_page_cannot_tell(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page shorter than the limit holds the last hits: the total is its end and the count query
    does not run; a full page, or an empty one past the start, is counted (to the cap)."""
    ctx = ctx_for(runtime)
    if not fts.fts_available(ctx):
        pytest.skip("the index search only (the LIKE search's totals are checked above)")
    docs = [
        execute(ctx, "docs.documents.create", body={"title": f"Zählwerk {n}", "body": "zaehl", "status": "published"})
        for n in range(5)
    ]
    counts: list[int] = []
    real = fts._fts_statements

    class Counted:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def run(self, conn: Any, params: dict[str, Any]) -> Any:
            counts.append(1)
            return self.inner.run(conn, params)

    def spied(n_short: int, category: bool) -> Any:
        count, page, rows = real(n_short, category)
        return Counted(count), page, rows

    monkeypatch.setattr(fts, "_fts_statements", spied)

    def total(**query: Any) -> tuple[int, bool, int]:
        counts.clear()
        page = execute(ctx, "docs.documents.search", query={"q": "zaehl", **query})
        return page.total, page.meta()["meta"]["total_capped"], len(counts)

    assert total() == (5, False, 0)  # 5 rows of 20
    # Equal ranks: the document changed last first (the scope's updated_us, to the microsecond).
    order = [h.id for h in execute(ctx, "docs.documents.search", query={"q": "zaehl"}).items]
    assert order == [d.id for d in reversed(docs)]
    execute(ctx, "docs.documents.update", id=docs[1].id, body={"tags": ["neu"]})
    assert [h.id for h in execute(ctx, "docs.documents.search", query={"q": "zaehl"}).items][:2] == [
        docs[1].id,
        docs[4].id,
    ]
    assert total(limit=2, offset=4) == (5, False, 0)  # the last row
    # A full page ranked from the index alone, which read every hit, tells the total too.
    assert total(limit=2) == (5, False, 0)
    # Joined to the scope (as for a tenant with a small part of the index) a full page is counted.
    runtime.part(fts.SearchState).join_first[(ctx.tenant_id, "published", None)] = 10**6
    assert total(limit=2) == (5, False, 1)  # a full page: counted
    # Past the end: each group counted (title matches, then the rest), not 9 + 0.
    assert total(limit=2, offset=9) == (5, False, 2)
    assert total(q="nirgendwo") == (0, False, 0)
    # A category made after the scope's keys: its key is made by the document's change.
    cat = execute(ctx, "docs.categories.create", body={"name": "Zähler"}).id
    assert total(category_id=cat) == (0, False, 0)
    execute(ctx, "docs.documents.update", id=docs[3].id, body={"category_id": cat})
    hits = execute(ctx, "docs.documents.search", query={"q": "zaehl", "category_id": cat}).items
    assert [(h.id, h.category_id) for h in hits] == [(docs[3].id, cat)]
    monkeypatch.setattr(fts, "TOTAL_CAP", 3)  # the page's end past the cap says "at least" too
    assert total() == (3, True, 0)
    assert total(limit=2) == (3, True, 1)


def test_suggestions_for_a_ticket(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    text = "Tracking number does not work. Hello, my tracking number shows nothing since yesterday."
    hits = execute(ctx, "docs.documents.suggest", query={"text": text, "limit": 3}).items
    assert hits[0].id == demo_id("docs-document", "track-parcel")
    assert execute(ctx, "docs.documents.suggest", query={"text": "hello thanks"}).total == 0
    assert fts.suggestion_words("The refund, please! refund") == ["refund"]


def test_categories_form_a_tree(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    root = execute(ctx, "docs.categories.create", body={"name": "Zeta"})
    child = execute(ctx, "docs.categories.create", body={"name": "Child", "parent_id": root.id})
    rows = execute(ctx, "docs.categories.list", query={"limit": 100}).items
    names = [r.name for r in rows]
    assert names.index("Child") == names.index("Zeta") + 1
    assert next(r for r in rows if r.id == child.id).path == ["Zeta", "Child"]
    assert next(r for r in rows if r.name == "Machines").depth == 1
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.categories.create", body={"name": "x", "parent_id": "nope"})
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.documents.create", body={"title": "x", "category_id": "nope"})


def test_media_checks_and_strangers(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    did = demo_id("docs-document", "press-e42")
    m = execute(ctx, "docs.media.upload", id=did, upload=Upload("die.png", "image/png", PNG))
    assert (m.content_type, m.size) == ("image/png", len(PNG)) and m.url.endswith(f"/documents/{did}/media/{m.id}")
    assert execute(ctx, "docs.media.get", id=did, media_id=m.id).content == PNG
    assert [x.id for x in execute(ctx, "docs.media.list", id=did, query={}).items] == [m.id]
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.media.upload", id=did, upload=Upload("x.exe", "application/octet-stream", b"MZ\x00\x00\x90"))
    with pytest.raises(PayloadTooLarge):
        execute(
            ctx, "docs.media.upload", id=did, upload=Upload("big.txt", "text/plain", b"a" * (runtime.upload_limit + 1))
        )
    with pytest.raises(NotFound):
        execute(ctx_for(runtime, "owner@other.test", "other"), "docs.documents.get", id=did)
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "device@demo.test"), "docs.documents.list", query={})
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.documents.create", body={"title": "x", "status": "deleted"})


def test_scope_keys_migrate_down_and_up(runtime: Runtime) -> None:
    """Migration 1603 keeps the scope's texts as keys; down to 1602's texts and up again, the
    search answers the same (the backfill of either form)."""
    ctx = ctx_for(runtime)
    if not fts.fts_available(ctx):
        pytest.skip("the scope table is the index search's (SQLite)")
    from alembic import command

    from local_db.engine import alembic_config

    trashed = execute(ctx, "docs.documents.create", body={"title": "Ölwechsel", "body": "oel", "status": "published"})
    execute(ctx, "docs.documents.delete", id=trashed.id, query={})

    def answer() -> list[tuple[str, str, str, float]]:
        return [
            (h.id, h.status, h.snippet, h.score)
            for q in ("refund", "the", "Ölwechsel")
            for h in execute(ctx, "docs.documents.search", query={"q": q}).items
        ]

    before = answer()
    assert before and trashed.id not in {a[0] for a in before}
    cfg = alembic_config(runtime.db.engine)
    command.downgrade(cfg, "1602_docs_search_scope")  # named: later docs migrations (revisions) follow 1603
    with runtime.db.engine.connect() as c:
        cols = [r[1] for r in c.exec_driver_sql(f"PRAGMA table_info({fts.SCOPE})")]
        assert cols[1:] == ["tenant_id", "status", "category_id", "live", "updated_at"]
        assert c.exec_driver_sql(f"SELECT count(*) FROM {fts.SCOPE} WHERE live = 0").scalar() >= 2
    command.upgrade(cfg, "heads")
    assert answer() == before


def test_documents_written_by_a_pulls_upsert_reach_the_search(runtime: Runtime) -> None:
    """A station's pull writes documents by upsert (ON CONFLICT DO UPDATE): the index's triggers
    run under it (their conflict clauses yield to the upsert's) for a new row and a changed one."""
    from local_db.base import table_of
    from local_db.models.docs import DocDocument
    from services.sync.protocol import upsert

    ctx = ctx_for(runtime)
    doc = execute(
        ctx, "docs.documents.create", body={"title": "Zahnrad", "body": "zahnradpumpe", "status": "published"}
    )
    with runtime.db.transaction(ctx.tenant_id) as s:
        row = {
            c: v
            for c, v in s.execute(select(table_of(DocDocument)).where(table_of(DocDocument).c.id == doc.id))
            .mappings()
            .one()
            .items()
        }
    cat = demo_id("docs-category", "returns")
    twin = {**row, "id": "pulled-twin", "title": "Zahnrad zwei"}
    changed = {**row, "category_id": cat, "body": "zahnradpumpe und kupplung"}
    for _ in range(2):  # the same page applied twice (a pull resumed after a cut) changes nothing
        with runtime.db.transaction(ctx.tenant_id) as s:
            upsert(s.connection(), table_of(DocDocument), [changed, twin], ["id"])
    hits = execute(ctx, "docs.documents.search", query={"q": "kupplung"}).items
    assert [h.id for h in hits] == [doc.id]
    in_cat = execute(ctx, "docs.documents.search", query={"q": "zahnrad", "category_id": cat}).items
    assert [h.id for h in in_cat] == [doc.id]
    assert {h.id for h in execute(ctx, "docs.documents.search", query={"q": "zahnrad"}).items} == {
        doc.id,
        "pulled-twin",
    }


def test_ranking_from_the_index_alone_is_exact_or_not_used(runtime: Runtime) -> None:
    """Where a scope holds most of the index the page is ranked from the index alone and checked in
    the scope: its answers equal the ranking joined to the scope, for every page, status and tenant;
    where the scope holds little (drafts, another tenant), or ties make the last hits read unsure,
    it is not used, and that scope joins for a while before it is tried again."""
    ctx, other = ctx_for(runtime), ctx_for(runtime, "owner@other.test", "other")
    if not fts.fts_available(ctx):
        pytest.skip("the index search only")
    state = runtime.part(fts.SearchState)

    def make(c: Ctx, title: str, body: str, status: str = "published") -> str:
        return str(execute(c, "docs.documents.create", body={"title": title, "body": body, "status": status}).id)

    for n in range(40):  # ranks differ by the word's count, the text's length and the title
        make(ctx, f"Walzwerk {n}" if n % 7 == 0 else f"Anleitung {n}", "walze " * (n % 5 + 1) + "text " * n)
    for n in range(10):
        make(ctx, f"Entwurf {n}", "walze " * (n + 1), status="draft")
    for n in range(70):
        make(other, f"Walzen {n}", "walze " * (n % 3 + 1) + "mehr " * (n % 11))
    for _ in range(31):  # equal ranks, told apart by the time of change only
        make(ctx, "Gleich", "zwilling walze")

    def page(c: Ctx, **query: Any) -> tuple[list[tuple[str, float]], int]:
        found = execute(c, "docs.documents.search", query=query)
        return [(h.id, h.score) for h in found.items], found.total

    def both(c: Ctx, **query: Any) -> bool:
        """The same answer read first from the index alone and joined; whether the first was used."""
        state.join_first.clear()
        first = page(c, **query)
        used = not state.join_first
        scope = (c.tenant_id, query.get("status", "published"), query.get("category_id"))
        state.join_first[scope] = 10**6
        assert page(c, **query) == first, query
        return used

    assert both(ctx, q="walzwerk")  # the tenant's own word: every hit of the index is read
    for query in ({"q": "walze"}, {"q": "walze", "limit": 5, "offset": 7}, {"q": "walze text", "offset": 20}):
        both(ctx, **query)
        both(other, **query)
    assert both(other, q="walze", limit=3)  # 70 of 151 hits: enough among the best read
    assert not both(ctx, q="walze", status="draft")  # 10 drafts in 151 hits: joined
    assert not both(ctx, q="zwilling", limit=10)  # 31 equal ranks: the last read is not sure
    assert both(ctx, q="zwilling", limit=40)  # all 31 read: exact, the newest first
    # A scope that was not served from the index alone joins for a while, then is tried again.
    state.join_first.clear()
    page(ctx, q="walze", status="draft")
    scope = (ctx.tenant_id, "draft", None)
    assert state.join_first[scope] == fts.FIRST_TRY_AGAIN
    for _ in range(fts.FIRST_TRY_AGAIN):
        page(ctx, q="walze", status="draft")
    assert state.join_first[scope] == 0
    page(ctx, q="walze", status="draft")
    assert state.join_first[scope] == fts.FIRST_TRY_AGAIN


def test_title_matches_come_first_and_pages_cross_the_groups(runtime: Runtime) -> None:
    """An all-words search ranks the hits whose title holds every word first, each group by its
    bm25 (the LIKE search too); pages read across the two groups add up to the whole ranking."""
    ctx = ctx_for(runtime)

    def make(title: str, body: str) -> str:
        return str(execute(ctx, "docs.documents.create", body={"title": title, "body": body, "status": "published"}).id)

    long_title = make("Kurbelwelle wechseln", "text " * 200 + "kurbel")
    short_body = make("Anleitung", "kurbel " * 15)  # by bm25 of title and body together it ranks first
    both = make("Kurbel und Welle", "nichts weiter")
    half = make("Kurbel", "eine welle")  # one word in the title: the second group for "kurbel welle"
    rest = [make(f"Handbuch {n}", "kurbel " * (n + 1) + "seite " * n) for n in range(6)]

    def ids(q: str, **query: Any) -> tuple[list[str], list[float], int]:
        page = execute(ctx, "docs.documents.search", query={"q": q, **query})
        return [h.id for h in page.items], [h.score for h in page.items], page.total

    order, scores, total = ids("kurbel")
    titled = [long_title, both, half]
    assert set(order[:3]) == set(titled) and set(order[3:]) == {short_body, *rest} and total == 4 + len(rest)
    assert scores[:3] == sorted(scores[:3], reverse=True) and scores[3:] == sorted(scores[3:], reverse=True)
    if fts.fts_available(ctx):  # the whole query's bm25 alone ranks the short body above a title
        assert order[3] == short_body
        with runtime.db.engine.connect() as c:
            blended = c.exec_driver_sql(
                f"SELECT d.id FROM {fts.FTS} JOIN docs_documents AS d ON d.rowid = {fts.FTS}.rowid"
                f" WHERE {fts.FTS} MATCH '\"kurbel\"' AND d.tenant_id = ? ORDER BY bm25({fts.FTS}, 10.0, 1.0)",
                (ctx.tenant_id,),
            ).scalars()
            blended_order = list(blended)
        assert blended_order.index(short_body) < blended_order.index(long_title)
    # Two words: both in the title first (inside words too); one in the title, one in the body, after.
    two = ids("kurbel welle")[0]
    assert set(two[:2]) == {both, long_title} and two[2:] == [half]
    # A word too short for the index only filters: the title group is the indexed words'.
    assert ids("kurbel und")[0] == [both]
    # Pages across the groups' edge add up to the whole ranking, with the same total.
    for limit in (1, 2, 3, 4, 5):
        pages = [ids("kurbel", limit=limit, offset=o) for o in range(0, total + limit, limit)]
        assert [i for p in pages for i in p[0]] == order and {p[2] for p in pages} == {total}, limit
