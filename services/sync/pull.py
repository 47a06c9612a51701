"""The platform's answers to a station catching up: the change log since a cursor, some
records' current rows, the record counts per table, the station's status."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import Select, Table, bindparam, func, select, tuple_
from sqlalchemy.engine import Connection

from local_db.base import table_of
from local_db.models import Membership
from local_db.models.sync import SyncChange, SyncStation
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.roles import ANYONE
from services.sync import protocol as p
from services.sync.registry import authenticate
from services.sync.schemas import Change, CountsOut, IdsOut, IdsQuery, PullOut, PullQuery, RowsQuery, SyncStatusOut

_CH = table_of(SyncChange)


def _head(ctx: Ctx) -> str:
    with ctx.read() as s:
        row = s.execute(
            select(_CH.c.usn, _CH.c.table_name, _CH.c.row_id)
            .where(_CH.c.tenant_id == ctx.tenant_id)
            .order_by(_CH.c.usn.desc(), _CH.c.table_name.desc(), _CH.c.row_id.desc())
            .limit(1)
        ).first()
    return p.encode_cursor(*row) if row else ""


def _changes(ctx: Ctx, keys: list[tuple[str, str, bool]]) -> list[Change]:
    """The current rows of these (table, id, deleted) records, in the given order."""
    tables = p.synced_tables()
    wanted: dict[str, list[str]] = {}
    for name, rid, deleted in keys:
        if not deleted and name in tables:
            wanted.setdefault(name, []).append(rid)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    with ctx.read() as s:
        conn = s.connection()
        for name, ids in wanted.items():
            for rid, values in _read_rows(conn, name, ids, ctx.tenant_id):
                found[(name, rid)] = values
    out = []
    for name, rid, deleted in keys:
        data = found.get((name, rid))
        # A record gone since its change was logged is a deletion for the station.
        out.append({"table": name, "id": rid, "deleted": deleted or data is None, "row": data})
    # The page's changes validated in one call: a third cheaper than a Change(...) each (or
    # ``model_construct``, no quicker), measured on pages of a thousand.
    return _CHANGES.validate_python(out)


_CHANGES = TypeAdapter(list[Change])


def _read_rows(conn: Connection, name: str, ids: list[str], tenant_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, JSON values) of the records of a synced table with these ids, the tenant's only."""
    t = p.synced_tables()[name]
    if conn.dialect.name != "sqlite":
        for row in conn.execute(_rows_by_id(name), {"ids": ids, "t": tenant_id}).mappings():
            yield row["id"], p.encode_row(t, row)
        return
    # SQLite: straight from the driver, each value converted by its column's reader (SQLAlchemy's
    # row processing was most of a page's read). The tenant is checked here rather than in the
    # WHERE clause: without table statistics SQLite answered ``id IN (...) AND tenant_id = ?``
    # through the tenant index, reading every record of the tenant for each page (a 50,000-record
    # pull read the tables fifty times over).
    cols, plan, tenant_at = _raw_plan(conn.dialect, t)
    texts: dict[str, Any] = {}

    def parse(v: str) -> Any:
        # The same JSON text in many rows is parsed once (the rows are only written out again).
        got = texts.get(v)
        if got is None:
            got = texts[v] = json.loads(v)
        return got

    readers = [(c, parse if f is p.JSON_TEXT else f) for c, f in plan]
    raw = conn.connection.driver_connection
    assert raw is not None
    for k in range(0, len(ids), _IN_CHUNK):
        part = ids[k : k + _IN_CHUNK]
        sql = f'SELECT {cols} FROM "{name}" WHERE id IN ({",".join("?" * len(part))})'  # noqa: S608 - names from the metadata
        for values in raw.execute(sql, part):
            if tenant_at is not None and values[tenant_at] != tenant_id:
                continue
            yield (
                values[0],
                {c: v if f is None or v is None else f(v) for (c, f), v in zip(readers, values, strict=True)},
            )


