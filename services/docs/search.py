"""Document search: an SQLite FTS5 trigram index over title and body, ranked by bm25, with snippets.

* The trigram tokenizer finds words inside words ("lese" finds "Vorlesepaten"), case-insensitively.
  Every whitespace-separated word of the query must occur; a title match weighs ten times a body
  match (bm25 column weights), and the hits whose title holds every word come first
  (``groups_of``; suggestions, which need any one word, rank all hits together). Words shorter
  than 3 characters cannot use trigrams: they are checked with ``LIKE`` on the rows the other
  words selected.
* The index is external content (no copy of the text) kept in step by triggers on
  ``docs_documents`` (migration ``1601_docs_fts``), so it changes in the transaction of the
  change, whoever writes it. Each hit's tenant, status, trash and category are checked in a
  narrow table by rowid (``docs_document_search_scope``, migrations ``1602``/``1603``, triggers too:
  its texts are small integer keys, so the table stays in SQLite's page cache), not
  in the documents' pages of text; the page's 20 rows alone are read whole.
* PostgreSQL (or an SQLite without FTS5) searches with ``ILIKE`` (the same inside-word matches)
  and scores title and body hits. Both searches cut the snippet in Python from the page's rows.
* A total is counted to ``TOTAL_CAP + 1`` at most: past the cap it says "at least". The page is
  read first: one that ends before the limit tells the total itself, and no count runs.
* Where the scope holds most of the index (a station's one tenant, its published documents), the
  ranking first reads the index alone, a few more hits than the page needs, and checks those in
  the scope: the join costs a fifth of a ranking with thousands of hits. It is exact or it is not
  used: the page is kept only if enough hits rank strictly better than the last one read (a hit
  not read ranks no better than that). Otherwise, and for a while after (``FIRST_TRY_AGAIN``
  searches of that scope), the ranking joins the scope as before.
"""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import String, and_, case, cast, func, literal, or_, select, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from local_db.engine import Prepared
from local_db.models.docs import DocDocument
from services.core.context import Ctx
from services.core.search import MIN_TRIGRAM, fts_phrase, fts_tables, has_word, like_pattern, words_of

FTS = "docs_document_search"
SCOPE = "docs_document_search_scope"  # tenant, status (NULL in the trash), category, updated_at by rowid
KEYS = "docs_document_search_keys"  # the scope's texts (tenant, status, category ids) as integers (1603)
# A search counts its hits up to this many; past it the total is "at least TOTAL_CAP".
TOTAL_CAP = 1000
TITLE_WEIGHT, BODY_WEIGHT = 10.0, 1.0
MARK, END = "<mark>", "</mark>"
SNIPPET_CHARS = 160
_WORD = re.compile(r"\w+", re.UNICODE)
# Words too common to say what a ticket is about (suggestions use the rest).
STOPWORDS = frozenset(
    [
        "about",
        "after",
        "again",
        "also",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "cannot",
        "could",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "from",
        "further",
        "have",
        "having",
        "here",
        "hers",
        "herself",
        "himself",
        "into",
        "itself",
        "just",
        "more",
        "most",
        "myself",
        "once",
        "only",
        "other",
        "ours",
        "over",
        "same",
        "should",
        "some",
        "such",
        "than",
        "that",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "under",
        "until",
        "very",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "whom",
        "will",
        "with",
        "would",
        "your",
        "yours",
        "yourself",
        "hello",
        "thanks",
        "thank",
        "please",
        "regards",
        "dear",
        "help",
        "need",
        "issue",
        "problem",
        "question",
    ]
)


# The index alone is read for this many candidates per hit the page needs (see the module's text).
FIRST_READ = 2
# After the index alone did not give a scope its page, that many of its searches join at once.
FIRST_TRY_AGAIN = 32
SCOPES_KEPT = 10_000


@dataclass
class SearchState:
    """Per runtime: whether the FTS5 index exists (looked up once); per scope (tenant, status,
    category) how many searches still skip the index-alone ranking (none: try it)."""

    ready: bool | None = None
    join_first: dict[tuple[str, str, str | None], int] = field(default_factory=dict)


@dataclass
class Hit:
    id: str
    title: str
    snippet: str
    score: float
    category_id: str | None
    status: str


