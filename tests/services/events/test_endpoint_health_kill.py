"""Nothing mailed twice after a kill -9: a server process is killed while the endpoint health job's
mail is on the wire (the SMTP server stored it and keeps its answer back); the job's lease runs out,
another process runs the job again, and the owner still has one mail."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from local_db.models.scheduler import ScheduledJob
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from tests.api.events.receiver import Certs, Receiver, Reply
from tests.services.events.conftest import ctx_for
from tests.services.events.test_endpoint_health import _publish_and_deliver
from tests.services.events.test_events_worker import configure, sub
from tests.smtp_server import SmtpServer

WORKER = Path(__file__).resolve().parents[2] / "bench" / "periodic_worker.py"
JOB = "events.endpoint_health"


def start_worker(rt: Runtime, job: str, smtp_url: str, lease: float = 1.0) -> subprocess.Popen[str]:
    url = rt.db.engine.url.render_as_string(hide_password=False)
    p = subprocess.Popen(
        [sys.executable, str(WORKER), url, job, str(lease), smtp_url], stdout=subprocess.PIPE, text=True
    )
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def until(check: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def job_row(rt: Runtime, name: str) -> tuple[int, str | None, dict[str, Any] | None]:
    with rt.db.reading(None) as s:
        row = s.execute(select(ScheduledJob.runs, ScheduledJob.lease_owner, ScheduledJob.last_result).where(
            ScheduledJob.name == name)).one_or_none()  # fmt: skip
    return (0, None, None) if row is None else (row[0], row[1], row[2])


def test_a_worker_killed_while_mailing_does_not_mail_twice(runtime: Runtime, certs: Certs, receiver: Receiver) -> None:
    # The failures happened six days ago (the worker processes read the real clock).
    runtime.clock = FixedClock(datetime.now(UTC) - timedelta(days=6))
    configure(runtime, certs, delays=(0,))
    down = sub(runtime, receiver.script("/dead", Reply(500)))
    _publish_and_deliver(runtime)
    with SmtpServer() as smtp:
        smtp.hold = True
        first = start_worker(runtime, JOB, smtp.url)
        second = None
        try:
            until(lambda: len(smtp.messages) == 1)
            first.kill()  # kill -9 while the mail's answer is kept back: the job's end is never written
            first.wait(30)
            runs, owner, _ = job_row(runtime, JOB)
            assert runs == 0 and owner is not None  # still leased by the dead process
            smtp.hold = False
            second = start_worker(runtime, JOB, smtp.url)
            until(lambda: job_row(runtime, JOB)[0] == 1)  # the lease ran out, the job ran again
            assert job_row(runtime, JOB)[2] == {"disabled": 0}  # found it disabled: nothing to do
            assert len(smtp.messages) == 1
        finally:
            for p in (first, second):
                if p is not None and p.poll() is None:
                    p.kill()
                    p.wait(30)
    assert not execute(ctx_for(runtime), "events.subscriptions.get", sub_id=down).active
