"""Engine and session set-up for SQLite (stations, small servers) and PostgreSQL."""

from __future__ import annotations

import ast
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy import exc as exc_mod
from sqlalchemy.orm import Session, sessionmaker

from local_db.scoping import install_tenant_scoping

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# A pooled PostgreSQL connection idle longer than this is pinged before use (make_engine).
IDLE_PING_SECONDS = 10.0


# The SQLite writers' turn of each engine (make_engine): read by tests and benchmarks.
WRITE_LOCKS: weakref.WeakKeyDictionary[Engine, threading.Lock] = weakref.WeakKeyDictionary()


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine for any SQLAlchemy URL; SQLite gets WAL, foreign keys and a busy timeout."""
    if url.startswith("sqlite"):
        # hide_parameters: a failed statement's message (logged, or carried by an exception) must not
        # carry its values: requester e-mails, ticket text, idempotency keys, secrets.
        engine = create_engine(
            url,
            echo=echo,
            hide_parameters=True,
            # The most recent connection first: its page cache is warm (a connection's cache is
            # dropped when another one wrote since it last read).
            pool_use_lifo=True,
            # Kept open: SQLAlchemy's default pool keeps 5, so from the 6th request at once each one
            # opened a connection and ran the PRAGMAs below, then closed it (issue 33: a tenth of a
            # public page's CPU with 10 visitors at once). Each connection's page cache grows only
            # as it reads.
            pool_size=16,
            connect_args={"check_same_thread": False, "timeout": 30},
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy emit BEGIN itself (below) so writers can take the
            # write lock up front: a deferred transaction that upgrades to a
            # writer fails at once with SQLITE_BUSY instead of waiting.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite+pysqlite://"):
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            # 16 MB of page cache (SQLite's default is 2 MB; it grows only as pages are read): the
            # search indexes' hot pages (documents, tickets) stay in memory between calls.
            cur.execute("PRAGMA cache_size=-16384")
            cur.close()

        # Writers of this process queue here, not in SQLite's busy handler: SQLite lets one writer
        # in at a time, and the others sleep in steps growing to 100 ms between tries, so under
        # 20 concurrent writes a write waited up to 1.4 s with the database idle between them
        # (issue 38). A lock hands the turn over the moment the writer before commits. Held only
        # from BEGIN IMMEDIATE to COMMIT or ROLLBACK; writers of other processes still meet the
        # busy timeout. Waiting on it ends like the busy timeout: after 30 s the writer goes on to
        # SQLite (which then waits or answers busy as before), so a slip can never hang a writer.
        write_lock = WRITE_LOCKS[engine] = threading.Lock()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Any) -> None:
            mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
            if mode == "IMMEDIATE" and write_lock.acquire(timeout=30):
                conn.info["write_lock"] = True
            # Straight to the driver: this runs for every transaction.
            conn.connection.dbapi_connection.execute(f"BEGIN {mode}")

        # One commit per write: the dialect's own commit and rollback hand the turn over right after
        # the driver's. (A "commit" event listener runs before the dialect's commit, so committing
        # there and then releasing meant a second driver commit with nothing left, and an event
        # dispatch on every write.) ``dbapi_conn`` is the pool's proxy: its ``info`` is the
        # connection's, where ``_sqlite_begin`` noted the turn.
        def _do_commit(dbapi_conn: Any) -> None:
            dbapi_conn.commit()
            if _took_turn(dbapi_conn):
                write_lock.release()  # after a failed commit the rollback that follows releases it

        def _do_rollback(dbapi_conn: Any) -> None:
            try:
                dbapi_conn.rollback()
            finally:
                if _took_turn(dbapi_conn):
                    write_lock.release()

        def _took_turn(dbapi_conn: Any) -> bool:
            # Forgets the turn as it answers. A connection SQLAlchemy tries while it first connects
            # (never begun by us) has no info of its own.
            try:
                info = dbapi_conn.info
            except (AttributeError, NotImplementedError):
                return False
            return bool(info.pop("write_lock", False))

        engine.dialect.do_commit = _do_commit  # type: ignore[method-assign,assignment]
        engine.dialect.do_rollback = _do_rollback  # type: ignore[method-assign,assignment]

        @event.listens_for(engine, "checkin")
        def _returned(_dbapi_conn: Any, record: Any) -> None:
            # A connection back in the pool never keeps the turn (one dropped mid-transaction).
            if record.info.pop("write_lock", False):
                write_lock.release()

        return engine
    # No pool_pre_ping: it costs a round trip on every checkout, and a request checks out several
    # (the auth cache's version, each use case's session): 1.7 ms of a public page's time each at
    # a load average of 17 (issue 33). A connection idle longer than IDLE_PING_SECONDS is pinged
    # instead (a restarted server or a dropped idle connection is found there); one in use a
    # moment ago is alive, and if it died since, the error invalidates the pool as before.
    engine = create_engine(url, echo=echo, hide_parameters=True, pool_size=10, max_overflow=20)

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_conn: Any, record: Any) -> None:
        record.info["idle_from"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_when_idle(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_from")
        if since is None or time.monotonic() - since <= IDLE_PING_SECONDS:
            return
        try:
            cur = dbapi_conn.cursor()
            cur.execute("SELECT 1")
            cur.close()
            dbapi_conn.rollback()  # the ping's transaction ended: the caller may set autocommit
        except Exception as exc:  # noqa: BLE001 - any failure: the pool drops it and connects again
            raise exc_mod.DisconnectionError("idle connection lost") from exc

    @event.listens_for(engine, "handle_error")
    def _no_row_values(ctx: Any) -> None:
        # PostgreSQL's DETAIL line quotes the failing row ("Failing row contains (..., a@b.test)",
        # "Key (email)=(a@b.test) already exists"): hide_parameters cannot reach it. Keep the
        # primary message only; the structured fields stay on .diag for code that needs them.
        orig = ctx.original_exception
        primary = getattr(getattr(orig, "diag", None), "message_primary", None)
        wrapped = ctx.sqlalchemy_exception
        if not primary or wrapped is None:
            return
        orig.args = (primary,)
        head = f"({type(orig).__module__}.{type(orig).__name__}) {primary}"
        wrapped.args = (head, *wrapped.args[1:])

    return engine


def alembic_config(engine: Engine) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["engine"] = engine
    return cfg


_migrate_lock = threading.Lock()


_REVISION_LINE = re.compile(r"^(revision|down_revision)\s*(?::[^=]*)?=\s*(.+?)\s*$", re.MULTILINE)


def script_heads() -> frozenset[str] | None:
    """The head revisions of the migration scripts, read from their ``revision``/``down_revision`` lines.

    None when a script does not read that simply: the caller then asks Alembic."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found: dict[str, str] = {m.group(1): m.group(2) for m in _REVISION_LINE.finditer(path.read_text())}
        try:
            revision = ast.literal_eval(found["revision"])
            down = ast.literal_eval(found.get("down_revision", "None"))
        except (KeyError, ValueError, SyntaxError):
            return None
        if not isinstance(revision, str):
            return None
        revisions.add(revision)
        parents.update([down] if isinstance(down, str) else list(down or ()))
    return frozenset(revisions - parents) or None