@cache
def _rows_by_id(name: str) -> Select[Any]:
    """Some records of a synced table by id, the tenant's only (PostgreSQL): built once per table
    (SQLAlchemy then finds its compiled form by the statement's cache key)."""
    t = p.synced_tables()[name]
    stmt = select(t).where(t.c.id.in_(bindparam("ids", expanding=True)))
    if "tenant_id" in t.c:
        stmt = stmt.where(t.c.tenant_id == bindparam("t"))
    return stmt


_IN_CHUNK = 900  # ids per statement: under SQLite's oldest limit of 999 parameters


@cache
def _raw_plan(dialect: Any, t: Table) -> tuple[str, tuple[tuple[str, Any], ...], int | None]:
    """The column list (the id first), (column, reader or None) per column, and where the tenant
    is, for a synced table read straight from SQLite's driver."""
    columns = [t.c.id, *(c for c in t.columns if c.name != "id")]
    readers = tuple((c.name, p.json_reader(c, dialect)) for c in columns)
    names = [c.name for c in columns]
    return (
        ", ".join(f'"{n}"' for n in names),
        readers,
        names.index("tenant_id") if "tenant_id" in names else None,
    )


@use_case(
    "sync.pull",
    "GET /api/tenants/{tenant}/sync/pull",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="changes since a cursor, in pages",
)
def pull(ctx: Ctx, query: PullQuery, headers: dict[str, str | None]) -> PullOut:
    authenticate(ctx, headers, f"pull:{query.cursor}:{query.limit}")
    try:
        after = p.decode_cursor(query.cursor)
    except ValueError:
        raise ValidationFailed("cursor is not one this platform gave", {"cursor": query.cursor}) from None
    with ctx.read() as s:
        rows = s.execute(
            select(_CH.c.usn, _CH.c.table_name, _CH.c.row_id, _CH.c.deleted)
            .where(_CH.c.tenant_id == ctx.tenant_id, tuple_(_CH.c.usn, _CH.c.table_name, _CH.c.row_id) > after)
            .order_by(_CH.c.usn, _CH.c.table_name, _CH.c.row_id)
            .limit(query.limit + 1)
        ).all()
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    cursor = p.encode_cursor(*rows[-1][:3]) if rows else query.cursor
    changes = _changes(ctx, [(r.table_name, r.row_id, bool(r.deleted)) for r in rows])
    remaining = 0
    if more:
        with ctx.read() as s:
            remaining = s.execute(
                select(func.count())
                .select_from(_CH)
                .where(
                    _CH.c.tenant_id == ctx.tenant_id,
                    tuple_(_CH.c.usn, _CH.c.table_name, _CH.c.row_id) > p.decode_cursor(cursor),
                )
            ).scalar_one()
    return PullOut(changes=changes, cursor=cursor, more=more, serverTime=ctx.now(), remaining=int(remaining))


@use_case(
    "sync.rows",
    "GET /api/tenants/{tenant}/sync/rows",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="the current state of some records",
)
def rows(ctx: Ctx, query: RowsQuery, headers: dict[str, str | None]) -> PullOut:
    """The current state of some records (a station taking the platform's version after a
    conflict, or fetching the records a count check found missing)."""
    authenticate(ctx, headers, f"rows:{query.table}:{query.ids}" if query.table else f"rows:{query.ids}")
    ids = [i for i in query.ids.split(",") if i][:200]
    if query.table is not None:
        name = _synced(query.table)
        return PullOut(changes=_changes(ctx, [(name, i, False) for i in ids]), cursor="", more=False,
                       serverTime=ctx.now())  # fmt: skip
    with ctx.read() as s:
        found = s.execute(
            select(_CH.c.table_name, _CH.c.row_id, _CH.c.deleted).where(
                _CH.c.tenant_id == ctx.tenant_id, _CH.c.row_id.in_(ids)
            )
        ).all()
    changes = _changes(ctx, [(r.table_name, r.row_id, bool(r.deleted)) for r in found])
    return PullOut(changes=changes, cursor="", more=False, serverTime=ctx.now())


