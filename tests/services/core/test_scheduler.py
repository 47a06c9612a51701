"""The scheduler: periodic and delayed jobs in the database, leased so that one runs once across
processes and again after a crash; errors kept and retried; the admin's list."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from local_db.models.scheduler import ScheduledJob
from services.core import scheduler
from services.core.clock import FixedClock
from services.core.context import Runtime
from services.core.scheduler import Periodic, Scheduler, delayed, schedule
from tests.conftest import auth_headers

WORKER = Path(__file__).resolve().parents[2] / "bench" / "scheduler_worker.py"


def _fixed(rt: Runtime) -> tuple[Runtime, FixedClock]:
    clock = FixedClock()
    return Runtime(db=rt.db, secret_key=rt.secret_key, data_dir=rt.data_dir, clock=clock), clock


def _row(rt: Runtime, name: str) -> ScheduledJob:
    with rt.db.reading(None) as s:
        row = s.execute(select(ScheduledJob).where(ScheduledJob.name == name)).scalar_one()
        s.expunge(row)
        return row


def test_a_periodic_job_runs_once_across_schedulers_and_on_its_beat(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt, clock = _fixed(runtime)
    calls: list[int] = []
    job = Periodic("test.tick", timedelta(minutes=10), lambda _rt: calls.append(1) or {"n": len(calls)},
                   timedelta(minutes=1), ("platform",))  # fmt: skip
    monkeypatch.setattr(scheduler, "PERIODIC", {"test.tick": job})
    a, b = Scheduler(rt, owner="a"), Scheduler(rt, owner="b")
    a.sync()
    b.sync()  # a second process starting: still one row
    start = clock.now()
    assert a.run_due() == 1 and b.run_due() == 0
    assert calls == [1]
    clock.advance(minutes=9)
    assert b.run_due() == 0
    clock.advance(minutes=1)
    assert b.run_due() == 1 and a.run_due() == 0
    row = _row(rt, "test.tick")
    assert (row.runs, row.last_status, row.last_error, row.last_result) == (2, "succeeded", None, {"n": 2})
    assert row.next_run_at == start + timedelta(minutes=20)
    # A scheduler away for an hour runs the job once, not the six missed beats.
    clock.advance(hours=1)
    assert a.run_due() == 1 and a.run_due() == 0
    assert _row(rt, "test.tick").next_run_at == clock.now() + timedelta(minutes=10)


FAILS: Counter[str] = Counter()


@delayed("test.flaky", max_attempts=3)
def _flaky(rt: Runtime, tenant_id: str | None, params: dict[str, Any]) -> dict[str, Any]:
    FAILS[params["key"]] += 1
    if FAILS[params["key"]] <= params["fail"]:
        raise ValueError("the printer is out of paper")
    return {"tries": FAILS[params["key"]]}


def _schedule(rt: Runtime, kind: str, params: dict[str, Any], **kw: Any) -> str:
    with rt.db.transaction(None) as s:
        return schedule(s, kind, rt.clock.now(), params, **kw)


def test_a_job_that_raises_keeps_its_error_and_is_retried_by_its_policy(runtime: Runtime) -> None:
    rt, clock = _fixed(runtime)
    sched = Scheduler(rt, owner="a")
    job_id = _schedule(rt, "test.flaky", {"key": "twice", "fail": 2})
    name = f"test.flaky:{job_id}"
    assert sched.run_due() == 1
    row = _row(rt, name)
    assert (row.status, row.attempts, row.last_status) == ("scheduled", 1, "failed")
    assert row.last_error == "ValueError: the printer is out of paper"
    assert row.next_run_at == clock.now() + timedelta(seconds=30)
    assert sched.run_due() == 0  # not before its back-off
    clock.advance(seconds=30)
    assert sched.run_due() == 1
    assert _row(rt, name).next_run_at == clock.now() + timedelta(seconds=60)  # doubled
    clock.advance(seconds=60)
    assert sched.run_due() == 1
    row = _row(rt, name)
    assert (row.status, row.attempts, row.runs, row.last_error, row.last_result) == ("done", 0, 3, None, {"tries": 3})
    assert row.next_run_at is None
    clock.advance(days=1)
    assert sched.run_due() == 0  # done: never again

    # One that always fails gives up after max_attempts, its last error kept.
    job_id = _schedule(rt, "test.flaky", {"key": "always", "fail": 99})
    for _ in range(3):
        assert sched.run_due() == 1
        clock.advance(hours=1)
    row = _row(rt, f"test.flaky:{job_id}")
    assert (row.status, row.attempts, row.next_run_at) == ("failed", 3, None)
    assert row.last_error == "ValueError: the printer is out of paper"
    assert sched.run_due() == 0


def test_a_held_lease_is_not_taken_and_a_lost_one_does_not_write_its_end(runtime: Runtime) -> None:
    rt, clock = _fixed(runtime)
    a, b = Scheduler(rt, owner="a"), Scheduler(rt, owner="b")
    job_id = _schedule(rt, "test.flaky", {"key": "lease", "fail": 0})
    assert a._claim(job_id, "a:1", timedelta(minutes=5))  # a runs it (and dies, say)
    assert not b._claim(job_id, "b:1", timedelta(minutes=5))
    assert b.run_due() == 0
    clock.advance(minutes=5, seconds=1)  # a's lease ran out
    assert b.run_due() == 1
    a._finish(job_id, "a:1", None, None, 0, 5, {"late": True}, None)  # a's late end is ignored
    row = _row(rt, f"test.flaky:{job_id}")
    assert (row.status, row.runs, row.last_result) == ("done", 1, {"tries": 1})


def test_bad_declarations_are_refused(runtime: Runtime) -> None:
    with pytest.raises(ValueError, match="no delayed job of kind"), runtime.db.transaction(None) as s:
        schedule(s, "test.nobody", runtime.clock.now())
    with pytest.raises(ValueError, match="every must be positive"):
        scheduler.periodic("test.never", timedelta(0))
    with runtime.db.reading(None) as s:
        assert s.execute(select(ScheduledJob).where(ScheduledJob.kind == "test.nobody")).first() is None


def test_the_modules_declare_their_periodic_jobs() -> None:
    assert {"sign.sweep", "events.retention", "events.endpoint_health", "support.mailbox_poll",
            "support.sla_escalation"} <= set(scheduler.PERIODIC)  # fmt: skip


def test_admins_see_the_jobs_with_last_run_and_error(runtime: Runtime, client: httpx.Client) -> None:
    sched = Scheduler(runtime, owner="t")
    sched.sync()
    job_id = _schedule(runtime, "test.flaky", {"key": "api", "fail": 1})
    sched.run_due()
    admin = auth_headers(client, "admin@demo.test")
    r = client.get("/api/tenants/demo/scheduler/jobs", headers=admin)
    assert r.status_code == 200, r.text
    items = {i["name"]: i for i in r.json()["data"]["items"]}
    sweep = items["sign.sweep"]
    assert sweep["periodic"] and sweep["every_seconds"] == 900 and sweep["last_status"] == "succeeded"
    assert sweep["runs"] == 1 and sweep["next_run_at"] and sweep["last_finished_at"]
    flaky = items[f"test.flaky:{job_id}"]
    assert flaky["last_error"] == "ValueError: the printer is out of paper" and flaky["attempts"] == 1
    one = client.get(f"/api/tenants/demo/scheduler/jobs/{job_id}", headers=admin)
    assert one.status_code == 200 and one.json()["data"]["kind"] == "test.flaky"
    assert client.get("/api/tenants/demo/scheduler/jobs/nope", headers=admin).status_code == 404
    operator = auth_headers(client, "operator@demo.test")
    assert client.get("/api/tenants/demo/scheduler/jobs", headers=operator).status_code == 403


# --- several processes -------------------------------------------------------------------------


def _url(rt: Runtime) -> str:
    return rt.db.engine.url.render_as_string(hide_password=False)


def _worker(rt: Runtime, log: Path, lease: float = 1.0) -> subprocess.Popen[str]:
    p = subprocess.Popen(
        [sys.executable, str(WORKER), _url(rt), str(log), str(lease)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def _lines(log: Path, word: str) -> Counter[str]:
    if not log.exists():
        return Counter()
    return Counter(ln.split()[1] for ln in log.read_text().splitlines() if ln.startswith(word + " "))


def _until(check: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_two_processes_run_each_due_job_once_and_a_killed_ones_job_again_once(runtime: Runtime, tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    delayed("test.mark")(lambda rt, tenant_id, params: None)  # run by the worker processes, declared there
    with runtime.db.transaction(None) as s:
        for n in range(60):
            schedule(s, "test.mark", runtime.clock.now(), {"n": n, "block": n == 0})
    workers = [_worker(runtime, log), _worker(runtime, log)]
    try:
        _until(lambda: len(_lines(log, "done")) == 59 and len(_lines(log, "start")) == 60)
        # Job 0 blocks in the process that took it: kill -9 that process mid-job.
        holder = int((tmp_path / "runs.log.blocked-0").read_text())
        victim = next(w for w in workers if w.pid == holder)
        victim.kill()
        victim.wait(30)
        _until(lambda: _lines(log, "done")["0"] == 1)  # the other took it once the lease ran out

        def marks() -> list[Any]:
            with runtime.db.reading(None) as s:
                return list(
                    s.execute(
                        select(ScheduledJob.status, ScheduledJob.runs).where(ScheduledJob.kind == "test.mark")
                    ).all()
                )

        # "done" is logged by the job itself, just before its process commits the run: wait for
        # that commit (a busy machine once read the row between the two).
        _until(lambda: all(r[0] not in ("scheduled", "running") for r in marks()))
        rows = marks()
        assert len(rows) == 60 and all(r == ("done", 1) for r in rows)
        done, started = _lines(log, "done"), _lines(log, "start")
        assert set(done.values()) == {1} and len(done) == 60  # none twice, none lost
        assert started["0"] == 2 and sum(started.values()) == 61  # job 0 started again, once
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait(30)