def schema_is_current(engine: Engine) -> bool:
    """True when the database stands at exactly the scripts' heads (nothing for Alembic to do)."""
    heads = script_heads()
    if heads is None:
        return False
    try:
        with engine.connect() as c:
            stamped = {str(r[0]) for r in c.exec_driver_sql("SELECT version_num FROM alembic_version")}
    except exc_mod.DBAPIError:
        return False  # a new database: no version table yet
    return stamped == heads


def run_migrations(engine: Engine) -> None:
    """Bring the schema to the newest revision of every module branch.

    A start on a current schema skips Alembic: loading it and its 60 scripts cost ~0.5 s of every
    station's start (in the service layer a sign-in waits for). Anything else (a new database, a
    revision missing or unknown) goes to Alembic, which upgrades or says what is wrong."""
    with _migrate_lock:
        if schema_is_current(engine):
            return
        from alembic import command

        command.upgrade(alembic_config(engine), "heads")


def _refuse_flush_in_read(session: Session, _ctx: Any, _instances: Any) -> None:
    if session.info.get("read_only") and (session.new or session.dirty or session.deleted):
        raise RuntimeError("a write in a read-only session (Database.reading): use a transaction")


class Database:
    """One database: the engine and tenant-bound sessions on it."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self._factory = sessionmaker(self.engine, expire_on_commit=False)
        install_tenant_scoping(self._factory)
        event.listen(self._factory, "before_flush", _refuse_flush_in_read)
        if migrate:
            run_migrations(self.engine)

    def on_session(self, name: str, fn: Any) -> None:
        """Listen to a session event on every session of this database (e.g. the platform's change log)."""
        event.listen(self._factory, name, fn)

    def off_session(self, name: str, fn: Any) -> None:
        """Stop a listener given to ``on_session`` (the same function object)."""
        if event.contains(self._factory, name, fn):
            event.remove(self._factory, name, fn)

    def session(self, tenant_id: str | None, *, write: bool = False) -> Session:
        """A session bound to one tenant (``None``: platform-wide, for auth and admin jobs)."""
        s = self._factory()
        s.info["tenant_id"] = tenant_id
        s.info["unscoped"] = tenant_id is None
        if write and self.is_sqlite:
            s.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        return s

    def ping(self) -> None:
        """One round trip to the database (readiness): raises when it does not answer."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    @contextmanager
    def transaction(self, tenant_id: str | None) -> Iterator[Session]:
        """A write transaction: commit on success, roll back on any error."""
        s = self.session(tenant_id, write=True)
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    @contextmanager
    def reading(self, tenant_id: str | None) -> Iterator[Session]:
        """A read-only session. On PostgreSQL its statements run in autocommit: under READ COMMITTED
        each statement takes its own snapshot inside a transaction too, so the BEGIN and the
        ROLLBACK were two round trips that bought nothing (a signed-in page opened three such
        sessions). A flush in it is refused on every database, so no write relies on the rollback."""
        s = self.session(tenant_id)
        s.info["read_only"] = True
        if not self.is_sqlite:
            s.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        try:
            yield s
        finally:
            # close() ends the transaction and detaches objects with their
            # loaded state (rollback() would expire them first).
            s.close()

    def dispose(self) -> None:
        self.engine.dispose()


class Prepared:
    """A Core statement for the hottest writes (events, outbox rows, counters, idempotency records).

    On SQLite it is compiled once per set of parameter names and run straight on the driver
    connection (the driver keeps the prepared statement): SQLAlchemy's per-call execution
    machinery cost more than the statement itself. Values go through the same bind processors as
    ``Connection.execute`` (datetimes, JSON), errors come back as SQLAlchemy's exceptions with the
    parameters hidden, and the statement runs in the connection's open transaction. A statement
    that needs column defaults made in Python, and every other database, take ``conn.execute``.
    Connection-level events other than ``begin`` and echo logging are not run for these calls.
    """

    def __init__(self, stmt: Any) -> None:
        self.stmt = stmt
        self._compiled: dict[frozenset[str], tuple[str, tuple[tuple[str | None, Any, Any], ...]] | None] = {}
        self._readers: dict[str, tuple[tuple[str, Any], ...]] = {}

    def _plan(
        self, conn: Connection, names: frozenset[str]
    ) -> tuple[str, tuple[tuple[str | None, Any, Any], ...]] | None:
        plan = self._compiled.get(names, False)
        if plan is not False:
            return plan  # type: ignore[return-value]
        compiled: Any = self.stmt.compile(dialect=conn.dialect, column_keys=sorted(names))
        procs = compiled._bind_processors
        order = compiled.positiontup
        plan = None
        if not (
            compiled.insert_prefetch or compiled.update_prefetch or order is None or "POSTCOMPILE" in compiled.string
        ):
            binds: list[tuple[str | None, Any, Any]] = []
            for k in order:
                if k in names:
                    binds.append((k, procs.get(k), None))
                    continue
                # A value the statement carries (a literal compared with, a LIMIT): it is the same on
                # every call, so it is processed once here. Without this such statements went the
                # slow way (conn.execute) every time: a reservation's shipping-location read did.
                bp = compiled.binds.get(k)
                if bp is None or bp.required or bp.callable is not None or bp.expanding or bp.value is None:
                    break
                proc = procs.get(k)
                binds.append((None, None, proc(bp.value) if proc is not None else bp.value))
            else:
                plan = (compiled.string, tuple(binds))
        self._compiled[names] = plan
        return plan

    def run(self, conn: Connection, params: dict[str, Any]) -> Any:
        """Run with ``params``; answers the driver cursor (SQLite) or the ``CursorResult``."""
        if conn.dialect.name != "sqlite":
            return conn.execute(self.stmt, params)
        plan = self._plan(conn, frozenset(params)) if conn.in_transaction() else None
        if plan is None:
            return conn.execute(self.stmt, params)
        sql, binds = plan
        values = [c if k is None else p(params[k]) if p is not None else params[k] for k, p, c in binds]
        raw = conn.connection.driver_connection
        try:
            return raw.execute(sql, values)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            raise exc_mod.DBAPIError.instance(
                sql, values, exc, sqlite3.Error, hide_parameters=True, dialect=conn.dialect
            ) from exc

    def run_many(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """Run once per row (``executemany``); every row has the first row's keys. On SQLite the
        driver gets the rows as value lists: SQLAlchemy's per-row parameter building was a third
        of a bulk import's time."""
        if not rows:
            return
        plan = self._plan(conn, frozenset(rows[0])) if conn.dialect.name == "sqlite" and conn.in_transaction() else None
        if plan is None:
            conn.execute(self.stmt, rows)
            return
        sql, binds = plan
        table = [[c if k is None else p(r[k]) if p is not None else r[k] for k, p, c in binds] for r in rows]
        raw = conn.connection.driver_connection
        try:
            raw.executemany(sql, table)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            raise exc_mod.DBAPIError.instance(
                sql, table[:1], exc, sqlite3.Error, hide_parameters=True, dialect=conn.dialect
            ) from exc

    def mappings(self, conn: Connection, params: dict[str, Any]) -> list[dict[str, Any]]:
        """Every row returned, as a dict by column name, each value read back through its column's
        type as ``Connection.execute`` reads it (JSON parsed, datetimes made): for reads on a hot path."""
        res = self.run(conn, params)
        if not isinstance(res, sqlite3.Cursor):
            return [dict(r) for r in res.mappings()]
        readers = self._readers.get(conn.dialect.name)
        if readers is None:
            compiled: Any = self.stmt.compile(dialect=conn.dialect)
            readers = self._readers[conn.dialect.name] = tuple(
                (rc.keyname, rc.type._cached_result_processor(conn.dialect, None)) for rc in compiled._result_columns
            )
        return [{k: v if p is None else p(v) for (k, p), v in zip(readers, row, strict=True)} for row in res.fetchall()]

    def scalar(self, conn: Connection, params: dict[str, Any]) -> Any:
        """The first column of the first row returned (``RETURNING``), or None."""
        res = self.run(conn, params)
        row = res.fetchone()
        if hasattr(res, "close"):
            res.close()
        return row[0] if row is not None else None

    def lastrowid(self, conn: Connection, params: dict[str, Any]) -> Any:
        """Run an insert; answers the new row's integer primary key."""
        res = self.run(conn, params)
        if isinstance(res, sqlite3.Cursor):
            return res.lastrowid
        return res.inserted_primary_key[0] if res.inserted_primary_key else None
