"""The platform's answers to a station catching up: the change log since a cursor, some
records' current rows, the record counts per table, the station's status."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, tuple_

from local_db.base import table_of
from local_db.models import Membership
from local_db.models.sync import SyncChange, SyncStation
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.roles import ANYONE
from services.sync import protocol as p
from services.sync.registry import authenticate
from services.sync.schemas import Change, CountsOut, PullOut, PullQuery, RowsQuery, SyncStatusOut

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
            t = tables[name]
            stmt = select(t).where(t.c.id.in_(ids))
            if "tenant_id" in t.c:
                stmt = stmt.where(t.c.tenant_id == ctx.tenant_id)
            for row in conn.execute(stmt).mappings():
                found[(name, row["id"])] = p.encode_row(t, row)
    out = []
    for name, rid, deleted in keys:
        data = found.get((name, rid))
        # A record gone since its change was logged is a deletion for the station.
        out.append(Change(table=name, id=rid, deleted=deleted or data is None, row=data))
    return out


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
    """The current state of some records (a station taking the platform's version after a conflict)."""
    authenticate(ctx, headers, f"rows:{query.ids}")
    ids = [i for i in query.ids.split(",") if i][:200]
    with ctx.read() as s:
        found = s.execute(
            select(_CH.c.table_name, _CH.c.row_id, _CH.c.deleted).where(
                _CH.c.tenant_id == ctx.tenant_id, _CH.c.row_id.in_(ids)
            )
        ).all()
    changes = _changes(ctx, [(r.table_name, r.row_id, bool(r.deleted)) for r in found])
    return PullOut(changes=changes, cursor="", more=False, serverTime=ctx.now())


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
    return CountsOut(counts=table_counts(ctx), cursor=_head(ctx), serverTime=ctx.now())


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
