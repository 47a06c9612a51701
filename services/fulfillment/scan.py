"""The scan's own path: an order and its lines as plain rows, the picked counts written by Core.

Every item a packer scans is one ``fulfillment.orders.operate`` pick. Loading the order and its
lines as ORM objects and flushing the change cost about 0.9 ms of a 1.4 ms call (issue 38: a
scan <= 0.5 ms). Here the order and its lines come in one compiled statement as plain objects;
``orders._pick`` (the one set of pick rules) runs on them unchanged; the changed lines and the
order's ``updated_at`` go back in prepared UPDATEs on the unit of work's connection.

``load`` answers None, and the caller takes the ORM path, wherever this path could differ from it:
an order given by number or pick-list barcode (not by id), an order that is not pending, a pick
that could complete the order (its state move and ``order.picked`` event, whose reactions read the
order: they must see it flushed), an item that carries more than a code and a quantity, or a
session that already holds objects (a Core write would leave them stale). Nothing is written
before that choice, so the ORM path then gives the same answer and the same errors.
"""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select, update
from sqlalchemy.orm import Session

from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder
from services.core.context import Ctx
from services.fulfillment.schemas import PickOperation
from services.sync.changelog import log_written_tables

_ORDERS = table_of(FulfillmentOrder)
_LINES = table_of(FulfillmentLine)
_LINE_PREFIX = "l_"
# The order's columns, then its lines' as l_<name>: one row per line (one with empty line
# columns for an order without lines). Both tables are bound to the tenant by hand: the ORM's
# tenant scoping does not see Core statements.
_ORDER_AND_LINES = (
    select(*_ORDERS.c, *(c.label(_LINE_PREFIX + c.name) for c in _LINES.c))
    .select_from(
        _ORDERS.outerjoin(_LINES, and_(_LINES.c.order_id == _ORDERS.c.id, _LINES.c.tenant_id == bindparam("t")))
    )
    .where(_ORDERS.c.id == bindparam("ref"), _ORDERS.c.tenant_id == bindparam("t"))
    .order_by(_LINES.c.position)
)
_ORDER_COLUMNS = tuple(c.name for c in _ORDERS.c)
_LINE_COLUMNS = tuple(c.name for c in _LINES.c)
_N_ORDER = len(_ORDER_COLUMNS)
_READ = Prepared(_ORDER_AND_LINES)
# The columns' result processors (SQLite gives datetimes and JSON as text), per dialect: a
# statement run straight on the driver (``Prepared``) gets no processing from SQLAlchemy.
_PROCESSORS: dict[str, list[Any]] = {}
_SET_PICKED = Prepared(
    update(_LINES)
    .where(_LINES.c.id == bindparam("b_id"), _LINES.c.tenant_id == bindparam("b_t"))
    .values(picked_quantity=bindparam("b_picked"))
)
_SET_UPDATED = Prepared(
    update(_ORDERS)
    .where(_ORDERS.c.id == bindparam("b_id"), _ORDERS.c.tenant_id == bindparam("b_t"))
    .values(updated_at=bindparam("b_at"))
)
_PICK_FIELDS = frozenset({"code", "quantity"})


def load(ctx: Ctx, s: Session, ref: str, op: PickOperation) -> tuple[Any, list[Any]] | None:
    """The order ``ref`` (an id) and its lines as plain objects, or None: the ORM path takes it."""
    tenant_id = s.info.get("tenant_id")
    if tenant_id is None or len(s.identity_map) or s.new or s.deleted:
        return None
    if any(item.model_fields_set - _PICK_FIELDS for item in op.items):
        return None
    rows = _rows(ctx.uow.connection(), {"ref": ref.strip(), "t": tenant_id})
    if not rows or rows[0][_ORDER_COLUMNS.index("status")] != "pending":
        return None
    order = SimpleNamespace(**dict(zip(_ORDER_COLUMNS, rows[0], strict=False)))
    lines = [
        SimpleNamespace(**dict(zip(_LINE_COLUMNS, row[_N_ORDER:], strict=True)))
        for row in rows
        if row[_N_ORDER] is not None  # an order without lines: one row with empty line columns
    ]
    order.picked = [ln.picked_quantity for ln in lines]  # what ``save`` compares against
    left = sum(max(ln.quantity - ln.picked_quantity, 0) for ln in lines)
    if sum(item.quantity for item in op.items) >= left:
        return None  # this pick may complete the order: the state move goes the ORM path
    return order, lines


def _rows(conn: Connection, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """``_ORDER_AND_LINES``'s rows with Python values (datetimes, dicts), by the quickest way the
    database allows: on SQLite the driver's own cursor, its values processed here."""
    res = _READ.run(conn, params)
    if not isinstance(res, sqlite3.Cursor):
        return [tuple(r) for r in res]  # another database: SQLAlchemy processed them
    procs = _PROCESSORS.get(conn.dialect.name)
    if procs is None:
        procs = _PROCESSORS[conn.dialect.name] = [
            c.type._cached_result_processor(conn.dialect, None) for c in _ORDER_AND_LINES.selected_columns
        ]
    raw = res.fetchall()
    if not raw:
        return []
    # The order's columns repeat on every line's row: processed once (datetimes and the address
    # were most of a scan's reading), only the line columns per row; only columns that need it.
    order = tuple(_processed(procs[:_N_ORDER], raw[0][:_N_ORDER]))
    line_procs = procs[_N_ORDER:]
    return [order + tuple(_processed(line_procs, row[_N_ORDER:])) for row in raw]


def _processed(procs: list[Any], values: tuple[Any, ...]) -> list[Any]:
    return [v if p is None or v is None else p(v) for p, v in zip(procs, values, strict=True)]


def save(ctx: Ctx, s: Session, order: Any, lines: list[Any]) -> None:
    """Write what the pick changed: the lines' picked counts and the order's ``updated_at``."""
    conn = ctx.uow.connection()
    tenant_id = order.tenant_id
    changed = [ln for ln, was in zip(lines, order.picked, strict=True) if ln.picked_quantity != was]
    for ln in changed:
        _SET_PICKED.run(conn, {"b_id": ln.id, "b_t": tenant_id, "b_picked": ln.picked_quantity})
    order.updated_at = ctx.now()
    _SET_UPDATED.run(conn, {"b_id": order.id, "b_t": tenant_id, "b_at": order.updated_at})
    # No flush sees these rows: the platform's change log is told as a flush would tell it.
    log_written_tables(s, tenant_id, {_ORDERS.name: [order.id], _LINES.name: [ln.id for ln in changed]})
