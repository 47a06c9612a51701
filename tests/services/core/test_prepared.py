"""Hot Core writes run straight on the SQLite driver: the same stored values as ``Connection.execute``,
the same errors, the same transaction."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, bindparam, insert, select, text
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.types import JSON

from local_db.engine import Prepared, make_engine

META = MetaData()
ROWS = Table(
    "rows",
    META,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("key", String(10), unique=True),
    Column("at", DateTime(timezone=True)),
    Column("data", JSON),
    Column("made", String(10), default="python"),  # a Python-side default: the usual path
)


def test_prepared_insert_stores_what_execute_stores_and_raises_its_errors(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    META.create_all(engine)
    at = datetime(2026, 5, 1, 12, 30, 1, 250, tzinfo=UTC)
    data = {"é": [1, 2.5, None], "n": {"k": "v"}}
    fast = Prepared(insert(ROWS))
    with engine.begin() as conn:
        conn.execute(insert(ROWS), {"key": "a", "at": at, "data": data, "made": "x"})
        assert fast.lastrowid(conn, {"key": "b", "at": at, "data": data, "made": "x"}) == 2
        assert fast.lastrowid(conn, {"key": "c", "at": at, "data": data}) == 3  # default: falls back
    with engine.connect() as conn:
        raw = conn.execute(text("SELECT key, at, data, made FROM rows ORDER BY seq")).all()
        assert raw[0][1:] == raw[1][1:]  # the very same stored text
        assert raw[2][3] == "python"
        assert conn.execute(select(ROWS.c.at, ROWS.c.data).where(ROWS.c.key == "b")).one() == (
            at.replace(tzinfo=None),
            data,
        )
    # A unique value taken: SQLAlchemy's IntegrityError, without the values; the transaction rolls back whole.
    with pytest.raises(IntegrityError) as e, engine.begin() as conn:
        fast.run(conn, {"key": "z", "at": at, "data": {}, "made": "x"})
        fast.run(conn, {"key": "a", "at": at, "data": {"secret": "s3cr3t"}, "made": "x"})
    assert "s3cr3t" not in str(e.value)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rows WHERE key = 'z'")).scalar() == 0
    engine.dispose()


def test_a_statement_carrying_literals_and_a_limit_runs_on_the_driver_with_the_same_answer(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    META.create_all(engine)
    at = datetime(2026, 5, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(insert(ROWS), [{"key": k, "at": at, "data": {}, "made": m} for k, m in [("a", "x"), ("b", "y")]])
    # A literal compared with, a literal datetime (its bind processor), LIMIT and OFFSET: all carried values.
    stmt = (
        select(ROWS.c.key)
        .where(ROWS.c.made == "y", ROWS.c.at >= datetime(2026, 1, 1, tzinfo=UTC), ROWS.c.key != bindparam("not_key"))
        .order_by(ROWS.c.key)
        .limit(1)
    )
    fast = Prepared(stmt)
    with engine.begin() as conn:
        assert conn.execute(stmt, {"not_key": "z"}).scalar() == "b"
        res = fast.run(conn, {"not_key": "z"})
        assert isinstance(res, sqlite3.Cursor)  # the driver's cursor: the fast way was taken
        assert res.fetchall() == [("b",)]
        assert fast.scalar(conn, {"not_key": "b"}) is None
    # A value given at each call (a required parameter left out) is not taken from the statement.
    with engine.begin() as conn, pytest.raises(StatementError):
        fast.run(conn, {})
    engine.dispose()
