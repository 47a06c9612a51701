"""The call context every service function receives, and the unit of work.

``Runtime`` is built once per process (server or station): database, clock,
secrets, hooks. ``Ctx`` is built per call: the tenant, the caller and their
permissions, plus the open unit of work if there is one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from local_db import Database
from services.core.clock import Clock, SystemClock
from services.core.modules import module_names, module_titles
from services.core.roles import ROLES, Role  # noqa: F401 - re-exported: context is where callers look

log = logging.getLogger("services")
P = TypeVar("P")


# The platform's modules: every package under services/ whose __init__ declares ``MODULE = Module(...)``,
# in their manifests' order (services/core/modules.py). Tenants enable modules from this list.
MODULES: tuple[str, ...] = module_names()
# What a person reads for each module (its manifest's title).
MODULE_TITLES: dict[str, str] = module_titles()


@dataclass(frozen=True)
class TenantInfo:
    id: str
    slug: str
    name: str
    modules: frozenset[str]
    status: str


@dataclass(frozen=True)
class Principal:
    """Who is calling. ``modules`` is the effective access (already intersected)."""

    kind: Literal["user", "api_key", "customer", "public", "system"]
    id: str
    role: str | None = None
    modules: frozenset[str] = frozenset()
    email: str | None = None
    name: str | None = None
    # For a customer principal: the module whose customer account it is.
    customer_module: str | None = None

    @property
    def user_id(self) -> str | None:
        return self.id if self.kind == "user" else None


SYSTEM = Principal(kind="system", id="system", role="owner", modules=frozenset(MODULES))


# Where a committed change came from: a use case run in this process, a sync pull writing the
# platform's rows, or another process writing the same database file (``python -m app call``;
# noticed by services.core.watch).
Origin = Literal["local", "pull", "process"]


@dataclass
class CommitInfo:
    """What one committed unit of work changed (Anki's ``OpChanges``): views refresh from it."""

    tenant_id: str | None
    events: list[tuple[str, str]]  # (event id, type)
    commands: list[str]  # the outbox entries written (a station's changes to send)
    # The use cases that ran in it and the kinds of record they touch ("fulfillment.order"); a
    # change whose kind is not declared names its module's ("support.*": any record of support).
    changed: tuple[str, ...] = ()
    records: frozenset[str] = frozenset()
    # Work that must follow the commit, never precede it (mail leaving the platform).
    after: list[Callable[[], None]] = field(default_factory=list)
    # Identifiers of the records it touched, where known (path ids, the ids it made).
    ids: frozenset[str] = frozenset()
    origin: Origin = "local"

    def touches(self, kinds: frozenset[str]) -> bool:
        """Whether it changed a record of one of ``kinds`` (a workspace's ``shows``)."""
        return touches(self.records, kinds)


# A change of any kind, or a view that shows every kind (a dashboard counting every event).
ANY_KIND = "*"


def touches(changed: frozenset[str], kinds: frozenset[str]) -> bool:
    """Record kinds changed against record kinds shown; ``"m.*"`` on either side is any kind of
    module m, ``"*"`` any kind at all."""
    if changed and (ANY_KIND in changed or ANY_KIND in kinds):
        return True
    for k in changed:
        if k in kinds:
            return True
        if k.endswith(".*") and any(s.startswith(k[:-1]) for s in kinds):
            return True
        if f"{k.split('.', 1)[0]}.*" in kinds:
            return True
    return False


def module_kind(module: str) -> str:
    """The record kind meaning "any record of ``module``" (a change that declares no kind)."""
    return f"{module}.*"


@dataclass
class Runtime:
    """Process-wide wiring of the service layer."""

    db: Database
    secret_key: str
    data_dir: Path
    clock: Clock = field(default_factory=SystemClock)
    kind: Literal["platform", "station"] = "platform"
    station_id: str = "platform"
    station_key: bytes | None = None
    upload_limit: int = 20 * 1024 * 1024
    # Typed parts a module reads, one instance per class: its configuration (given by
    # ``app.wiring`` from the settings), stand-ins for the outside world (tests), its caches.
    _parts: dict[type, Any] = field(default_factory=dict, repr=False)
    # Called inside the emitting transaction for each new event (platform:
    # webhook fan-out). Station runtimes leave delivery to the platform.
    event_hooks: list[Callable[[Session, Any], None]] = field(default_factory=list)
    # Called after a unit of work committed (wake workers, tell open views).
    after_commit: list[Callable[[CommitInfo], None]] = field(default_factory=list)

    @property
    def is_station(self) -> bool:
        return self.kind == "station"

    def provide(self, *parts: object) -> None:
        """Give the runtime a typed part (a module's configuration, a stand-in, a cache)."""
        for part in parts:
            self._parts[type(part)] = part

    def part(self, cls: type[P], default: Callable[[], P] | None = None) -> P:
        """The part of class ``cls``: the one provided, else ``default()`` (kept), else ``cls()``."""
        found = self._parts.get(cls)
        if found is None:
            found = self._parts.setdefault(cls, default() if default is not None else cls())
        return found  # type: ignore[no-any-return]

    def announce(
        self,
        tenant_id: str | None,
        records: frozenset[str],
        *,
        origin: Origin,
        ids: frozenset[str] = frozenset(),
        changed: tuple[str, ...] = (),
    ) -> None:
        """Tell the after-commit listeners about a write committed outside ``Ctx.write`` (a sync pull,
        the station's own bookkeeping), in the same typed value a use case's commit publishes."""
        if records or changed:
            self.committed(CommitInfo(tenant_id, [], [], changed, records, ids=ids, origin=origin))

    def committed(self, info: CommitInfo) -> None:
        """Run the unit's follow-up work, then tell the after-commit listeners (a unit of work ended
        with a commit)."""
        for work in info.after:
            try:
                work()
            except Exception:  # noqa: BLE001 - committed: a follow-up's failure is logged, not the answer's
                log.exception("after-commit work %s failed", getattr(work, "__name__", work))
        for hook in self.after_commit:
            try:
                hook(info)
            except Exception:  # noqa: BLE001 - the change is committed; a listener's failure must not undo the answer
                log.exception("after-commit hook %s failed", getattr(hook, "__name__", hook))


class UnitOfWork:
    """One write transaction: rows, events and outbox entries commit together."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._conn: Connection | None = None
        self.events: list[tuple[str, str]] = []
        self.commands: list[str] = []
        self.after: list[Callable[[], None]] = []
        # Identifiers of the records the unit's use case touched (CommitInfo.ids).
        self.ids: set[str] = set()
        # Idempotency keys known unused in this transaction (a sync push looks a chunk's up at once).
        self.fresh_keys: set[str] = set()

    def connection(self) -> Connection:
        """The transaction's connection, looked up once: every write's event, counter step and outbox
        row each need it, and the session's lookup goes through its transaction machinery each time."""
        conn = self._conn
        if conn is None or conn.closed:
            conn = self._conn = self.session.connection()
        return conn


@dataclass
class Ctx:
    runtime: Runtime
    tenant: TenantInfo | None
    principal: Principal
    ip: str | None = None
    # Applying a station's change on the platform: the identifiers the station
    # made for it, taken again in the same order (local_db.base.IdPlan).
    replay_ids: list[str] | None = None
    # The use case being run (set by ``execute``): its commits say that it changed data.
    operation: tuple[str, str | None] | None = None
    _uow: UnitOfWork | None = field(default=None, repr=False)

    @property
    def tenant_id(self) -> str:
        if self.tenant is None:
            raise RuntimeError("this call has no tenant")
        return self.tenant.id

    @property
    def db(self) -> Database:
        return self.runtime.db

    def now(self) -> datetime:
        return self.runtime.clock.now()

    @property
    def uow(self) -> UnitOfWork:
        if self._uow is None:
            raise RuntimeError("no unit of work is open")
        return self._uow

    @contextmanager
    def write(self) -> Iterator[Session]:
        """Open (or join) the unit of work; commit when the outermost block ends."""
        if self._uow is not None:
            yield self._uow.session
            return
        tenant_id = self.tenant.id if self.tenant else None
        session = self.db.session(tenant_id, write=True)
        self._uow = UnitOfWork(session)
        try:
            yield session
            session.commit()
            info = CommitInfo(
                tenant_id,
                self._uow.events,
                self._uow.commands,
                *self._changes(),
                after=self._uow.after,
                ids=frozenset(self._uow.ids),
            )
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()
            self._uow = None
        self.runtime.committed(info)

    def _changes(self) -> tuple[tuple[str, ...], frozenset[str]]:
        if self.operation is None:
            return (), frozenset()
        name, record = self.operation
        return (name,), frozenset({record or module_kind(name.split(".", 1)[0])})

    @contextmanager
    def joined(self, session: Session, conn: Connection | None = None) -> Iterator[UnitOfWork]:
        """Make this call's writes part of a transaction the caller owns and commits
        (the sync push applies a station change and its receipt together); ``conn``: the
        session's connection, when the caller holds it already."""
        self._uow = UnitOfWork(session)
        self._uow._conn = conn
        try:
            yield self._uow
        finally:
            self._uow = None

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only session bound to the tenant (the open unit of work's, if any)."""
        if self._uow is not None:
            yield self._uow.session
            return
        with self.db.reading(self.tenant.id if self.tenant else None) as s:
            yield s

    def with_principal(self, principal: Principal) -> Ctx:
        return Ctx(self.runtime, self.tenant, principal, self.ip, self.replay_ids)
