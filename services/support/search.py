"""Ticket search: SQLite FTS5 trigram indexes over the ticket (number, subject, requester e-mail,
description) and over the text of every message, so words a customer wrote in a later reply find
the ticket.

* The trigram tokenizer matches substrings, case-insensitively, like the ``LIKE '%term%'`` it
  replaces; every whitespace-separated word of the search must occur, in any of the ticket's
  columns or in any of its messages (internal notes included: the search is for staff).
  Words shorter than 3 characters cannot use trigrams: they are checked with ``LIKE`` on the
  rows the other words selected (or on the whole tenant when no word is long enough).
* The index is kept in sync by SQL triggers on ``support_tickets`` (insert, delete, update of the
  indexed columns), so it changes in the same transaction as the ticket, whoever writes it.
* External content: the index keeps no copy of the text; its rowids are the tickets' rowids.
  ``tenant_id`` is a column of it (read from the ticket); the search joins the hits back to
  ``support_tickets`` by rowid, filters ``tenant_id`` explicitly, and the ORM's tenant scoping
  applies on top, so another tenant's ticket can never come back.
* PostgreSQL (or an SQLite without FTS5) uses the ``LIKE`` search. Both paths are the platform's
  (services/core/search.py), shared with the documentation's search.

The virtual tables and their triggers come from the migrations ``0402_support_fts`` and
``0403_support_message_fts`` (which also fill them from existing rows); ``local_db.base.UNMAPPED_TABLE_PREFIXES`` keeps them out
of the model/migration comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, column, literal_column, or_, select, table
from sqlalchemy.orm import Session

from local_db.models.support import SupportMessage, SupportTicket
from services.core.context import Ctx
from services.core.pagination import contains
from services.core.search import MIN_TRIGRAM, clean, fts_phrase, fts_tables

FTS = "support_ticket_search"
MESSAGES_FTS = "support_message_search"
BACKFILL = f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')"
NUMBER = re.compile(r"^(TKT-\d{4}-\d{6}|PROV-[\w-]+)$", re.IGNORECASE)

_fts = table(FTS, column("rowid"))
_messages_fts = table(MESSAGES_FTS, column("ticket_id"))
_ticket_rowid: ColumnElement[Any] = literal_column("support_tickets.rowid")
_ticket_rowid_walk: ColumnElement[Any] = literal_column("+support_tickets.rowid")


@dataclass
class SearchState:
    """Per runtime: whether the FTS5 indexes exist (looked up once)."""

    ready: bool | None = None
    messages: bool = False


def fts_available(ctx: Ctx) -> bool:
    """True where the migration created the FTS5 index (SQLite with FTS5); False means: search with LIKE."""
    state = ctx.runtime.part(SearchState)
    if state.ready is None:
        names = fts_tables(ctx, FTS, MESSAGES_FTS)
        state.ready, state.messages = FTS in names, MESSAGES_FTS in names
    return state.ready


def rebuild(s: Session) -> None:
    """Refill the indexes from the tickets and messages (after bulk loads that bypassed SQLite, or a repair)."""
    conn = s.connection()
    conn.exec_driver_sql(BACKFILL)
    if conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = ?", (MESSAGES_FTS,)).first():
        conn.exec_driver_sql(f"INSERT INTO {MESSAGES_FTS}({MESSAGES_FTS}) VALUES ('rebuild')")


def like_filter(words: list[str], *, messages: bool = False) -> ColumnElement[bool]:
    """Every word in the number, the subject or the e-mail (the search of DECISIONS.md, any
    database); with ``messages``, in the text of one of the ticket's messages as well."""
    T, M = SupportTicket, SupportMessage

    def one(w: str) -> ColumnElement[bool]:
        where = [
            contains(T.number, w),
            contains(T.subject, w),
            contains(T.requester_email, w),
        ]
        if messages:
            where.append(T.id.in_(select(M.ticket_id).where(contains(M.body, w))))
        return or_(*where)

    return and_(*(one(w) for w in words))


def search_filter(ctx: Ctx, text: str, *, many_hits: bool = False) -> ColumnElement[bool]:
    """The WHERE clause of a ticket search (tenant-filtered; combine with the ORM's own scoping).

    ``many_hits``: the search matches a large share of the tenant, so the page is found faster by
    walking the tickets in sort order and checking each against the hits than by looking up every
    hit and sorting them all; a unary ``+`` on the rowid keeps SQLite from driving the query by it.
    """
    T = SupportTicket
    text = clean(text)
    if NUMBER.match(text):
        # A whole ticket number: the unique (tenant_id, number) index.
        return T.number == text.upper()
    words = text.split() or [text]
    if not fts_available(ctx):
        return like_filter(words, messages=True)
    long = [w for w in words if len(w) >= MIN_TRIGRAM]
    short = [w for w in words if len(w) < MIN_TRIGRAM]
    if not long:
        return like_filter(short)
    # Joined back by rowid to the tickets, filtered by the tenant here and by the session's scoping.
    rowid = _ticket_rowid_walk if many_hits else _ticket_rowid
    with_messages = ctx.runtime.part(SearchState).messages
    if with_messages:
        # Word by word: one word may be in the subject and the next in a customer's reply.
        found = [
            or_(
                rowid.in_(select(_fts.c.rowid).where(literal_column(FTS).op("MATCH")(fts_phrase(w)))),
                T.id.in_(
                    select(_messages_fts.c.ticket_id).where(literal_column(MESSAGES_FTS).op("MATCH")(fts_phrase(w)))
                ),
            )
            for w in long
        ]
    else:
        query = " AND ".join(fts_phrase(w) for w in long)
        found = [rowid.in_(select(_fts.c.rowid).where(literal_column(FTS).op("MATCH")(query)))]
    cond = and_(T.tenant_id == ctx.tenant_id, *found)
    return and_(cond, like_filter(short)) if short else cond
