"""Many rows in one statement: the hot batched writes of webhook delivery (fan-out rows, attempts)."""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection

from local_db.engine import Prepared


class Many(Prepared):
    """A Core statement run for many rows at once; on SQLite straight on the driver's
    ``executemany`` (compiled once, values through the same bind processors as
    ``Connection.execute``): SQLAlchemy's per-row parameter handling cost more than the rows'
    writes. Other databases, and anything the plan cannot take, go through ``conn.execute``."""

    def run_many(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        plan = self._plan(conn, frozenset(rows[0])) if conn.dialect.name == "sqlite" and conn.in_transaction() else None
        if plan is None:
            conn.execute(self.stmt, rows)
            return
        sql, binds = plan
        values = [tuple(p(r[k]) if p is not None else r[k] for k, p in binds) for r in rows]
        try:
            conn.connection.driver_connection.executemany(sql, values)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            raise sa_exc.DBAPIError.instance(
                sql, values, exc, sqlite3.Error, hide_parameters=True, dialect=conn.dialect
            ) from exc
