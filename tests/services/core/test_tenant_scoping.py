"""Tenant scoping by construction, proven for every tenant-scoped table.

Rows are made generically from each model's columns (foreign keys off for
the set-up only), so a table added later is covered without a new test.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    Integer,
    LargeBinary,
    Numeric,
    delete,
    event,
    select,
    update,
)
from sqlalchemy.orm import Mapper, Session

import local_db.models  # noqa: F401
from local_db import Database, TenantScopeError
from local_db.base import Base, TenantScoped, UTCDateTime
from local_db.models import Tenant
from local_db.scoping import _before_flush, _on_execute

SCOPED: list[Mapper[Any]] = sorted(
    (m for m in Base.registry.mappers if issubclass(m.class_, TenantScoped)), key=lambda m: m.class_.__name__
)


def _value(col: Any, n: int) -> Any:
    t = col.type
    if isinstance(t, UTCDateTime | DateTime):
        return datetime(2026, 1, 1, tzinfo=UTC)
    if isinstance(t, Date):
        return datetime(2026, 1, 1).date()
    if isinstance(t, Boolean):
        return False
    if isinstance(t, Integer):
        return n
    if isinstance(t, Numeric | Float):
        return Decimal("1.00") if isinstance(t, Numeric) and t.asdecimal else 1.0
    if isinstance(t, JSON):
        return {}
    if isinstance(t, LargeBinary):
        return b"x"
    enums = getattr(t, "enums", None)
    if enums:
        return enums[0]
    length = getattr(t, "length", None) or 36
    return uuid.uuid4().hex[: min(length, 32)]


def _row(mapper: Mapper[Any], tenant_id: str, n: int) -> Any:
    obj = mapper.class_()
    for col in mapper.local_table.columns:
        if col.name == "tenant_id":
            continue
        attr = mapper.get_property_by_column(col).key
        setattr(obj, attr, _value(col, n))
    obj.tenant_id = tenant_id
    return obj


@pytest.fixture(scope="module")
def _migrated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Migrated once for the module (about a hundred migrations); each test gets a copy."""
    path = tmp_path_factory.mktemp("scope") / "template.db"
    d = Database(f"sqlite:///{path}")
    with d.transaction(None) as s:
        s.add_all([Tenant(id="tenant-a", slug="a", name="A"), Tenant(id="tenant-b", slug="b", name="B")])
    d.dispose()
    return path


@pytest.fixture
def db(tmp_path: Any, _migrated: Any) -> Any:
    with sqlite3.connect(_migrated) as src, sqlite3.connect(tmp_path / "scope.db") as dst:
        src.backup(dst)
    d = Database(f"sqlite:///{tmp_path / 'scope.db'}")
    yield d
    d.dispose()


@contextmanager
def _no_fk(db: Database, tenant_id: str | None) -> Iterator[Session]:
    """A session whose connection has foreign keys off (set before any transaction begins)."""
    with db.engine.connect() as conn:
        raw = conn.connection.driver_connection
        raw.execute("PRAGMA foreign_keys=OFF")
        s = Session(bind=conn, expire_on_commit=False)
        s.info.update(tenant_id=tenant_id, unscoped=tenant_id is None)
        event.listen(s, "do_orm_execute", _on_execute)
        event.listen(s, "before_flush", _before_flush)
        try:
            yield s
        finally:
            s.close()
            conn.rollback()
            raw.execute("PRAGMA foreign_keys=ON")


def _seed(db: Database, mapper: Mapper[Any]) -> tuple[Any, Any]:
    a, b = _row(mapper, "tenant-a", 1), _row(mapper, "tenant-b", 2)
    with _no_fk(db, None) as s:
        s.add_all([a, b])
        s.commit()
    return mapper.primary_key_from_instance(a), mapper.primary_key_from_instance(b)


def test_every_scoped_table_is_covered() -> None:
    names = {m.class_.__tablename__ for m in SCOPED}
    assert {"memberships", "api_keys", "events", "outbox"} <= names


