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
import sqlite3
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cache
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, LargeBinary, String, Table, cast, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

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


def json_reader(col: Any, dialect: Any) -> Any:
    """What turns a column's value as the driver answers it into its JSON value (as ``encode_row``
    writes it), or None when the value goes out as it is: the column type's own result processor
    then ``_json_value``; a UTC datetime stored as text on SQLite is read by ``datetime.fromisoformat``
    (C) rather than SQLAlchemy's regular expression."""
    kind = _python_type(col)
    if dialect.name == "sqlite":
        if kind is datetime:
            return _sqlite_utc_iso
        if isinstance(col.type, JSON):
            return JSON_TEXT
    proc = col.type.dialect_impl(dialect).result_processor(dialect, None)
    plain = kind in (str, int, bool, float)
    if proc is None:
        return None if plain else _json_value
    if plain:
        return proc
    return lambda v: _json_value(proc(v))


# The reader of a JSON column on SQLite: its text is parsed by the caller, once per distinct text
# in a page (most rows hold the same few: ``[]``, ``{}``).
JSON_TEXT = json.loads


def _sqlite_utc_iso(v: Any) -> Any:
    if not isinstance(v, str):
        return _json_value(v)
    d = datetime.fromisoformat(v)
    # SQLite holds naive UTC (``UTCDateTime``): the same value ``UTCDateTime`` reads, in ISO 8601.
    return (d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)).isoformat()


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


def upsert_pulled(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Write pulled rows (JSON values as they came, ``encode_row``'s form) by id.

    On SQLite each value goes from its JSON form to the text SQLite keeps in one step (a UTC
    datetime's ISO 8601 by slicing, not parsed into a ``datetime`` and formatted again by the
    column's bind processor) and the rows go to the driver's ``executemany``: the conversions were
    a third of a pulled page's write. The stored values are the ones ``decode_row`` and ``upsert``
    store (tests/sync/test_protocol_rows.py compares them column by column); other databases take
    that path.
    """
    if not rows:
        return
    plan = _sqlite_writers(conn.dialect, table) if conn.dialect.name == "sqlite" and conn.in_transaction() else None
    if plan is None:
        upsert(conn, table, [decode_row(table, r) for r in rows], ["id"])
        return
    # Rows of one table come with the same fields in the same order: grouped by their keys as sent.
    by_keys: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        by_keys.setdefault(tuple(r), []).append(r)
    raw = conn.connection.driver_connection
    for keys, group in by_keys.items():
        cols = tuple(c for c in keys if c in plan)  # a field this station does not know is dropped
        sql = _sqlite_upsert_sql(conn.dialect, table, cols) if cols else None
        if sql is None:
            upsert(conn, table, [decode_row(table, r) for r in group], ["id"])
            continue
        # Column by column: the values taken out of each row at once, then each column that needs
        # it converted in one loop.
        take = itemgetter(*cols)
        values = [list(take(r)) for r in group] if len(cols) > 1 else [[r[cols[0]]] for r in group]
        for j, c in enumerate(cols):
            w = plan[c]
            if w is not None:
                for v in values:
                    v[j] = w(v[j])
        try:
            raw.executemany(sql, values)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            raise DBAPIError.instance(sql, [], exc, sqlite3.Error, hide_parameters=True, dialect=conn.dialect) from exc


@cache
def _sqlite_writers(dialect: Any, table: Table) -> dict[str, Any]:
    """Per column, what turns its JSON value into the value SQLite keeps (None: as it is)."""
    out: dict[str, Any] = {}
    decoders = dict(_decoders(table))
    for col in table.columns:
        bind = col.type.dialect_impl(dialect).bind_processor(dialect)
        parse = decoders[col.name]
        if _python_type(col) is datetime:
            out[col.name] = _utc_iso_to_sqlite(parse, bind)
        elif isinstance(col.type, JSON) and parse is None and bind is not None:
            out[col.name] = _json_to_sqlite(bind)
        elif parse is None and bind is None:
            out[col.name] = None
        else:
            out[col.name] = _parse_then_bind(parse, bind)
    return out


def _parse_then_bind(parse: Any, bind: Any) -> Any:
    """``decode_row``'s parse (of text only), then the column's bind processor (of every value,
    None too: a JSON column keeps ``null``)."""

    def write(v: Any) -> Any:
        if parse is not None and isinstance(v, str):
            v = parse(v)
        return v if bind is None else bind(v)

    return write


def _json_to_sqlite(bind: Any) -> Any:
    """The JSON column's bind processor, with the text of the values most rows hold (none, an
    empty list or object) worked out once."""
    null, empty_list, empty_dict = bind(None), bind([]), bind({})

    def write(v: Any) -> Any:
        if v is None:
            return null
        if not v and type(v) is list:
            return empty_list
        if not v and type(v) is dict:
            return empty_dict
        return bind(v)

    return write


def _utc_iso_to_sqlite(parse: Any, bind: Any) -> Any:
    """``2026-02-28T23:59:01.005000+00:00`` to ``2026-02-28 23:59:01.005000`` (SQLAlchemy's
    SQLite form) by slicing; any other form through ``datetime`` and the bind processor."""
    slow = _parse_then_bind(parse, bind)

    def write(v: Any) -> Any:
        if type(v) is str and v.endswith("+00:00") and v[10:11] == "T":
            if len(v) == 32 and v[19] == ".":
                return f"{v[:10]} {v[11:26]}"
            if len(v) == 25:
                return f"{v[:10]} {v[11:19]}.000000"
        return None if v is None else slow(v)

    return write


@cache
def _sqlite_upsert_sql(dialect: Any, table: Table, cols: tuple[str, ...]) -> str | None:
    """The SQL ``upsert`` runs for this column set, its parameters in ``cols``' order; None when
    the statement needs more than the values (a default made in Python for a missing column)."""
    from sqlalchemy.dialects import sqlite

    ins = sqlite.insert(table)
    updates = {c: ins.excluded[c] for c in cols if c != "id"}
    stmt = ins.on_conflict_do_update(index_elements=["id"], set_=updates) if updates else ins.on_conflict_do_nothing()
    compiled: Any = stmt.compile(dialect=dialect, column_keys=list(cols))
    if compiled.insert_prefetch or list(compiled.positiontup or ()) != list(cols):
        return None
    return str(compiled.string)


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