def fts_available(ctx: Ctx) -> bool:
    state = ctx.runtime.part(SearchState)
    if state.ready is None:
        state.ready = FTS in fts_tables(ctx, FTS)
    return state.ready


# The platform's search paths (services/core/search.py), shared with the ticket search.
_like, _has, _fts_phrase = like_pattern, has_word, fts_phrase


def marker(words: list[str]) -> re.Pattern[str]:
    """The words as one pattern (longest first), so no word is found inside another's marks."""
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)


def mark(piece: str, words: list[str], found: re.Pattern[str] | None = None) -> str:
    """Every occurrence of the words marked (case-insensitively, inside words too); ``found``: the
    words' ``marker``, made once for a page of snippets.

    A snippet is HTML (its ``<mark>`` tags are meant to be rendered), so this is where its text is
    escaped, once: the document's own markup arrives as text (``&lt;img ...&gt;``), never as tags."""
    if not words:
        return html.escape(piece, quote=False)
    out: list[str] = []
    at = 0
    for m in (found or marker(words)).finditer(piece):
        out.append(html.escape(piece[at : m.start()], quote=False))
        out.append(MARK + html.escape(m.group(0), quote=False) + END)
        at = m.end()
    out.append(html.escape(piece[at:], quote=False))
    return "".join(out)


