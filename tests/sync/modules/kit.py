"""The one pattern every module's sync test follows (issue #30, part 3).

A station makes changes offline (its link points nowhere: a sync attempt fails "offline" and the
changes wait in its outbox), comes back and syncs; each change is on the platform exactly once
(the rows counted and their values read there), sending the whole queue again changes nothing,
and a second station pulls each row once. Then both stations move one record to two different
states: the platform takes the first, refuses the second as a conflict that names the platform's
state and the person's choices, and the change queued behind the refused one still goes through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import text

from app.settings import Settings
from local_db import Database
from services.sync import station as st
from services.sync.client import SyncError
from tests.conftest import (
    ON_POSTGRES,
    TEST_SECRET,
    LiveServer,
    _copy_db,
    _demo_template,
    _pg_admin,
    _pg_url,
    new_pg_database,
    start_server,
)
from tests.sync.conftest import Station

NOWHERE = "http://127.0.0.1:9"  # nothing listens on the discard port: the network is gone


@dataclass
class Platform:
    """The platform server and its database, read directly to count what the syncs made."""

    server: LiveServer
    url: str
    pg_name: str | None = None

    @property
    def db(self) -> Database:
        return self.server.runtime.db

    def stop(self) -> None:
        self.server.stop()
        self.db.dispose()
        if self.pg_name is not None:
            admin = _pg_admin()
            with admin.connect() as c:
                c.exec_driver_sql(f"DROP DATABASE IF EXISTS {self.pg_name} WITH (FORCE)")
            admin.dispose()


def start_platform(factory: pytest.TempPathFactory) -> Platform:
    d = factory.mktemp("platform")
    settings = Settings(data_dir=d, secret_key=TEST_SECRET, demo=True, rate_limits="off")
    pg_name = None
    if ON_POSTGRES:
        pg_name = new_pg_database(factory)
        settings.database_url = _pg_url(pg_name)
    else:
        _copy_db(_demo_template(factory), d)
    srv = start_server(settings)
    return Platform(srv, srv.url, pg_name)


# --- reading rows on either side -----------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """A row a change made or changed: its table, id and the values it must hold everywhere."""

    table: str
    id: str
    values: dict[str, Any] = field(default_factory=dict)


def row(table: str, id: str, **values: Any) -> Row:
    return Row(table, id, values)


def _rows(db: Database, tenant_id: str, r: Row) -> list[dict[str, Any]]:
    with db.reading(tenant_id) as s:
        got = s.execute(text(f"SELECT * FROM {r.table} WHERE id = :i"), {"i": r.id}).mappings().all()  # noqa: S608
    return [dict(x) for x in got]


def _count(db: Database, tenant_id: str, table: str) -> int:
    with db.reading(tenant_id) as s:
        sql = f"SELECT COUNT(*) FROM {table} WHERE tenant_id = :t"  # noqa: S608 - a table name of the test's own
        return int(s.execute(text(sql), {"t": tenant_id}).scalar_one())


def assert_once(db: Database, tenant_id: str, rows: list[Row], where: str) -> None:
    for r in rows:
        found = _rows(db, tenant_id, r)
        assert len(found) == 1, f"{where}: {r.table} {r.id} held {len(found)} times"
        got = {k: found[0][k] for k in r.values}
        assert got == r.values, f"{where}: {r.table} {r.id}"


# --- the pattern ----------------------------------------------------------------------------------


@contextmanager
def offline(s: Station) -> Iterator[None]:
    """The station's link points nowhere while the body runs (its changes wait in the outbox)."""
    with s.rt.db.transaction(s.tenant.id) as ses:
        url = ses.execute(text("SELECT platform_url FROM sync_links")).scalar_one()
        ses.execute(text("UPDATE sync_links SET platform_url = :u"), {"u": NOWHERE})
    try:
        yield
        with pytest.raises(SyncError) as exc:
            s.sync()
        assert exc.value.kind == "offline"
    finally:
        with s.rt.db.transaction(s.tenant.id) as ses:
            ses.execute(text("UPDATE sync_links SET platform_url = :u"), {"u": url})


def sync_clean(s: Station) -> None:
    status = s.sync()
    issues = [(i.command, i.code, i.message) for i in st.issues(s.ctx())]
    assert (status.issues, status.pending, issues) == (0, 0, []), (status.message, issues)


