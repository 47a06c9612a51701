"""Declarative base, common column types and the tenant-scoped mixin."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, MetaData, String, Table, TypeDecorator
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


# Tables made by migrations that are not models (SQLite FTS5 indexes and their
# shadow tables), and the shared rate limiter's counters (services.core.ratelimit, made on
# PostgreSQL when first used): left out when models and migrations are compared.
UNMAPPED_TABLE_PREFIXES: tuple[str, ...] = (
    "support_ticket_search",
    "support_message_search",
    "docs_document_search",
    "rate_limit_hits",
    "cache_versions",  # the auth cache's version, kept by triggers (migration 0005_core_auth_cache_version)
)


def is_unmapped_table(name: str | None) -> bool:
    return bool(name) and str(name).startswith(UNMAPPED_TABLE_PREFIXES)


def new_id() -> str:
    """Identifiers are UUIDs made where the record is born (station or platform).

    Inside an ``id_plan`` the identifiers a station change made are recorded,
    and the platform's replay of that change takes the same ones in the same
    order, so a record keeps its identity from the station to the platform.
    """
    plan = _ID_PLAN.get()
    return plan.next() if plan is not None else str(uuid.uuid4())


def local_id() -> str:
    """An identifier for a row only one side makes (a webhook delivery, a background job on the
    platform): never taken from or recorded into an ``id_plan``, so it cannot shift the ids of the
    rows that both sides make."""
    return str(uuid.uuid4())


class IdPlan:
    """The identifiers one change makes: recorded on a station, replayed on the platform."""

    __slots__ = ("ids", "replay", "pos")

    def __init__(self, replay: list[str] | None = None) -> None:
        self.ids: list[str] = list(replay) if replay is not None else []
        self.replay = replay is not None
        self.pos = 0

    def next(self) -> str:
        if self.replay:
            if self.pos < len(self.ids):
                self.pos += 1
                return self.ids[self.pos - 1]
            # The platform's state took another path than the station's: fresh ids.
            return str(uuid.uuid4())
        value = str(uuid.uuid4())
        self.ids.append(value)
        return value


_ID_PLAN: ContextVar[IdPlan | None] = ContextVar("id_plan", default=None)


@contextmanager
def id_plan(plan: IdPlan | None) -> Iterator[IdPlan | None]:
    """Make ``new_id`` record into (or replay from) ``plan`` inside the block; None: plain UUIDs."""
    token = _ID_PLAN.set(plan)
    try:
        yield plan
    finally:
        _ID_PLAN.reset(token)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON(), list[Any]: JSON()}


class TenantScoped:
    """Mixin for every row that belongs to one tenant.

    Sessions bound to a tenant (local_db.scoping) filter every SELECT on this
    column and refuse to flush rows of another tenant.
    """

    @declared_attr
    def tenant_id(cls) -> Mapped[str]:  # noqa: N805 - declared_attr takes the class
        return mapped_column(String(36), ForeignKey("tenants.id", ondelete="CASCADE"), index=True)


def id_column() -> Mapped[str]:
    return mapped_column(String(36), primary_key=True, default=new_id)


def created_column() -> Mapped[datetime]:
    return mapped_column(default=utcnow)


def table_of(model: type[Base]) -> Table:
    """The Core table of a model (for Core statements on hot paths)."""
    t = model.__table__
    assert isinstance(t, Table)
    return t
