"""Engine and session set-up for SQLite (stations, small servers) and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from local_db.scoping import install_tenant_scoping

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine for any SQLAlchemy URL; SQLite gets WAL, foreign keys and a busy timeout."""
    if url.startswith("sqlite"):
        # hide_parameters: a failed statement's message (logged, or carried by an exception) must not
        # carry its values: requester e-mails, ticket text, idempotency keys, secrets.
        engine = create_engine(
            url, echo=echo, hide_parameters=True, connect_args={"check_same_thread": False, "timeout": 30}
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
            cur.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Any) -> None:
            mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
            # Straight to the driver: this runs for every transaction.
            conn.connection.dbapi_connection.execute(f"BEGIN {mode}")

        return engine
    engine = create_engine(url, echo=echo, hide_parameters=True, pool_pre_ping=True, pool_size=10, max_overflow=20)

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


def run_migrations(engine: Engine) -> None:
    """Bring the schema to the newest revision of every module branch."""
    from alembic import command

    with _migrate_lock:
        command.upgrade(alembic_config(engine), "heads")


class Database:
    """One database: the engine and tenant-bound sessions on it."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self._factory = sessionmaker(self.engine, expire_on_commit=False)
        install_tenant_scoping(self._factory)
        if migrate:
            run_migrations(self.engine)

    def on_session(self, name: str, fn: Any) -> None:
        """Listen to a session event on every session of this database (e.g. the platform's change log)."""
        event.listen(self._factory, name, fn)

    def session(self, tenant_id: str | None, *, write: bool = False) -> Session:
        """A session bound to one tenant (``None``: platform-wide, for auth and admin jobs)."""
        s = self._factory()
        s.info["tenant_id"] = tenant_id
        s.info["unscoped"] = tenant_id is None
        if write and self.is_sqlite:
            s.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        return s

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
        s = self.session(tenant_id)
        try:
            yield s
        finally:
            # close() ends the transaction and detaches objects with their
            # loaded state (rollback() would expire them first).
            s.close()

    def dispose(self) -> None:
        self.engine.dispose()
