"""The pull's fast paths against the typed ones, column by column, on every synced table: the
platform reads a page's rows straight from SQLite's driver (``pull._read_rows``) and a station
writes them the same way (``protocol.upsert_pulled``); both must give exactly the values of
SQLAlchemy's row processing with ``encode_row``, and of ``decode_row`` with ``upsert``."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import LargeBinary, Table, delete, select

from local_db.base import UTCDateTime
from services.core.context import Runtime
from services.core.demo import demo_id
from services.sync import protocol as p
from services.sync.pull import _read_rows
from services.sync.station import _cache_writer

TENANT = demo_id("tenant", "demo")
# The sample rows' tenant: one without records, so no unique key of the demo data is in the way.
SAMPLE_TENANT = "raw-sample-tenant"


def _sample(col: Any, at: datetime, k: int) -> Any:
    if col.name == "tenant_id":
        return SAMPLE_TENANT
    if col.name == "id":
        return f"raw-{k}"
    if isinstance(col.type, UTCDateTime):
        return at
    if isinstance(col.type, LargeBinary):
        return b"\x00\xffbytes"
    try:
        kind = col.type.python_type
    except NotImplementedError:
        return "x"
    samples: dict[type, Any] = {
        date: date(2024, 2, 29),
        Decimal: Decimal("1234.50"),
        bool: True,
        int: 42,
        float: 0.25,
        str: f"Ärger – 😀 {k}",
        dict: {"a": [1, "b"]} if k % 2 else {},
        list: [1, 2] if k % 2 else [],
    }
    return samples.get(kind, "x")


def _stored(conn: Any, t: Table, rid: str) -> list[tuple[Any, str]]:
    """The row as SQLite keeps it: each value with its type."""
    raw = conn.connection.driver_connection
    row = raw.execute(f'SELECT * FROM "{t.name}" WHERE id = ?', [rid]).fetchone()  # noqa: S608 - metadata names
    assert row is not None, (t.name, rid)
    return [(v, type(v).__name__) for v in row]


@pytest.mark.parametrize("micro", [5000, 0], ids=["microseconds", "whole-second"])
def test_raw_read_and_write_give_the_typed_paths_values_on_every_synced_table(runtime: Runtime, micro: int) -> None:
    at = datetime(2026, 2, 28, 23, 59, 1, micro, tzinfo=UTC)
    tables = p.synced_tables()
    with _cache_writer(runtime, TENANT) as conn:
        assert conn is not None
        for k, t in enumerate(tables.values()):
            if t.name in ("tenants", "users"):
                continue
            typed = {c.name: _sample(c, at, k) for c in t.columns}
            p.upsert(conn, t, [typed], ["id"])
            read = conn.execute(select(t).where(t.c.id == typed["id"])).mappings().one()
            (got,) = _read_rows(conn, t.name, [typed["id"]], SAMPLE_TENANT)
            assert got == (typed["id"], p.encode_row(t, read)), t.name
            # What a station writes from the wire is what the typed path wrote.
            wire = json.loads(json.dumps(got[1]))
            before = _stored(conn, t, typed["id"])
            conn.execute(delete(t).where(t.c.id == typed["id"]))
            p.upsert_pulled(conn, t, [wire])
            assert _stored(conn, t, typed["id"]) == before, t.name
            # And again over the row it now holds (the update of an upsert).
            p.upsert_pulled(conn, t, [wire])
            assert _stored(conn, t, typed["id"]) == before, t.name
        # A field this station does not know (a newer platform's column) is dropped, not an error.
        t = tables["support_tickets"]
        rid = f"raw-{list(tables).index('support_tickets')}"
        (got,) = _read_rows(conn, t.name, [rid], SAMPLE_TENANT)
        p.upsert_pulled(conn, t, [{**json.loads(json.dumps(got[1])), "column_of_tomorrow": 1}])


def test_a_record_of_another_tenant_is_not_read_even_by_its_id(runtime: Runtime) -> None:
    t = p.synced_tables()["support_tickets"]
    with _cache_writer(runtime, TENANT) as conn:
        assert conn is not None
        mine = conn.execute(select(t.c.id).where(t.c.tenant_id == TENANT).limit(1)).scalar_one()
        other = {c.name: _sample(c, datetime.now(UTC), 7) for c in t.columns}
        p.upsert(conn, t, [other], ["id"])
        got = [rid for rid, _ in _read_rows(conn, t.name, [mine, other["id"], "no-such-id"], TENANT)]
    assert got == [mine]
