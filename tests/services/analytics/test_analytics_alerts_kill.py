"""Nothing mailed twice after a kill -9: a server process is killed while an alert's mail is on the
wire (the SMTP server stored it and keeps its answer back); another process runs the job again once
the lease ends, and the recipient still has one mail."""

from __future__ import annotations

from datetime import UTC, datetime

from services.core.commands import execute
from services.core.context import Runtime
from tests.services.analytics.test_analytics_service import ctx_for
from tests.services.events.test_endpoint_health_kill import job_row, start_worker, until
from tests.smtp_server import SmtpServer

JOB = "analytics.alerts"


def test_a_worker_killed_while_mailing_an_alert_does_not_mail_it_twice(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    body = {"name": "lots", "value": 50, "at": datetime.now(UTC).isoformat()}
    execute(ctx, "analytics.metrics.record", body=body)
    alert = {"name": "Lots", "metric": "lots", "threshold": 10, "window_days": 1, "recipients": ["ops@example.com"]}
    made = execute(ctx, "analytics.alerts.create", body=alert)
    with SmtpServer() as smtp:
        smtp.hold = True
        first = start_worker(runtime, JOB, smtp.url)
        second = None
        try:
            until(lambda: len(smtp.messages) == 1)
            first.kill()  # kill -9 mid-reply: the job's end is never written
            first.wait(30)
            assert job_row(runtime, JOB)[0] == 0
            smtp.hold = False
            second = start_worker(runtime, JOB, smtp.url)
            until(lambda: job_row(runtime, JOB)[0] == 1)  # run again after the lease
            assert job_row(runtime, JOB)[2] == {"fired": 0}  # already firing: nothing sent
            assert len(smtp.messages) == 1
        finally:
            for p in (first, second):
                if p is not None and p.poll() is None:
                    p.kill()
                    p.wait(30)
    assert execute(ctx, "analytics.alerts.get", id=made.id).state == "firing"