def applied_once(
    platform: Platform, a: Station, b: Station, rows: list[Row], also: tuple[str, ...] = (), pulled: bool = True
) -> None:
    """a's queued changes reach the platform exactly once, even sent twice; b pulls each row once.
    ``also``: tables of rows the changes derive (movements, ledger lines) whose counts must not
    grow when the queue is sent again. ``pulled=False``: rows of a table stations do not pull."""
    pending = a.outbox().get("pending", 0)
    assert pending > 0
    sync_clean(a)
    assert a.outbox().get("pending", 0) == 0
    tenant = a.tenant.id
    assert_once(platform.db, tenant, rows, "platform")
    tables = sorted({r.table for r in rows} | set(also))
    before = {t: _count(platform.db, tenant, t) for t in tables}
    # The answers were lost: the station sends the same changes again; the platform knows them.
    with a.rt.db.transaction(tenant) as ses:
        ses.execute(text("UPDATE outbox SET status = 'pending' WHERE status = 'sent'"))
    sync_clean(a)
    again = {t: _count(platform.db, tenant, t) for t in tables}
    assert again == before, f"sent twice, the platform holds {again}, not {before}"
    assert_once(a.rt.db, tenant, rows, "the station that made them")
    sync_clean(b)
    if not pulled:
        return
    assert_once(b.rt.db, tenant, rows, "the other station")
    held = {t: _count(b.rt.db, tenant, t) for t in tables}
    assert held == before, f"the other station holds {held}, the platform {before}"


@dataclass(frozen=True)
class Move:
    """A state move of one record: the use case, its id parameter(s) and its body."""

    op: str
    params: dict[str, str]
    body: dict[str, Any] | None = None
    email: str = "admin@demo.test"

    def on(self, s: Station) -> Any:
        kw: dict[str, Any] = dict(self.params)
        if self.body is not None:
            kw["body"] = self.body
        return s.do(self.op, self.email, **kw)


def conflict(
    platform: Platform,
    a: Station,
    b: Station,
    theirs: Move | tuple[Move, ...],
    mine: Move,
    state: Row,
    current: str,
    behind: Callable[[Station], Row],
) -> None:
    """b's move (or moves) reaches the platform first; a's move of the same record is refused as a conflict
    naming ``current`` (the platform's state of the record; ``state``: its row there), with the choices; the change a queued
    after it (``behind``) still goes through, and "keep theirs" puts the platform's record back."""
    for m in theirs if isinstance(theirs, tuple) else (theirs,):
        m.on(b)
    mine.on(a)
    after = behind(a)
    sync_clean(b)
    status = a.sync()
    assert (status.issues, status.pending) == (1, 0), status.message
    [issue] = st.issues(a.ctx())
    assert (issue.status, issue.command) == ("conflict", mine.op), (issue.code, issue.message)
    assert issue.choices == ("keep_theirs", "retry")
    assert issue.details.get("current_state") == current, issue.details
    assert_once(platform.db, a.tenant.id, [state, after], "platform after the conflict")
    ids = st.resolve_issue(a.ctx(), issue.id, "keep_theirs")

    async def take() -> bool:
        e = a.engine()
        try:
            return await e.fetch_rows(ids)
        finally:
            await e.stop()

    assert asyncio.run(take())
    assert_once(a.rt.db, a.tenant.id, [state, after], "the station after keep theirs")
    assert st.issues(a.ctx()) == []


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (32, 24), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


PNG = _png()


def sync_a_then_b(a: Station, b: Station) -> None:
    """a sends what it made; b takes it (both then hold the record a conflict is about)."""
    sync_clean(a)
    sync_clean(b)


def ids_where(s: Station, table: str, n: int, **where: str) -> list[str]:
    """``n`` ids of the station's (demo) rows of ``table`` matching ``where``, in id order."""
    cond = " AND ".join(f"{k} = :{k}" for k in where) or "1 = 1"
    with s.rt.db.reading(s.tenant.id) as ses:
        sql = f"SELECT id FROM {table} WHERE {cond} ORDER BY id LIMIT {int(n)}"  # noqa: S608 - the test's own names
        got = [str(r[0]) for r in ses.execute(text(sql), where)]
    assert len(got) == n, f"the demo data has {len(got)} {table} rows with {where}, {n} wanted"
    return got


def assert_absent(db: Database, tenant_id: str, table: str, id: str, where: str) -> None:
    assert _rows(db, tenant_id, Row(table, id)) == [], f"{where}: {table} {id} is still there"


def both_apply(platform: Platform, a: Station, b: Station, theirs: Move, mine: Move, want: Row) -> None:
    """For records without exclusive states: b's change, then a's, of one record both apply in the
    order they reach the platform (``want``: the record after both), with no sync issue, and b
    pulls the result."""
    sync_a_then_b(a, b)
    theirs.on(b)
    mine.on(a)
    sync_clean(b)
    sync_clean(a)
    assert_once(platform.db, a.tenant.id, [want], "platform")
    sync_clean(b)
    assert_once(b.rt.db, b.tenant.id, [want], "the other station")
