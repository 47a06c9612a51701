"""Work that must happen later, by itself: periodic jobs a module declares and delayed jobs a use
case asks for, stored in ``scheduled_jobs`` and run by every server process's scheduler thread.

A module declares a periodic job in one line::

    @periodic("sign.sweep", every=timedelta(minutes=5))
    def _sweep(rt: Runtime) -> dict[str, Any] | None: ...

and a delayed one with ``@delayed("kind")`` plus ``schedule(session, "kind", at, params)``. Each
process's ``Scheduler`` claims a due job with a lease (one conditional UPDATE: it takes the row only
when no live lease holds it), renews the lease while the job runs and writes the end with the same
token. So across processes a job runs once, never twice at the same time, and a job whose process
died (kill -9) is taken again when its lease runs out. A job that raises keeps its error on the row
and is tried again after a back-off (a delayed job gives up after ``max_attempts``).

``on`` says where a periodic job runs: the platform server (default), a station (work a station
does alone), or both; the table is in both databases.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import Select, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db.base import new_id, table_of
from local_db.models.scheduler import ScheduledJob
from services.core import auth
from services.core.commands import use_case
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import NotFound
from services.core.roles import MANAGERS

log = logging.getLogger("services.scheduler")
T = "/api/tenants/{tenant}"
Where = Literal["platform", "station"]
Run = Callable[[Runtime], dict[str, Any] | None]
RunDelayed = Callable[[Runtime, str | None, dict[str, Any]], dict[str, Any] | None]
_T = table_of(ScheduledJob)


@dataclass(frozen=True)
class Periodic:
    name: str
    every: timedelta
    run: Run
    lease: timedelta
    on: tuple[Where, ...]


@dataclass(frozen=True)
class Delayed:
    kind: str
    run: RunDelayed
    lease: timedelta
    max_attempts: int


PERIODIC: dict[str, Periodic] = {}
DELAYED: dict[str, Delayed] = {}
RETRY_BASE = timedelta(seconds=30)  # first back-off after a failure, doubled each time
RETRY_CAP = timedelta(hours=1)


def periodic(
    name: str, every: timedelta, *, lease: timedelta = timedelta(minutes=5), on: tuple[Where, ...] = ("platform",)
) -> Callable[[Run], Run]:
    """Declare a job run every ``every`` (first run at the first start), once across processes."""
    if every <= timedelta(0):
        raise ValueError(f"periodic job {name!r}: every must be positive")

    def register(fn: Run) -> Run:
        PERIODIC[name] = Periodic(name, every, fn, lease, on)
        return fn

    return register


def delayed(
    kind: str, *, lease: timedelta = timedelta(minutes=5), max_attempts: int = 5
) -> Callable[[RunDelayed], RunDelayed]:
    """Declare what a delayed job of ``kind`` does: ``run(rt, tenant_id, params)``."""

    def register(fn: RunDelayed) -> RunDelayed:
        DELAYED[kind] = Delayed(kind, fn, lease, max_attempts)
        return fn

    return register


def schedule(
    s: Session, kind: str, at: datetime, params: dict[str, Any] | None = None, tenant_id: str | None = None
) -> str:
    """Add a delayed job due at ``at`` in the open transaction (it exists once that commits)."""
    if kind not in DELAYED:
        raise ValueError(f"no delayed job of kind {kind!r} is declared")
    job_id = new_id()
    s.add(
        ScheduledJob(
            id=job_id,
            name=f"{kind}:{job_id}",
            kind=kind,
            tenant_id=tenant_id,
            params=params or {},
            next_run_at=at,
            max_attempts=DELAYED[kind].max_attempts,
        )
    )
    return job_id


def each_tenant(
    rt: Runtime,
    fn: Callable[[Ctx], Any],
    *,
    among: Select[Any] | None = None,
    module: str | None = None,
    operation: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``fn`` as the system once per tenant (a periodic job over every tenant's data).

    ``among`` narrows the tenants to the ids that statement selects (those with due work), and
    ``module`` to those that have it; ``operation`` names the change for open lists. One tenant's
    failure is logged and leaves the others going: that tenant is missing from the answer."""
    from local_db.models import Tenant

    q = select(Tenant) if among is None else select(Tenant).where(Tenant.id.in_(among.scalar_subquery()))
    with rt.db.reading(None) as s:
        tenants = [auth.tenant_info(t) for t in s.execute(q).scalars()]
    results: dict[str, Any] = {}
    for tenant in tenants:
        if module is not None and module not in tenant.modules:
            continue
        ctx = Ctx(rt, tenant, SYSTEM)
        if operation is not None:
            ctx.operation = operation
        try:
            out = fn(ctx)
        except Exception:  # noqa: BLE001 - one tenant's failure leaves the others going
            log.exception("%s failed for a tenant", getattr(fn, "__qualname__", "a periodic job"))
            continue
        results[tenant.slug] = out.model_dump() if isinstance(out, BaseModel) else out
    return results