def snippet_of(body: str, words: list[str], found: re.Pattern[str] | None = None) -> str:
    """A window of the body around the first hit, hits marked (the LIKE search's snippet)."""
    low = body.lower()
    pos = min((p for p in (low.find(w.lower()) for w in words) if p >= 0), default=-1)
    if pos < 0:
        piece = html.escape(body[:SNIPPET_CHARS], quote=False)
        return piece + ("…" if len(body) > SNIPPET_CHARS else "")
    start = max(0, pos - SNIPPET_CHARS // 3)
    piece = mark(body[start : start + SNIPPET_CHARS], words, found)
    return ("…" if start > 0 else "") + piece + ("…" if start + SNIPPET_CHARS < len(body) else "")


def _filters(ctx: Ctx, status: str | None, category_id: str | None) -> list[ColumnElement[bool]]:
    D = DocDocument
    conds: list[ColumnElement[bool]] = [D.tenant_id == ctx.tenant_id, D.deleted_at.is_(None)]
    conds.append(D.status == (status or "published"))
    if category_id:
        conds.append(D.category_id == category_id)
    return conds


_QUOTED = re.compile(r'"([^"]*)"')


def terms_of(q: str) -> list[str]:
    """The search's terms: each quoted phrase one term (its words in that order, matched as one
    piece of text), and the other words one term each. An unmatched quote is taken as text."""
    phrases = [" ".join(p.split()) for p in _QUOTED.findall(q)]
    rest = _QUOTED.sub(" ", q)
    terms = [p for p in phrases if p] + words_of(rest) if rest.strip() else [p for p in phrases if p]
    return list(dict.fromkeys(terms))


def search(
    ctx: Ctx,
    s: Session,
    q: str,
    *,
    status: str | None,
    category_id: str | None,
    limit: int,
    offset: int,
    any_word: bool = False,
) -> tuple[list[Hit], int]:
    """Ranked hits (best first) and their total, counted to ``TOTAL_CAP + 1`` at most (more than
    ``TOTAL_CAP`` says "at least that many"). ``any_word``: a hit needs one word, not all."""
    words = terms_of(q)
    if not words:
        return [], 0
    long = [w for w in words if len(w) >= MIN_TRIGRAM]
    short = [w for w in words if len(w) < MIN_TRIGRAM]
    if fts_available(ctx) and long and not (any_word and short):
        return _fts_search(ctx, s, long, short, status, category_id, limit, offset, any_word)
    return _like_search(ctx, s, words, status, category_id, limit, offset, any_word)


def _key(value: str) -> str:
    return f"(SELECT key FROM {KEYS} WHERE value = {value})"


def _total_of_page(found: int, limit: int, offset: int) -> int | None:
    """The total a page tells by itself (``None``: count the hits): a page that ends before the
    limit holds the last hits, so they number ``offset + found``. An empty page past the start
    tells nothing (the hits may end before the offset). Callers cap it as a count is capped."""
    if found >= limit or (found == 0 and offset > 0):
        return None
    return offset + found


@functools.lru_cache(maxsize=64)
def _fts_statements(n_short: int, category: bool) -> tuple[Prepared, Prepared, Prepared]:
    """The count, the ranked page and the page's rows for a shape of query (how many short words,
    a category or not), built once: run straight on the driver (``Prepared``), a search's three
    statements cost no SQLAlchemy compile or result machinery each time."""
    # The scope holds keys, not texts (migration 1603): each text's key is looked up once a query.
    where = [f"{FTS} MATCH :match", *_in_scope("k", category)]
    joins = f"CROSS JOIN {SCOPE} AS k ON k.rowid = {FTS}.rowid"
    if n_short:  # words too short for trigrams: LIKE on the text of the hits the scope kept
        joins += " CROSS JOIN docs_documents AS d ON d.rowid = k.rowid"
    where += [f"(d.title LIKE :w{n} ESCAPE '\\' OR d.body LIKE :w{n} ESCAPE '\\')" for n in range(n_short)]
    source = f"FROM {FTS} {joins} WHERE " + " AND ".join(where)
    # Counted to TOTAL_CAP + 1 at most: past the cap the total says "at least" (a common word's
    # 50,000 hits are not walked twice); the ranking still orders all of them.
    count = text(f"SELECT count(*) FROM (SELECT 1 {source} LIMIT :most)")
    # The page first (bm25 only), then the text of its rows alone: in one query SQLite would read
    # every hit's text (and cut its snippet) before sorting, which is what makes a common word slow.
    page = text(
        f"SELECT k.rowid, bm25({FTS}, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS rank {source}"
        " ORDER BY rank, k.updated_us DESC LIMIT :limit OFFSET :offset"
    )
    # The page's rowids as one JSON list: one statement for any page length.
    rows = text(
        "SELECT rowid, id, title, category_id, status, body FROM docs_documents"
        " WHERE rowid IN (SELECT value FROM json_each(:rowids))"
    )
    return Prepared(count), Prepared(page), Prepared(rows)


def _in_scope(k: str, category: bool) -> list[str]:
    where = [f"{k}.tenant = {_key(':tenant')}", f"{k}.shown = {_key(':status')}"]
    if category:
        where.append(f"{k}.category = {_key(':category')}")
    return where


@functools.lru_cache(maxsize=4)
def _first_statements(category: bool) -> tuple[Prepared, Prepared]:
    """The index-alone ranking (the best ``:most`` hits of every tenant and status) and the check of
    its rowids in the scope, with each one's tie-break."""
    ranked = text(
        f"SELECT rowid, bm25({FTS}, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS rank FROM {FTS}"
        f" WHERE {FTS} MATCH :match ORDER BY rank LIMIT :most"
    )
    kept = text(
        f"SELECT k.rowid, k.updated_us FROM {SCOPE} AS k WHERE k.rowid IN (SELECT value FROM json_each(:rowids))"
        " AND " + " AND ".join(_in_scope("k", category))
    )
    return Prepared(ranked), Prepared(kept)


def _ranked_first(
    conn: Any, params: dict[str, Any], category: bool, limit: int, offset: int
) -> tuple[list[Any], int | None] | None:
    """The page ranked from the index alone and checked in the scope, with the exact number of hits
    when every hit of the index was read; ``None`` when that cannot give the page exactly."""
    ranked, kept = _first_statements(category)
    most = FIRST_READ * (offset + limit) + 10
    read = ranked.run(conn, {"match": params["match"], "most": most}).fetchall()
    rank_of = {int(rid): float(r) for rid, r in read}
    scoped = {k: v for k, v in params.items() if k != "match"}
    order = sorted(
        (rank_of[int(rid)], -(up or 0), int(rid))
        for rid, up in kept.run(conn, {**scoped, "rowids": json.dumps(list(rank_of))}).fetchall()
    )
    if len(read) < most:  # every hit of the index was read: the page and the total are exact
        return [(rid, r) for r, _up, rid in order[offset : offset + limit]], len(order)
    # A hit not read ranks no better than the last one read: only those strictly better are sure.
    last = float(read[-1][1])
    sure = [o for o in order if o[0] < last]
    if len(sure) < offset + limit:
        return None
    return [(rid, r) for r, _up, rid in sure[offset : offset + limit]], None


def groups_of(words: str) -> tuple[str, ...]:
    """The groups of an all-words query (FTS5 syntax), ranked in turn: the hits whose title holds
    every word, by the bm25 of that title match (how often the title holds the words, how long the
    document is), then the rest by the query's bm25 (the title group nearly always scores above the
    rest too). Why groups: a reader looks for the article about the words first (Algolia and
    Meilisearch rank by the attribute matched before anything else), and the title match reads
    only the title's instances, where one bm25 over the whole query scores every hit's title and
    body: most of a search's time when thousands match."""
    title = f"title : ({words})"
    return title, f"({words}) NOT {title}"


@dataclass
class _Ranking:
    """One search's ranking: its statements, parameters and whether the index alone is tried."""

    conn: Any
    params: dict[str, Any]
    category: bool
    page: Prepared
    count: Prepared
    first: bool
    missed: bool = False

    def group(self, match: str, limit: int, offset: int) -> tuple[list[Any], int | None]:
        """A page of one group's hits and, when it is known without counting, their number."""
        params = {**self.params, "match": match}
        if self.first:
            found = _ranked_first(self.conn, params, self.category, limit, offset)
            if found is not None:
                return found
            self.missed = True
        rows = self.page.run(self.conn, {**params, "limit": limit, "offset": offset}).fetchall()
        return rows, _total_of_page(len(rows), limit, offset)

    def counted(self, match: str, most: int) -> int:
        return int(self.count.run(self.conn, {**self.params, "match": match, "most": most}).fetchone()[0])


def _grouped_page(
    rank: _Ranking, matches: list[str], whole: str, limit: int, offset: int
) -> tuple[list[Any], int | None]:
    """The page over the groups in turn (each group's hits after the last one's), and the exact total
    when the page ends before the limit (``None``: a full page, count the hits). When the groups
    before the last had no hits, the last is ranked as the ``whole`` query (the same hits and ranks
    in fewer steps: a word in no title)."""
    rows: list[Any] = []
    before = 0  # the hits of the groups already passed
    for i, match in enumerate(matches):
        last = i == len(matches) - 1
        if last and not before:
            match = whole
        skip = max(0, offset - before)
        got, n = rank.group(match, limit - len(rows), skip)
        rows += got
        if len(rows) >= limit:  # the last group's number, when known, ends the total too
            return rows, before + n if n is not None and last else None
        # This group ended before the page's end; a page past its end counts it (it has at most skip).
        before += n if n is not None else rank.counted(match, skip + 1)
    return rows, before


def _fts_search(
    ctx: Ctx,
    s: Session,
    long: list[str],
    short: list[str],
    status: str | None,
    category_id: str | None,
    limit: int,
    offset: int,
    any_word: bool,
) -> tuple[list[Hit], int]:
    """The index drives the query (``CROSS JOIN`` keeps SQLite from walking the tenant's documents
    and probing the index once each); each hit is checked in the narrow scope table (migration
    ``1603``: tenant, status or trash, category as keys, by rowid), never in the documents' pages of text.
    An all-words query ranks the hits whose title holds every word first (``groups_of``)."""
    words = (" OR " if any_word else " AND ").join(_fts_phrase(w) for w in long)
    params: dict[str, Any] = {"tenant": ctx.tenant_id, "status": status or "published"}
    if category_id:
        params["category"] = category_id
    for n, w in enumerate(short):
        params[f"w{n}"] = _like(w)
    count, page, text_of = _fts_statements(len(short), bool(category_id))
    first = False
    scope = (ctx.tenant_id, params["status"], category_id)
    join_first = ctx.runtime.part(SearchState).join_first
    if not short:
        skip = join_first.get(scope, 0)
        if skip:
            join_first[scope] = skip - 1
        first = not skip
    rank = _Ranking(s.connection(), params, bool(category_id), page, count, first)
    rows, total = _grouped_page(rank, [words] if any_word else list(groups_of(words)), words, limit, offset)
    if rank.missed:
        if len(join_first) >= SCOPES_KEPT:
            join_first.clear()
        join_first[scope] = FIRST_TRY_AGAIN
    if total is None:
        total = rank.counted(words, TOTAL_CAP + 1)
    total = min(total, TOTAL_CAP + 1)
    if not rows:
        return [], int(total)
    found: dict[int, tuple[str, str, str | None, str, str]] = {}
    rowids = "[" + ",".join(str(int(r[0])) for r in rows) + "]"
    for rid, did, title, cat, st, body in text_of.run(rank.conn, {"rowids": rowids}).fetchall():
        found[int(rid)] = (did, title, cat, st, body or "")
    found_mark = marker(long)
    hits = []
    for rid, r in rows:
        did, title, cat, st, body = found[int(rid)]
        # The snippet is cut here, as the LIKE search cuts it: FTS5's snippet() tokenizes each
        # body into trigrams again, which cost a third of a search's time.
        snip = snippet_of(body, long, found_mark) if body else mark(title, long, found_mark)
        hits.append(Hit(did, title, snip, round(-float(r), 6), cat, st))
    return hits, int(total)


def _like_search(
    ctx: Ctx,
    s: Session,
    words: list[str],
    status: str | None,
    category_id: str | None,
    limit: int,
    offset: int,
    any_word: bool,
) -> tuple[list[Hit], int]:
    D = DocDocument
    per_word = [or_(_has(D.title, w), _has(D.body, w)) for w in words]
    found = or_(*per_word) if any_word else and_(*per_word)
    conds = [*_filters(ctx, status, category_id), found]
    score: Any = literal(0.0)
    for w in words:
        score = (
            score + case((_has(D.title, w), TITLE_WEIGHT), else_=0.0) + case((_has(D.body, w), BODY_WEIGHT), else_=0.0)
        )
    # As the index search: an all-words query ranks the hits whose title holds every word (of the
    # index's length) first.
    titled = [w for w in words if len(w) >= MIN_TRIGRAM] or words
    groups = [] if any_word else [case((and_(*[_has(D.title, w) for w in titled]), 0), else_=1)]
    stmt = (
        select(D.id, D.title, D.category_id, D.status, D.body, score.label("score"))
        .where(*conds)
        .order_by(*groups, text("score DESC"), D.updated_at.desc())
        .limit(limit)
        .offset(offset)
    )
    found_mark = marker(words)
    hits = [
        Hit(did, title, snippet_of(body or "", words, found_mark), float(sc), cat, st)
        for did, title, cat, st, body, sc in s.execute(stmt)
    ]
    total = _total_of_page(len(hits), limit, offset)
    if total is None:
        counted = select(D.id).where(*conds).limit(TOTAL_CAP + 1).subquery()
        total = s.execute(select(func.count()).select_from(counted)).scalar_one()
    return hits, min(int(total), TOTAL_CAP + 1)


def suggestion_words(text_: str, most: int = 12) -> list[str]:
    """The words of a ticket worth searching the knowledge base for (longest first)."""
    seen = dict.fromkeys(w.lower() for w in _WORD.findall(text_) if len(w) >= 4 and not w.isdigit())
    words = [w for w in seen if w not in STOPWORDS]
    return sorted(words, key=len, reverse=True)[:most]


def tag_filter(tag: str) -> ColumnElement[bool]:
    """A document carrying ``tag`` (tags are a JSON list; its text holds the quoted tag)."""
    return cast(DocDocument.tags, String).like(_like('"' + tag + '"'), escape="\\")


def rebuild(s: Session) -> None:
    """Refill the index from the documents (after bulk loads that bypassed the triggers)."""
    conn = s.connection()
    conn.exec_driver_sql(f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')")
    conn.exec_driver_sql(f"DELETE FROM {SCOPE}")
    # As the migration 1603 fills it (its BACKFILL).
    conn.exec_driver_sql(
        f"INSERT OR IGNORE INTO {KEYS}(value) SELECT tenant_id FROM docs_documents UNION SELECT status FROM"
        " docs_documents UNION SELECT category_id FROM docs_documents WHERE category_id IS NOT NULL"
    )
    shown = f"CASE WHEN d.deleted_at IS NULL THEN {_key('d.status')} END"
    micros = (
        "CAST(strftime('%s', d.updated_at) AS INTEGER) * 1000000"
        " + CAST(substr(d.updated_at || '000000', 21, 6) AS INTEGER)"
    )
    conn.exec_driver_sql(
        f"INSERT INTO {SCOPE}(rowid, tenant, shown, category, updated_us) SELECT d.rowid, {_key('d.tenant_id')},"
        f" {shown}, {_key('d.category_id')}, {micros} FROM docs_documents AS d"
    )
