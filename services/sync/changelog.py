"""The platform's change log: which records changed, in the tenant's order.

After every flush on the platform, each new, changed or deleted record of a
synced table is written to ``sync_changes`` under the tenant's next update
sequence number (usn, one per transaction). The counter row stays locked until
the transaction ends, so usns become visible in the order they were taken and
a pull that read up to usn N never misses a later commit below N.
"""

from __future__ import annotations

import weakref
from typing import Any

from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session, SessionTransaction, UOWTransaction

from local_db.base import table_of
from local_db.models import Membership, Tenant, User
from local_db.models.sync import SyncChange
from services.core.commands import next_counter
from services.core.context import Runtime
from services.sync.protocol import synced_tables, upsert

_CHANGES = table_of(SyncChange)
_USN_KEY = "sync_usn"
# A sync push collects the change log of a whole chunk of entries and writes it once
# (``defer_changes`` ... ``write_deferred``): one dict per entry, so an entry whose
# savepoint is rolled back leaves nothing behind.
_DEFER_KEY = "sync_changes_deferred"


# Engines whose sessions keep the change log (the platform's): ``log_written`` does nothing elsewhere.
_LOGGED: weakref.WeakSet[Engine] = weakref.WeakSet()


def install_change_log(rt: Runtime) -> None:
    rt.db.on_session("after_flush", _after_flush)
    _LOGGED.add(rt.db.engine)


def log_written(session: Session, tenant_id: str, table: str, ids: list[str]) -> None:
    """New records of a synced table written by a Core insert, which no flush sees: logged as the
    flush would log them (inside a push's chunk, with the open entry)."""
    if session.bind not in _LOGGED:
        return
    assert table in synced_tables(), table
    found = {(tenant_id, table, rid): False for rid in ids}
    deferred = session.info.get(_DEFER_KEY)
    if deferred is not None:
        deferred[-1].update(found)
        return
    _write(session, found)


def log_written_tables(session: Session, tenant_id: str, written: dict[str, list[str]]) -> None:
    """``log_written`` for records of several tables at once (one change-log write)."""
    if session.bind not in _LOGGED:
        return
    found = {(tenant_id, table, rid): False for table, ids in written.items() for rid in ids}
    assert all(t in synced_tables() for t, ids in written.items() if ids), written
    deferred = session.info.get(_DEFER_KEY)
    if deferred is not None:
        deferred[-1].update(found)
        return
    if found:
        _write(session, found)


def _tenants_of(session: Session, obj: Any) -> set[str]:
    if isinstance(obj, Tenant):
        return {obj.id}
    if isinstance(obj, User):
        rows = session.connection().execute(select(Membership.tenant_id).where(Membership.user_id == obj.id))
        return {r[0] for r in rows}
    tid = getattr(obj, "tenant_id", None)
    return {tid} if tid else set()


def _after_flush(session: Session, _ctx: UOWTransaction) -> None:
    tables = synced_tables()
    found: dict[tuple[str, str, str], bool] = {}  # (tenant, table, id) -> deleted
    # ``session.dirty`` walks the whole identity map each time it is read: read once, not per object
    # (per object it was quadratic: most of a 50,000-product import update's time).
    dirty = session.dirty
    for objs, deleted in ((session.new, False), (dirty, False), (session.deleted, True)):
        for obj in objs:
            name = getattr(obj, "__tablename__", None)
            if name not in tables or (not deleted and obj in dirty and not session.is_modified(obj)):
                continue
            for tid in _tenants_of(session, obj):
                found[(tid, name, obj.id)] = deleted
            if isinstance(obj, Membership) and not deleted:
                # A new member's account reaches the tenant's stations with the membership.
                found.setdefault((obj.tenant_id, "users", obj.user_id), False)
    if not found:
        return
    deferred = session.info.get(_DEFER_KEY)
    if deferred is not None:
        deferred[-1].update(found)
        return
    _write(session, found)


def _write(session: Session, found: dict[tuple[str, str, str], bool]) -> None:
    conn = session.connection()
    usns: dict[str, int] = session.info.setdefault(_USN_KEY, {})
    rows = []
    for (tid, name, row_id), deleted in found.items():
        if tid not in usns:
            usns[tid] = next_counter(conn, tid, "usn")
        rows.append({"tenant_id": tid, "table_name": name, "row_id": row_id, "usn": usns[tid], "deleted": deleted})
    upsert(conn, _CHANGES, rows, ["tenant_id", "table_name", "row_id"])


def defer_changes(session: Session) -> None:
    """From now on this transaction's change log is kept aside until ``write_deferred``."""
    session.info[_DEFER_KEY] = [{}]


def next_entry(session: Session, keep: bool) -> None:
    """The open entry's changes are kept (its savepoint committed) or dropped (rolled back)."""
    deferred = session.info[_DEFER_KEY]
    if keep:
        deferred.append({})
    else:
        deferred[-1].clear()


def write_deferred(session: Session) -> None:
    """Write what was kept aside, under one usn per tenant, and stop deferring."""
    session.flush()
    deferred = session.info.pop(_DEFER_KEY, None) or []
    found: dict[tuple[str, str, str], bool] = {}
    for part in deferred:
        found.update(part)
    if found:
        _write(session, found)


def _forget_usn(session: Session, *_args: Any) -> None:
    # After a rollback (a savepoint's too) the counter's increment may be undone: take it again.
    session.info.pop(_USN_KEY, None)


def _transaction_ended(session: Session, transaction: SessionTransaction) -> None:
    # The next transaction takes a new usn; a savepoint ending inside one keeps it
    # (SQLAlchemy also calls after_commit for savepoints).
    if transaction.parent is None:
        session.info.pop(_USN_KEY, None)


event.listen(Session, "after_transaction_end", _transaction_ended)
event.listen(Session, "after_soft_rollback", _forget_usn)
