"""Long work (PDF catalogs, imports, sends, reports) as job records, run off the request.

A use case starts a job with ``submit`` inside its unit of work and answers 201 with the
record (DECISIONS: ``queued -> running -> succeeded | failed``, ``cancelled`` where it can be
stopped). A module registers what a kind of job does with ``job_kind``; the ``JobWorker`` of
the process (a thread on the server and on a station) claims queued jobs and runs them,
reporting progress in short transactions, so the desktop's jobs list shows a moving bar and
keeps the history.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select, update

from local_db.base import local_id, table_of
from local_db.models.jobs import Job
from services.core import auth
from services.core.commands import use_case
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import NotFound
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import STAFF
from services.core.states import machine, move

log = logging.getLogger("services.jobs")
T = "/api/tenants/{tenant}"

STATES = ("queued", "running", "succeeded", "failed", "cancelled")
JOB = machine(
    "job",
    STATES,
    [
        move("queued", "start", "running", "system"),
        move("running", "succeed", "succeeded", "system"),
        move("running", "fail", "failed", "system"),
        move("queued", "cancel", "cancelled"),
        move("running", "cancel", "cancelled"),
    ],
    terminal=("succeeded", "failed", "cancelled"),
)

_JOBS = table_of(Job)
Report = Callable[[int, int, str | None], None]  # (done, total, message)


class Cancelled(Exception):
    """The job was cancelled while it ran: the runner stops at its next report."""


@dataclass(frozen=True)
class JobKind:
    kind: str
    title: str
    run: Callable[[Ctx, dict[str, Any], Report], dict[str, Any] | None]


KINDS: dict[str, JobKind] = {}
# Work the worker does on each round besides queued jobs (a module's scheduler: due campaign
# sends, flow steps). Each takes the runtime and must be quick when nothing is due.
TICKS: list[Callable[[Runtime], None]] = []


def job_kind(kind: str, title: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register what a kind of job does: ``run(ctx, params, report) -> result``."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        KINDS[kind] = JobKind(kind, title, fn)
        return fn

    return register


class JobOut(BaseModel):
    id: str
    kind: str
    title: str
    status: str
    progress: int  # percent
    done: int
    total: int
    message: str | None
    result: dict[str, Any] | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class JobQuery(ListQuery):
    status: str | None = None
    kind: str | None = None


def out(j: Job) -> JobOut:
    pct = 100 if j.status == "succeeded" else (int(100 * j.done / j.total) if j.total else 0)
    return JobOut(
        id=j.id,
        kind=j.kind,
        title=j.title,
        status=j.status,
        progress=pct,
        done=j.done,
        total=j.total,
        message=j.message,
        result=j.result,
        created_at=j.created_at,
        started_at=j.started_at,
        finished_at=j.finished_at,
    )


def submit(ctx: Ctx, kind: str, params: dict[str, Any] | None = None, title: str | None = None) -> JobOut:
    """Queue a job in the open unit of work; the worker is woken once it commits."""
    spec = KINDS[kind]
    s = ctx.uow.session
    job = Job(
        # A job runs where it is queued (not a synced record): its id is no part of a replayed change's plan.
        id=local_id(),
        kind=kind,
        title=title or spec.title,
        status="queued",
        params=params or {},
        created_by=ctx.principal.user_id,
        created_at=ctx.now(),
    )
    s.add(job)
    s.flush()
    worker = ctx.runtime.part(Workers).for_runtime
    if worker is not None:
        ctx.uow.after.append(worker.wake)
    return out(job)


# --- use cases --------------------------------------------------------------------------------


@use_case(
    "platform.jobs.list",
    f"GET {T}/jobs",
    tx="read",
    roles=STAFF,
    module="platform",
    record="platform.job",
    summary="list long work: generations, imports, sends",
)
def list_jobs(ctx: Ctx, query: JobQuery) -> Page[JobOut]:
    stmt = select(Job)
    if query.status:
        stmt = stmt.where(Job.status == query.status)
    if query.kind:
        stmt = stmt.where(Job.kind == query.kind)
    if query.search:
        stmt = stmt.where(contains(Job.title, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": Job.created_at, "status": Job.status})
    return page.map(out)


@use_case(
    "platform.jobs.get",
    f"GET {T}/jobs/{{id}}",
    tx="read",
    roles=STAFF,
    module="platform",
    record="platform.job",
    summary="one job, with its progress",
)
def get_job(ctx: Ctx, id: str) -> JobOut:
    with ctx.read() as s:
        j = s.get(Job, id)
        if j is None:
            raise NotFound("job not found", {"id": id})
        return out(j)


@use_case(
    "platform.jobs.cancel",
    f"POST {T}/jobs/{{id}}/cancel",
    tx="write",
    roles=STAFF,
    module="platform",
    says="Cancel job",
    record="platform.job",
    summary="stop a queued or running job",
)
def cancel_job(ctx: Ctx, id: str) -> JobOut:
    with ctx.write() as s:
        j = s.get(Job, id, with_for_update=True)
        if j is None:
            raise NotFound("job not found", {"id": id})
        j.status = JOB.check(j.status, "cancel")
        j.finished_at = ctx.now()
        s.flush()
        return out(j)


# --- the worker ---------------------------------------------------------------------------------


@dataclass
class Workers:
    """The runtime's job worker, when one runs (``JobWorker.start``)."""

    for_runtime: JobWorker | None = None


