"""Ticket search: an SQLite FTS5 trigram index over number, subject, requester e-mail and description.

* The trigram tokenizer matches substrings, case-insensitively, like the ``LIKE '%term%'`` it
  replaces; every whitespace-separated word of the search must occur (in any of the columns).
  Words shorter than 3 characters cannot use trigrams: they are checked with ``LIKE`` on the
  rows the other words selected (or on the whole tenant when no word is long enough).
* The index is kept in sync by SQL triggers on ``support_tickets`` (insert, delete, update of the
  indexed columns), so it changes in the same transaction as the ticket, whoever writes it.
* External content: the index keeps no copy of the text; its rowids are the tickets' rowids.
  ``tenant_id`` is a column of it (read from the ticket); the search joins the hits back to
  ``support_tickets`` by rowid, filters ``tenant_id`` explicitly, and the ORM's tenant scoping
  applies on top, so another tenant's ticket can never come back.
* PostgreSQL (or an SQLite without FTS5) uses the ``LIKE`` search.

The virtual table and its triggers come from the migration ``0402_support_fts`` (which also
fills the index from existing tickets); ``local_db.base.UNMAPPED_TABLE_PREFIXES`` keeps them out
of the model/migration comparison.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, column, literal_column, or_, select, table
from sqlalchemy.orm import Session

from local_db.models.support import SupportTicket
from services.core.context import Ctx

FTS = "support_ticket_search"
BACKFILL = f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')"
MIN_TRIGRAM = 3
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
NUMBER = re.compile(r"^(TKT-\d{4}-\d{6}|PROV-[\w-]+)$", re.IGNORECASE)

_fts = table(FTS, column("rowid"))
_ticket_rowid: ColumnElement[Any] = literal_column("support_tickets.rowid")
_ticket_rowid_walk: ColumnElement[Any] = literal_column("+support_tickets.rowid")
_lock = threading.Lock()


@dataclass
class SearchState:
    """Per runtime: whether the FTS5 index exists (looked up once)."""

    ready: bool | None = None


def fts_available(ctx: Ctx) -> bool:
    """True where the migration created the FTS5 index (SQLite with FTS5); False means: search with LIKE."""
    db = ctx.runtime.db
    if not db.is_sqlite:
        return False
    state = ctx.runtime.part(SearchState)
    if state.ready is None:
        with _lock, db.engine.connect() as conn:
            found = conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = ?", (FTS,)).first()
            state.ready = found is not None
    return state.ready


def rebuild(s: Session) -> None:
    """Refill the index from the tickets (after bulk loads that bypassed SQLite, or a repair)."""
    s.connection().exec_driver_sql(BACKFILL)


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def like_filter(words: list[str]) -> ColumnElement[bool]:
    """Every word in the number, the subject or the e-mail (the search of DECISIONS.md, any database)."""
    T = SupportTicket
    return and_(
        *(
            or_(
                T.number.ilike(_like(w), escape="\\"),
                T.subject.ilike(_like(w), escape="\\"),
                T.requester_email.ilike(_like(w), escape="\\"),
            )
            for w in words
        )
    )


def search_filter(ctx: Ctx, text: str, *, many_hits: bool = False) -> ColumnElement[bool]:
    """The WHERE clause of a ticket search (tenant-filtered; combine with the ORM's own scoping).

    ``many_hits``: the search matches a large share of the tenant, so the page is found faster by
    walking the tickets in sort order and checking each against the hits than by looking up every
    hit and sorting them all; a unary ``+`` on the rowid keeps SQLite from driving the query by it.
    """
    T = SupportTicket
    # Control characters (a NUL above all) are not text anyone searches for, and FTS5 refuses them.
    text = _CONTROL.sub(" ", text).strip()
    if NUMBER.match(text):
        # A whole ticket number: the unique (tenant_id, number) index.
        return T.number == text.upper()
    words = text.split() or [text]
    if not fts_available(ctx):
        return like_filter(words)
    long = [w for w in words if len(w) >= MIN_TRIGRAM]
    short = [w for w in words if len(w) < MIN_TRIGRAM]
    if not long:
        return like_filter(short)
    query = " AND ".join('"' + w.replace('"', '""') + '"' for w in long)
    hits = select(_fts.c.rowid).where(literal_column(FTS).op("MATCH")(query))
    # Joined back by rowid to the tickets, filtered by the tenant here and by the session's scoping.
    rowid = _ticket_rowid_walk if many_hits else _ticket_rowid
    cond = and_(T.tenant_id == ctx.tenant_id, rowid.in_(hits))
    return and_(cond, like_filter(short)) if short else cond