def _synced(name: str) -> str:
    if name not in p.synced_tables():
        raise ValidationFailed(f"{name} is not a synced table", {"table": name})
    return name


@use_case(
    "sync.counts",
    "GET /api/tenants/{tenant}/sync/counts",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="record counts per synced table",
)
def counts(ctx: Ctx, headers: dict[str, str | None]) -> CountsOut:
    """How many records of each synced table the tenant has (a station compares after a sync)."""
    authenticate(ctx, headers, "counts")
    return CountsOut(counts=table_counts(ctx), digests=table_digests(ctx), cursor=_head(ctx), serverTime=ctx.now())


@use_case(
    "sync.ids",
    "GET /api/tenants/{tenant}/sync/ids",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="the record ids of one synced table, in pages",
)
def ids(ctx: Ctx, query: IdsQuery, headers: dict[str, str | None]) -> IdsOut:
    """The ids of one table's records (a station narrowing a difference down to the records)."""
    authenticate(ctx, headers, f"ids:{query.table}:{query.after}:{query.limit}")
    name = _synced(query.table)
    with ctx.read() as s:
        got = table_ids(s.connection(), name, ctx.tenant_id, after=query.after, limit=query.limit + 1)
    return IdsOut(table=name, ids=got[: query.limit], more=len(got) > query.limit)


def _id_select(name: str, t: Table, tenant_id: str) -> Select[Any]:
    """The ids of the tenant's records in a synced table (the users: the tenant's members)."""
    if name == "tenants":
        return select(t.c.id.label("id")).where(t.c.id == tenant_id)
    if name == "users":
        m = table_of(Membership)
        return select(m.c.user_id.label("id")).where(m.c.tenant_id == tenant_id).distinct()
    return select(t.c.id.label("id")).where(t.c.tenant_id == tenant_id)


def table_ids(conn: Connection, name: str, tenant_id: str, *, after: str = "", limit: int | None = None) -> list[str]:
    """A synced table's record ids for the tenant, ordered by id (the database's order: the
    pages of one side are consistent; a digest sorts them again)."""
    sub = _id_select(name, p.synced_tables()[name], tenant_id).subquery()
    stmt = select(sub.c.id).order_by(sub.c.id)
    if after:
        stmt = stmt.where(sub.c.id > after)
    if limit is not None:
        stmt = stmt.limit(limit)
    return [str(i) for i in conn.execute(stmt).scalars()]


def ids_digest(ids: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()


def table_digests(ctx: Ctx) -> dict[str, str]:
    """Per synced table, the digest of the tenant's record ids (the same on a station holding
    exactly the platform's records)."""
    with ctx.read() as s:
        conn = s.connection()
        return {name: ids_digest(table_ids(conn, name, ctx.tenant_id)) for name in p.synced_tables()}


def table_counts(ctx: Ctx) -> dict[str, int]:
    out: dict[str, int] = {}
    with ctx.read() as s:
        conn = s.connection()
        for name, t in p.synced_tables().items():
            if name == "tenants":
                stmt = select(func.count()).select_from(t).where(t.c.id == ctx.tenant_id)
            elif name == "users":
                stmt = select(func.count(func.distinct(Membership.user_id))).where(
                    Membership.tenant_id == ctx.tenant_id
                )
            else:
                stmt = select(func.count()).select_from(t).where(t.c.tenant_id == ctx.tenant_id)
            out[name] = int(conn.execute(stmt).scalar_one())
    return out


@use_case(
    "sync.status",
    "GET /api/tenants/{tenant}/sync/status",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="the station's registration, sequence and the platform's clock",
)
def status(ctx: Ctx, headers: dict[str, str | None]) -> SyncStatusOut:
    caller = authenticate(ctx, headers, "status")
    with ctx.read() as s:
        last = s.execute(select(SyncStation.last_seq).where(SyncStation.id == caller.pk)).scalar_one()
    return SyncStatusOut(
        serverTime=ctx.now(), stationId=caller.station_id, name=caller.name, lastSeq=last, cursor=_head(ctx)
    )
