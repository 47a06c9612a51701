"""The models and the migrations describe the same schema."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import local_db.models  # noqa: F401
from local_db import make_engine, run_migrations
from local_db.base import Base, is_unmapped_table
from tests.conftest import empty_pg_database


def _mapped_only(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    table = name if type_ == "table" else getattr(getattr(obj, "table", None), "name", None)
    return not is_unmapped_table(table)


def _diff(url: str) -> list[object]:
    engine = make_engine(url)
    run_migrations(engine)
    with engine.connect() as conn:
        mc = MigrationContext.configure(conn, opts={"compare_type": True, "include_object": _mapped_only})
        diff = compare_metadata(mc, Base.metadata)
    engine.dispose()
    return list(diff)


def test_models_match_migrations_on_sqlite(tmp_path: Path) -> None:
    assert _diff(f"sqlite:///{tmp_path / 'm.db'}") == []


def test_migrations_are_idempotent_and_create_every_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    engine = make_engine(url)
    run_migrations(engine)
    run_migrations(engine)  # a second start changes nothing
    tables = set(inspect(engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    engine.dispose()


def test_sqlite_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert c.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    engine.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("PLATFORM_TEST_POSTGRES_URL"), reason="PLATFORM_TEST_POSTGRES_URL not set")
def test_models_match_migrations_on_postgres() -> None:
    with empty_pg_database("t_mig") as url:
        assert _diff(url) == []
