"""Alembic environment: run against the engine handed over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import local_db.models  # noqa: F401 - registers every table
from local_db.base import Base, is_unmapped_table

config = context.config
target_metadata = Base.metadata


def include_object(obj, name, type_, reflected, compare_to):  # type: ignore[no-untyped-def]
    """``revise --module NAME`` limits autogenerate to that module's tables."""
    table = name if type_ == "table" else getattr(getattr(obj, "table", None), "name", None)
    if is_unmapped_table(table):
        return False
    only = config.attributes.get("only_tables")
    if not only:
        return True
    return table is None or table in only


def run() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.connect() as connection:
        # On SQLite, Alembic's batch mode changes a table by copying it (a column dropped or altered, in
        # an upgrade or a downgrade) and dropping the old one, which foreign keys refuse once other rows
        # point at it (Alembic's documentation on batch mode and foreign keys). So they are off while
        # migrations run (set outside any transaction, where SQLite takes it), checked before the
        # commit, and on again after.
        raw = connection.connection.dbapi_connection if connection.dialect.name == "sqlite" else None
        if raw is not None:
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=raw is not None,
                compare_type=True,
                include_object=include_object,
            )
            with context.begin_transaction():
                context.run_migrations()
                if raw is not None:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migrations left {len(broken)} rows whose foreign key points nowhere "
                                           f"(first in table {broken[0][0]})")  # fmt: skip
            connection.commit()
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")


run()