@pytest.mark.parametrize("mapper", SCOPED, ids=lambda m: m.class_.__tablename__)
def test_scoped_session_cannot_read_or_write_another_tenant(db: Database, mapper: Mapper[Any]) -> None:
    cls = mapper.class_
    pk_a, pk_b = _seed(db, mapper)
    pk_col = mapper.primary_key[0]

    with db.reading("tenant-a") as s:
        rows = s.execute(select(cls)).scalars().all()
        assert [r.tenant_id for r in rows] == ["tenant-a"]
        assert s.get(cls, tuple(pk_b) if len(pk_b) > 1 else pk_b[0]) is None
        assert s.get(cls, tuple(pk_a) if len(pk_a) > 1 else pk_a[0]) is not None
        # Even an explicit filter on the other tenant finds nothing.
        assert s.execute(select(cls).where(cls.tenant_id == "tenant-b")).first() is None

    with db.transaction("tenant-a") as s:
        res = s.execute(update(cls).where(pk_col.in_([pk_b[0]])).values(tenant_id="tenant-a"))
        assert res.rowcount == 0
        res = s.execute(delete(cls).where(pk_col.in_([pk_b[0]])))
        assert res.rowcount == 0

    with db.reading(None) as s:
        assert s.execute(select(cls).where(pk_col == pk_b[0])).scalar_one().tenant_id == "tenant-b"

    # Writing a row of another tenant through a scoped session is refused.
    with _no_fk(db, "tenant-a") as s:
        s.add(_row(mapper, "tenant-b", 3))
        with pytest.raises(TenantScopeError):
            s.flush()

    # Changing a row so that it belongs to another tenant is refused too.
    with _no_fk(db, "tenant-a") as s:
        mine = s.execute(select(cls)).scalar_one()
        mine.tenant_id = "tenant-b"
        with pytest.raises(TenantScopeError):
            s.flush()

    # A new row without a tenant is stamped with the session's tenant (a third
    # tenant, so tables with one row per tenant take it too).
    with db.transaction(None) as s:
        s.add(Tenant(id="tenant-c", slug="c", name="C"))
    with _no_fk(db, "tenant-c") as s:
        row = _row(mapper, "tenant-c", 4)
        row.tenant_id = None
        s.add(row)
        s.flush()
        assert row.tenant_id == "tenant-c"


def test_unbound_session_must_be_explicitly_platform_wide(db: Database) -> None:
    s = db.session("tenant-a")
    s.info["tenant_id"] = None
    s.info["unscoped"] = False
    with pytest.raises(TenantScopeError):
        s.execute(select(Tenant))
    s.close()


def test_cached_statements_keep_each_sessions_tenant(db: Database) -> None:
    """The tenant criterion is a bound value: a statement cached for one tenant never serves another."""
    from local_db.models import ApiKey

    with db.transaction(None) as s:
        for t in ("tenant-a", "tenant-b"):
            s.add(ApiKey(id=f"k-{t}", tenant_id=t, name=t, environment="live", prefix="p", key_hash=f"h-{t}",
                         modules=[]))  # fmt: skip
    for t in ("tenant-a", "tenant-b", "tenant-a", "tenant-b"):
        with db.reading(t) as s:
            assert [k.id for k in s.execute(select(ApiKey)).scalars()] == [f"k-{t}"]
            other = "tenant-b" if t == "tenant-a" else "tenant-a"
            assert s.get(ApiKey, f"k-{other}") is None


def test_a_statements_own_parameters_stay_and_the_tenant_still_applies(db: Database) -> None:
    """The tenant travels as a parameter beside the statement's own (one option for every tenant)."""
    from sqlalchemy import bindparam

    from local_db.models import ApiKey

    with db.transaction(None) as s:
        for t in ("tenant-a", "tenant-b"):
            s.add(ApiKey(id=f"p-{t}", tenant_id=t, name=f"n-{t}", environment="live", prefix="p",
                         key_hash=f"ph-{t}", modules=[]))  # fmt: skip
    by_name = select(ApiKey.id).where(ApiKey.name == bindparam("n"))
    with db.reading("tenant-a") as s:
        assert s.execute(by_name, {"n": "n-tenant-a"}).scalars().all() == ["p-tenant-a"]
        assert s.execute(by_name, {"n": "n-tenant-b"}).scalars().all() == []
    with db.transaction("tenant-b") as s:
        res = s.execute(update(ApiKey).where(ApiKey.name == bindparam("n")).values(prefix="q"), {"n": "n-tenant-a"})
        assert res.rowcount == 0
    with db.reading(None) as s:
        # Platform-wide: no tenant parameter, no criterion.
        assert s.execute(by_name, {"n": "n-tenant-b"}).scalars().all() == ["p-tenant-b"]
        assert s.get(ApiKey, "p-tenant-a").prefix == "p"  # type: ignore[union-attr]


def test_bulk_update_or_delete_by_primary_key_is_refused_in_a_scoped_session(db: Database) -> None:
    """SQLAlchemy's bulk UPDATE by primary key (a list of rows) takes no WHERE criteria: it would
    change another tenant's row by its id, so a scoped session refuses it and nothing changes."""
    from local_db.models import ApiKey

    with db.transaction(None) as s:
        for t in ("tenant-a", "tenant-b"):
            s.add(ApiKey(id=f"b-{t}", tenant_id=t, name=t, environment="live", prefix="p", key_hash=f"bh-{t}",
                         modules=[]))  # fmt: skip
    with pytest.raises(TenantScopeError), db.transaction("tenant-a") as s:
        s.execute(update(ApiKey), [{"id": "b-tenant-b", "prefix": "stolen"}])
    with pytest.raises(TenantScopeError), db.transaction("tenant-a") as s:
        s.execute(delete(ApiKey), [{"id": "b-tenant-b"}])
    with db.reading(None) as s:
        assert s.get(ApiKey, "b-tenant-b").prefix == "p"  # type: ignore[union-attr]
    with db.transaction(None) as s:  # platform-wide sessions keep the bulk form
        s.execute(update(ApiKey), [{"id": "b-tenant-b", "prefix": "q"}])
    with db.reading(None) as s:
        assert s.get(ApiKey, "b-tenant-b").prefix == "q"  # type: ignore[union-attr]
