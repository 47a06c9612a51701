"""Long work as job records: queued, run off the request with progress, failed or cancelled, listed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from services.core import auth
from services.core.commands import execute, use_case
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden
from services.core.jobs import JobOut, JobWorker, Report, job_kind, submit
from services.core.roles import STAFF
from services.core.schemas import Strict
from tests.conftest import auth_headers

GATE = threading.Event()


class CountIn(Strict):
    to: int
    fail: bool = False
    wait: bool = False


@job_kind("test.count", "Count")
def _count(ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    for i in range(params["to"]):
        if params.get("wait"):
            GATE.wait(5)
        report(i + 1, params["to"], f"counted {i + 1}")
    if params.get("fail"):
        raise ValueError("the count went wrong")
    return {"counted": params["to"]}


@use_case("test.jobs.start", "POST /_test/jobs", tx="write", module="support", roles=STAFF, status=201)
def _start(ctx: Ctx, body: CountIn) -> JobOut:
    with ctx.write():
        return submit(ctx, "test.count", body.model_dump(), title=f"Count to {body.to}")


def _ctx(rt: Runtime, email: str = "operator@demo.test") -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


@pytest.fixture
def worker(runtime: Runtime) -> Iterator[JobWorker]:
    w = JobWorker(runtime, poll=0.05).start()
    yield w
    GATE.set()
    w.stop()
    GATE.clear()


def _until(ctx: Ctx, job_id: str, *states: str) -> JobOut:
    deadline = time.monotonic() + 10
    while True:
        job = execute(ctx, "platform.jobs.get", id=job_id)
        if job.status in states or time.monotonic() > deadline:
            return job
        time.sleep(0.02)


def test_a_job_runs_after_the_commit_with_progress_and_its_result(runtime: Runtime, worker: JobWorker) -> None:
    ctx = _ctx(runtime)
    job = execute(ctx, "test.jobs.start", body={"to": 3})
    assert job.status == "queued" and job.title == "Count to 3"
    done = _until(ctx, job.id, "succeeded", "failed")
    assert done.status == "succeeded" and done.progress == 100 and done.result == {"counted": 3}
    assert done.started_at is not None and done.finished_at is not None
    listed = execute(ctx, "platform.jobs.list", query={"status": "succeeded"})
    assert [j.id for j in listed.items] == [job.id]


def test_a_failing_job_says_why_and_the_worker_goes_on(runtime: Runtime, worker: JobWorker) -> None:
    ctx = _ctx(runtime)
    bad = execute(ctx, "test.jobs.start", body={"to": 2, "fail": True})
    good = execute(ctx, "test.jobs.start", body={"to": 1})
    failed = _until(ctx, bad.id, "failed")
    assert failed.status == "failed" and failed.message == "the count went wrong"
    assert _until(ctx, good.id, "succeeded").status == "succeeded"


def test_cancel_stops_a_queued_or_running_job_and_not_a_finished_one(runtime: Runtime, worker: JobWorker) -> None:
    ctx = _ctx(runtime)
    running = execute(ctx, "test.jobs.start", body={"to": 3, "wait": True})
    assert _until(ctx, running.id, "running").status == "running"
    assert execute(ctx, "platform.jobs.cancel", id=running.id).status == "cancelled"
    GATE.set()
    time.sleep(0.2)
    after = execute(ctx, "platform.jobs.get", id=running.id)
    assert after.status == "cancelled" and after.done <= 1  # it stopped at its next report
    with pytest.raises(Conflict):
        execute(ctx, "platform.jobs.cancel", id=running.id)


def test_a_job_made_without_a_worker_waits_and_a_refused_start_queues_nothing(runtime: Runtime) -> None:
    ctx = _ctx(runtime)
    job = execute(ctx, "test.jobs.start", body={"to": 1})
    assert execute(ctx, "platform.jobs.get", id=job.id).status == "queued"
    with pytest.raises(Exception):  # noqa: B017 - a bad body: no job at all
        execute(ctx, "test.jobs.start", body={"to": "many"})
    assert execute(ctx, "platform.jobs.list", query={}).total == 1
    w = JobWorker(runtime, poll=0.05).start()
    try:
        assert _until(ctx, job.id, "succeeded").status == "succeeded"
    finally:
        w.stop()
    with pytest.raises(Forbidden):
        execute(_ctx(runtime, "device@demo.test"), "platform.jobs.list", query={})


def test_jobs_over_http(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")
    r = client.get("/api/tenants/demo/jobs", headers=op)
    assert r.status_code == 200 and r.json()["data"] == []
    assert client.get("/api/tenants/demo/jobs/nope", headers=op).status_code == 404
    device = auth_headers(client, "device@demo.test")
    assert client.get("/api/tenants/demo/jobs", headers=device).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get("/api/tenants/demo/jobs", headers=other).status_code in (401, 403)