class JobWorker:
    """Runs queued jobs one at a time on a thread of its own; ``wake`` after a job is queued."""

    def __init__(self, rt: Runtime, poll: float = 5.0) -> None:
        self.rt = rt
        self.poll = poll
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> JobWorker:
        self.rt.provide(Workers(self))
        self._thread = threading.Thread(target=self._loop, name="jobs", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self.rt.part(Workers).for_runtime is self:
            self.rt.provide(Workers(None))

    def wake(self) -> None:
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                while not self._stop.is_set() and self.run_one():
                    pass
            except Exception:  # noqa: BLE001 - the worker outlives one bad round; the job was marked failed
                log.exception("job worker round failed")
            for tick in TICKS:
                try:
                    tick(self.rt)
                except Exception:  # noqa: BLE001 - a module's scheduler failing leaves the jobs going
                    log.exception("job worker tick failed")
            self._wake.wait(self.poll)
            self._wake.clear()

    def run_one(self) -> bool:
        """Claim the oldest queued job and run it; False when none waits."""
        db, now = self.rt.db, self.rt.clock.now()
        with db.reading(None) as s:
            row = s.execute(
                select(Job.id, Job.tenant_id).where(Job.status == "queued").order_by(Job.created_at).limit(1)
            ).first()
        if row is None:
            return False
        job_id, tenant_id = row
        with db.transaction(None) as s:
            claimed = s.connection().execute(
                update(_JOBS)
                .where(_JOBS.c.id == job_id, _JOBS.c.status == "queued")
                .values(status=JOB.check("queued", "start", "system"), started_at=now)
            )
            if claimed.rowcount != 1:
                return True  # another worker took it
            job = s.get(Job, job_id)
            assert job is not None
            kind, params, creator = job.kind, dict(job.params or {}), job.created_by
        ctx = self._ctx(tenant_id, creator)
        spec = KINDS.get(kind)
        try:
            if spec is None:
                raise RuntimeError(f"no runner for jobs of kind {kind!r} in this process")

            def report(done: int, total: int, message: str | None = None) -> None:
                self._report(ctx, job_id, done, total, message)

            result = spec.run(ctx, params, report)
        except Cancelled:
            return True
        except Exception as exc:  # noqa: BLE001 - the job failed, not the worker: said on the record
            log.warning("job %s (%s) failed: %s", job_id, kind, type(exc).__name__)
            self._finish(ctx, job_id, "fail", {"error": str(exc)[:500] or type(exc).__name__})
            return True
        self._finish(ctx, job_id, "succeed", result)
        return True

    def _ctx(self, tenant_id: str, user_id: str | None) -> Ctx:
        with self.rt.db.reading(None) as s:
            from local_db.models import Tenant

            t = s.get(Tenant, tenant_id)
            assert t is not None
            tenant = auth.tenant_info(t)
        try:
            principal = auth.user_principal(self.rt.db, user_id, tenant) if user_id else SYSTEM
        except Exception:  # noqa: BLE001 - the person left the tenant since: the work is done as the system
            principal = SYSTEM
        ctx = Ctx(self.rt, tenant, principal)
        ctx.operation = ("platform.jobs.progress", "platform.job")  # open job lists refresh on each report
        return ctx

    def _report(self, ctx: Ctx, job_id: str, done: int, total: int, message: str | None) -> None:
        with ctx.write() as s:
            j = s.get(Job, job_id)
            if j is None or j.status == "cancelled":
                raise Cancelled
            j.done, j.total, j.message = done, total, message

    def _finish(self, ctx: Ctx, job_id: str, action: str, result: dict[str, Any] | None) -> None:
        with ctx.write() as s:
            j = s.get(Job, job_id)
            if j is None or j.status != "running":
                return  # cancelled meanwhile: the person's decision stands
            j.status = JOB.check(j.status, action, "system")
            j.finished_at = ctx.now()
            if action == "succeed":
                j.done = j.total = max(j.total, j.done, 1)
                j.result = result
            else:
                j.message, j.result = (result or {}).get("error"), result