def _backoff(attempts: int, every: timedelta | None) -> timedelta:
    wait = min(RETRY_BASE * (2 ** max(attempts - 1, 0)), RETRY_CAP)
    return min(wait, every) if every is not None else wait


class Scheduler:
    """One process's scheduler: ``run_due`` claims and runs due jobs; ``start`` does it on a thread."""

    def __init__(self, rt: Runtime, *, poll: float = 1.0, batch: int = 50, owner: str | None = None) -> None:
        self.rt = rt
        self.poll = poll
        self.batch = batch
        self.owner = owner or f"{rt.station_id}:{uuid.uuid4().hex[:12]}"
        self.where: Where = "station" if rt.is_station else "platform"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running: tuple[str, str, timedelta] | None = None  # (job id, token, lease) being run
        self._lock = threading.Lock()

    # --- the declared periodic jobs become rows ---

    def sync(self) -> None:
        """Add a row for each periodic job declared here and not yet in the table (idempotent,
        safe when several processes start at once: the name is unique)."""
        now = self.rt.clock.now()
        mine = [p for p in PERIODIC.values() if self.where in p.on]
        with self.rt.db.reading(None) as s:
            have = set(s.execute(select(ScheduledJob.name).where(ScheduledJob.every_seconds.is_not(None))).scalars())
        for p in mine:
            every = int(p.every.total_seconds())
            if p.name in have:
                with self.rt.db.transaction(None) as s:  # the declaration's period may have changed
                    s.execute(update(_T).where(_T.c.name == p.name).values(every_seconds=every))
                continue
            try:
                with self.rt.db.transaction(None) as s:
                    s.add(ScheduledJob(name=p.name, kind=p.name, every_seconds=every, next_run_at=now))
            except IntegrityError:
                pass  # another process added it first

    # --- claiming and running ---

    def _lease_for(self, kind: str, periodic_job: bool) -> timedelta | None:
        if periodic_job:
            p = PERIODIC.get(kind)
            return p.lease if p is not None and self.where in p.on else None
        d = DELAYED.get(kind)
        return d.lease if d is not None and self.where == "platform" else None

    def run_due(self) -> int:
        """Claim and run the jobs due now, up to ``batch``; the number run."""
        now = self.rt.clock.now()
        free = or_(ScheduledJob.lease_until.is_(None), ScheduledJob.lease_until < now)
        with self.rt.db.reading(None) as s:
            rows = s.execute(
                select(ScheduledJob.id, ScheduledJob.kind, ScheduledJob.every_seconds)
                .where(ScheduledJob.status == "scheduled", ScheduledJob.next_run_at <= now, free)
                .order_by(ScheduledJob.next_run_at)
                .limit(self.batch)
            ).all()
        ran = 0
        for job_id, kind, every in rows:
            if self._stop.is_set():
                break
            lease = self._lease_for(kind, every is not None)
            if lease is None:
                continue  # declared in another kind of process (a station's job on the server)
            token = f"{self.owner}:{uuid.uuid4().hex[:8]}"
            if self._claim(job_id, token, lease):
                self._run(job_id, token, lease)
                ran += 1
        return ran

    def _claim(self, job_id: str, token: str, lease: timedelta) -> bool:
        now = self.rt.clock.now()
        with self.rt.db.transaction(None) as s:
            done = s.connection().execute(
                update(_T)
                .where(
                    _T.c.id == job_id,
                    _T.c.status == "scheduled",
                    _T.c.next_run_at <= now,
                    or_(_T.c.lease_until.is_(None), _T.c.lease_until < now),
                )
                .values(lease_owner=token, lease_until=now + lease, last_started_at=now)
            )
            return bool(done.rowcount == 1)

    def _run(self, job_id: str, token: str, lease: timedelta) -> None:
        with self.rt.db.reading(None) as s:
            job = s.get(ScheduledJob, job_id)
            assert job is not None
            kind, tenant_id, params, every = job.kind, job.tenant_id, dict(job.params or {}), job.every_seconds
            attempts, max_attempts, scheduled_at = job.attempts, job.max_attempts, job.next_run_at
        with self._lock:
            self._running = (job_id, token, lease)
        try:
            result = PERIODIC[kind].run(self.rt) if every is not None else DELAYED[kind].run(self.rt, tenant_id, params)
        except Exception as exc:  # noqa: BLE001 - the job failed, not the scheduler: said on its row
            log.warning("scheduled job %s (%s) failed: %s", job_id, kind, type(exc).__name__)
            error = f"{type(exc).__name__}: {exc}"[:500]
            self._finish(job_id, token, every, scheduled_at, attempts + 1, max_attempts, None, error)
        else:
            self._finish(job_id, token, every, scheduled_at, 0, max_attempts, result, None)
        finally:
            with self._lock:
                self._running = None

    def _finish(
        self,
        job_id: str,
        token: str,
        every: int | None,
        scheduled_at: datetime | None,
        attempts: int,
        max_attempts: int,
        result: dict[str, Any] | None,
        error: str | None,
    ) -> None:
        now = self.rt.clock.now()
        period = timedelta(seconds=every) if every is not None else None
        status, next_run = "scheduled", None
        if error is not None:
            if period is None and attempts >= max_attempts:
                status = "failed"
            else:
                next_run = now + _backoff(attempts, period)
        elif period is not None:
            # On the beat it was due at; a scheduler that was away does not run the missed beats.
            next_run = (scheduled_at or now) + period
            if next_run <= now:
                next_run = now + period
        else:
            status = "done"
        values: dict[str, Any] = {
            "status": status,
            "next_run_at": next_run,
            "lease_owner": None,
            "lease_until": None,
            "attempts": attempts,
            "runs": _T.c.runs + 1,
            "last_status": "failed" if error is not None else "succeeded",
            "last_error": error,
            "last_finished_at": now,
        }
        if error is None:
            values["last_result"] = result
        with self.rt.db.transaction(None) as s:
            # Only with our token: a run whose lease was lost leaves the row to the one that took it.
            s.connection().execute(update(_T).where(_T.c.id == job_id, _T.c.lease_owner == token).values(**values))

    def _renew(self) -> None:
        """Extend the lease of the job being run, so a long run is not taken by another process."""
        with self._lock:
            running = self._running
        if running is None:
            return
        job_id, token, lease = running
        with self.rt.db.transaction(None) as s:
            s.connection().execute(
                update(_T)
                .where(_T.c.id == job_id, _T.c.lease_owner == token)
                .values(lease_until=self.rt.clock.now() + lease)
            )

    # --- the thread ---

    def start(self) -> Scheduler:
        self.sync()
        self._thread = threading.Thread(target=self._loop, name="scheduler", daemon=True)
        self._thread.start()
        threading.Thread(target=self._heartbeat, name="scheduler-lease", daemon=True).start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.run_due()
            except Exception:  # noqa: BLE001 - the scheduler outlives one bad round (a database blip)
                log.exception("scheduler round failed")
                ran = 0
            if ran < self.batch:
                self._stop.wait(self.poll)

    def _heartbeat(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                running = self._running
            wait = running[2].total_seconds() / 3 if running is not None else self.poll
            if self._stop.wait(max(wait, 0.05)):
                return
            try:
                self._renew()
            except Exception:  # noqa: BLE001 - tried again at the next beat
                log.exception("renewing a scheduled job's lease failed")


# --- the admin's view -------------------------------------------------------------------------


class ScheduledJobOut(BaseModel):
    id: str
    name: str
    kind: str
    periodic: bool
    every_seconds: int | None
    status: str
    running: bool
    next_run_at: datetime | None
    last_started_at: datetime | None
    last_finished_at: datetime | None
    last_status: str | None
    last_error: str | None
    attempts: int
    runs: int


def _out(j: ScheduledJob, now: datetime) -> ScheduledJobOut:
    return ScheduledJobOut(
        id=j.id,
        name=j.name,
        kind=j.kind,
        periodic=j.every_seconds is not None,
        every_seconds=j.every_seconds,
        status=j.status,
        running=j.lease_until is not None and j.lease_until > now,
        next_run_at=j.next_run_at,
        last_started_at=j.last_started_at,
        last_finished_at=j.last_finished_at,
        last_status=j.last_status,
        last_error=j.last_error,
        attempts=j.attempts,
        runs=j.runs,
    )


class ScheduledJobsOut(BaseModel):
    items: list[ScheduledJobOut]


@use_case(
    "platform.scheduler.list",
    f"GET {T}/scheduler/jobs",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="the scheduler's jobs: the platform's periodic ones and this tenant's delayed ones, with last run and error",
)
def list_scheduled(ctx: Ctx) -> ScheduledJobsOut:
    with ctx.read() as s:
        rows = s.execute(
            select(ScheduledJob)
            .where(or_(ScheduledJob.tenant_id.is_(None), ScheduledJob.tenant_id == ctx.tenant_id))
            .order_by(ScheduledJob.every_seconds.is_(None), ScheduledJob.name)
            .limit(500)
        ).scalars()
        now = ctx.now()
        return ScheduledJobsOut(items=[_out(j, now) for j in rows])


@use_case(
    "platform.scheduler.get",
    f"GET {T}/scheduler/jobs/{{id}}",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="one scheduled job, with its last run and error",
)
def get_scheduled(ctx: Ctx, id: str) -> ScheduledJobOut:
    with ctx.read() as s:
        j = s.get(ScheduledJob, id)
        if j is None or j.tenant_id not in (None, ctx.tenant_id):
            raise NotFound("scheduled job not found", {"id": id})
        return _out(j, ctx.now())
