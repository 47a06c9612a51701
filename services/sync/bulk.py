"""A station's full pull (a new station, a re-download): the search indexes are set aside while
tens of thousands of records arrive and rebuilt in one pass at the end.

Each synced table that is searched on a station has an FTS5 index kept by triggers (one insert into
the index per row written). Fed page by page, the index grows in many small segments that SQLite
merges again and again: 50,000 tickets and replies cost about three times as long to write as
without it; ``'rebuild'`` reads the table once. Only triggers that write nothing but one
external-content FTS5 index are set aside (``rebuild`` restores exactly that index); their SQL is
kept in ``sync_suspended_triggers`` in the same transaction that drops them, so a station killed
mid-pull puts them back and rebuilds when it next starts (:func:`resume_search`).

The synced tables' other indexes (not unique: a unique one decides what an insert may do) are set
aside the same way and built again at the end (kept with an empty ``index_table``): one sort per
index over the finished table instead of a B-tree insert per index for every row written.
"""

from __future__ import annotations

import re

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from local_db.base import table_of
from local_db.models.sync import SyncSuspendedTrigger
from services.core.context import Runtime
from services.sync.protocol import synced_tables

# A full pull at least this long sets the indexes aside (a short catch-up keeps them live).
SUSPEND_FROM = 5_000
_KEPT = table_of(SyncSuspendedTrigger)
_CONTENT = re.compile(r"content\s*=\s*'([^']+)'", re.IGNORECASE)
_UNIQUE = re.compile(r"\s*CREATE\s+UNIQUE\b", re.IGNORECASE)
_WRITES = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([\w\"]+)", re.IGNORECASE)


def _index_triggers(conn: Connection) -> list[tuple[str, str, str]]:
    """(trigger, index, sql) of every trigger that only feeds one external-content FTS5 index."""
    indexes: dict[str, str] = {}
    for name, sql in conn.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'"
    ):
        m = _CONTENT.search(sql or "")
        if m:
            indexes[name] = m.group(1)
    found = []
    for name, table, sql in conn.exec_driver_sql(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'"
    ):
        targets = {t.strip('"') for t in _WRITES.findall(sql or "")}
        if len(targets) == 1:
            (index,) = targets
            if indexes.get(index) == table:
                found.append((name, index, sql))
    return found


def _plain_indexes(conn: Connection) -> list[tuple[str, str]]:
    """(index, sql) of every index of a synced table that is neither unique nor automatic."""
    synced = set(synced_tables())
    found = []
    for name, table, sql in conn.exec_driver_sql(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ):
        if table in synced and not _UNIQUE.match(sql or ""):
            found.append((name, sql))
    return found


def suspend_search(rt: Runtime) -> int:
    """Set the search-index triggers and the synced tables' plain indexes aside (SQLite
    stations); answers how many."""
    if not rt.db.is_sqlite:
        return 0
    with rt.db.engine.begin() as conn:
        kept = {r for (r,) in conn.execute(select(_KEPT.c.name))}
        triggers = [t for t in _index_triggers(conn) if t[0] not in kept]
        for name, index, sql in triggers:
            conn.execute(insert(_KEPT).values(name=name, index_table=index, sql=sql))
            conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
        indexes = [i for i in _plain_indexes(conn) if i[0] not in kept]
        for name, sql in indexes:
            conn.execute(insert(_KEPT).values(name=name, index_table="", sql=sql))
            conn.exec_driver_sql(f'DROP INDEX "{name}"')
    return len(triggers) + len(indexes)


def resume_search(rt: Runtime) -> int:
    """Put the set-aside triggers and indexes back and rebuild the search indexes from the tables
    (after a full pull, and at a station's start in case one was cut short); answers how many
    search indexes were rebuilt."""
    if not rt.db.is_sqlite:
        return 0
    with rt.db.engine.begin() as conn:
        rows = conn.execute(select(_KEPT.c.name, _KEPT.c.index_table, _KEPT.c.sql)).all()
        if not rows:
            return 0
        have = {n for (n,) in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'index')")}
        for name, _index, sql in rows:
            if name not in have:
                conn.exec_driver_sql(sql)  # a trigger, or an index built over the whole table
        indexes = sorted({index for _n, index, _s in rows if index})
        for index in indexes:
            conn.exec_driver_sql(f'INSERT INTO "{index}"("{index}") VALUES (\'rebuild\')')
        conn.execute(delete(_KEPT))
    return len(indexes)
