"""What travels between a station and the platform, and how it is checked.

Every request of a station carries ``X-Station-Id``, ``X-Station-Timestamp``
(Unix seconds) and ``X-Station-Signature: sha256=<hex>``, an HMAC-SHA256 with
the station's secret over ``<timestamp>.<tenant slug>.<station id>.<purpose>``
where the purpose names the request (the push names every entry's signature,
which covers the entry's content). A timestamp more than five minutes from the
platform's clock is refused: that is also the station's clock check.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import LargeBinary, String, Table, cast, or_, select
from sqlalchemy.engine import Connection

from local_db.base import Base, UTCDateTime, table_of
from local_db.engine import Prepared
from services.core.commands import DELETE_BASE
from services.core.signing import sign

CLOCK_TOLERANCE = 300.0  # seconds
HEADER_STATION = "x-station-id"
HEADER_TIMESTAMP = "x-station-timestamp"
HEADER_SIGNATURE = "x-station-signature"
HEADERS = (HEADER_STATION, HEADER_TIMESTAMP, HEADER_SIGNATURE)


def request_signature(secret: str, timestamp: str, tenant: str, station_id: str, purpose: str) -> str:
    message = f"{timestamp}.{tenant}.{station_id}.{purpose}".encode()
    return sign(secret, message)


def push_purpose(signatures: list[str]) -> str:
    return "push:" + hashlib.sha256(",".join(signatures).encode()).hexdigest()


def signed_headers(secret: str, tenant: str, station_id: str, purpose: str, now: float) -> dict[str, str]:
    ts = str(int(now))
    return {
        HEADER_STATION: station_id,
        HEADER_TIMESTAMP: ts,
        HEADER_SIGNATURE: request_signature(secret, ts, tenant, station_id, purpose),
    }


def entry_hash(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


# --- the tables stations cache ------------------------------------------------------------


@cache
def synced_tables() -> dict[str, Table]:
    """Tables whose model says ``__synced__ = True``, parents before children."""
    import local_db.models  # noqa: F401 - registers every model

    names = {
        str(getattr(m.local_table, "name", "")) for m in Base.registry.mappers if getattr(m.class_, "__synced__", False)
    }
    return {t.name: t for t in Base.metadata.sorted_tables if t.name in names}


def encode_row(table: Table, row: Any) -> dict[str, Any]:
    """A row as JSON values: datetimes as ISO 8601, bytes as base64."""
    out: dict[str, Any] = {}
    for name, plain in _encoders(table):
        v = row[name]
        out[name] = v if plain or v is None else _json_value(v)
    return out


def _json_value(v: Any) -> Any:
    if isinstance(v, datetime | date):
        return v.isoformat()
    if isinstance(v, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(v, Decimal):
        return str(v)
    return v


@cache
def _encoders(table: Table) -> tuple[tuple[str, bool], ...]:
    """(column, whether its values go out as they are) per column, once per table: text, numbers
    and flags need no look at each value (a pull page has a thousand rows)."""
    return tuple((col.name, _python_type(col) in (str, int, bool, float)) for col in table.columns)


def decode_row(table: Table, data: dict[str, Any]) -> dict[str, Any]:
    """The inverse of ``encode_row``; unknown fields are dropped (a newer platform may send more)."""
    out: dict[str, Any] = {}
    for name, parse in _decoders(table):
        if name not in data:
            continue
        v = data[name]
        if parse is not None and isinstance(v, str):
            v = parse(v)
        out[name] = v
    return out


@cache
def _decoders(table: Table) -> tuple[tuple[str, Any], ...]:
    """(column, parser of its text or None) per column, worked out once per table (a full pull
    decodes fifty thousand rows)."""
    out = []
    for col in table.columns:
        parse = _PARSERS.get(_python_type(col))
        if parse is None and isinstance(col.type, LargeBinary):
            parse = base64.b64decode
        out.append((col.name, parse))
    return tuple(out)


# What ``encode_row`` wrote as text, read back by the column's Python type.
_PARSERS: dict[type | None, Any] = {datetime: datetime.fromisoformat, date: date.fromisoformat, Decimal: Decimal}


def _python_type(col: Any) -> type | None:
    if isinstance(col.type, UTCDateTime):
        return datetime
    try:
        return col.type.python_type  # type: ignore[no-any-return]
    except NotImplementedError:
        return None


def upsert(conn: Connection, table: Table, rows: list[dict[str, Any]], keys: list[str]) -> None:
    """INSERT ... ON CONFLICT DO UPDATE (SQLite and PostgreSQL): an update keeps the row
    (and so the search index triggers see an update, not a delete and an insert)."""
    if not rows:
        return
    dialect = conn.dialect.name
    # Imported here: the PostgreSQL dialect costs ~0.1 s of a station's start, which never uses it.
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql as mod
    else:
        from sqlalchemy.dialects import sqlite as mod  # type: ignore[no-redef]
    # One statement per column set: rows of one table share theirs.
    by_cols: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        by_cols.setdefault(tuple(sorted(r)), []).append(r)
    for cols, group in by_cols.items():
        key = (dialect, table, cols, tuple(keys))
        prepared = _UPSERTS.get(key)
        if prepared is None:
            # Built once per table and column set: ``excluded`` makes a new alias with a proxy per
            # column on every call (half of a change-log write's CPU, profiled on reservations).
            ins = mod.insert(table)
            updates = {c: ins.excluded[c] for c in cols if c not in keys}
            stmt = (
                ins.on_conflict_do_update(index_elements=keys, set_=updates)
                if updates
                else ins.on_conflict_do_nothing()
            )
            # Prepared: on SQLite the rows go to the driver's executemany as value lists, the
            # statement compiled once (SQLAlchemy's per-row parameter building was most of a
            # pulled page's write, and of a push chunk's change log).
            prepared = _UPSERTS[key] = Prepared(stmt)
        prepared.run_many(conn, group)


_UPSERTS: dict[tuple[str, Table, tuple[str, ...], tuple[str, ...]], Prepared] = {}


# --- cursors ----------------------------------------------------------------------------------


def encode_cursor(usn: int, table: str, row_id: str) -> str:
    return f"{usn}:{table}:{row_id}"


def decode_cursor(cursor: str) -> tuple[int, str, str]:
    """``""`` is the beginning; a malformed cursor is a ValueError."""
    if not cursor:
        return (0, "", "")
    usn, table, row_id = cursor.split(":", 2)
    return (int(usn), table, row_id)


# --- the version a station's delete names -------------------------------------------------------


def record_version(conn: Connection, tenant_id: str, rid: str) -> tuple[str, str] | None:
    """(table, version) of one record of the tenant: its ``updated_at`` where the table has one,
    else a digest of its row; None when no synced table holds it."""
    for name, t in synced_tables().items():
        if "tenant_id" not in t.c:
            continue
        row = conn.execute(select(t).where(t.c.id == rid, t.c.tenant_id == tenant_id)).mappings().first()
        if row is None:
            continue
        if "updated_at" in t.c and row["updated_at"] is not None:
            return name, row["updated_at"].astimezone(UTC).isoformat()
        encoded = json.dumps(encode_row(t, row), sort_keys=True, default=str)
        return name, "sha256:" + hashlib.sha256(encoded.encode()).hexdigest()
    return None


def delete_base(conn: Connection, tenant_id: str, rid: str) -> str | None:
    """The version a station's delete names: the record as the platform last sent it. None (a
    plain delete) when a change of this station still waiting to be sent touched the record:
    then the station's version is its own, not one the platform held."""
    from local_db.models import OutboxEntry

    ob = table_of(OutboxEntry)
    waiting = conn.execute(
        select(ob.c.seq)
        .where(
            ob.c.tenant_id == tenant_id,
            ob.c.status == "pending",
            or_(ob.c.path.contains(rid), cast(ob.c.ids, String).contains(rid)),
        )
        .limit(1)
    ).first()
    if waiting is not None:
        return None
    found = record_version(conn, tenant_id, rid)
    return found[1] if found else None


DELETE_BASE.append(delete_base)
