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
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
            include_object=include_object,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run()
