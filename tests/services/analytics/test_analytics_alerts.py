"""Analytics alerts, reports and dashboards mailed on the scheduler (real SMTP on loopback), and one
date range shared by every card of a dashboard."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any, cast

import pytest
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.analytics import AnalyticsAlert, AnalyticsSchedule
from services.analytics import alerts, scheduled_reports
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import ValidationFailed
from services.core.mail import MailConfig
from services.core.scheduler import PERIODIC
from tests.services.analytics.test_analytics_service import ctx_for
from tests.smtp_server import SmtpServer

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def _record(rt: Runtime, value: float, at: datetime, name: str = "orders.value") -> None:
    execute(ctx_for(rt), "analytics.metrics.record", body={"name": name, "value": value, "at": at.isoformat()})


def _count(rt: Runtime, model: Any, *where: Any) -> int:
    with rt.db.reading(None) as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def _mails(smtp: SmtpServer) -> list[EmailMessage]:
    return [cast(EmailMessage, message_from_bytes(m["data"], policy=default)) for m in smtp.messages]


def test_an_alert_fires_once_per_crossing_mailed_and_emitted(runtime: Runtime) -> None:
    clock = FixedClock(NOW)
    runtime.clock = clock
    _record(runtime, 4, NOW - timedelta(days=3))  # outside a 2-day window
    _record(runtime, 5, NOW - timedelta(hours=1))
    body = {
        "name": "Big order day",
        "metric": "orders.value",
        "condition": "above",
        "threshold": 10,
        "window_days": 2,
        "recipients": ["Boss@Example.com"],
    }
    a = execute(ctx_for(runtime, "admin@demo.test"), "analytics.alerts.create", body=body)
    assert a.state == "ok" and a.recipients == ["boss@example.com"]
    assert PERIODIC["analytics.alerts"].run is alerts.check_all
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        assert alerts.check_all(runtime) == {"fired": 0}
        _record(runtime, 6, NOW)  # 11 over the last 2 days: crosses
        assert alerts.check_all(runtime) == {"fired": 1}
        assert alerts.check_all(runtime) == {"fired": 0}  # still above: no second mail
        assert len(smtp.messages) == 1 and smtp.messages[0]["rcpt"] == ["boss@example.com"]
        mail = _mails(smtp)[0]
        assert mail["Subject"] == "Alert: Big order day"
        assert "orders.value summed over the last 2 days is 11" in str(mail.get_content())
        got = execute(ctx_for(runtime), "analytics.alerts.get", id=a.id)
        assert (got.state, got.last_value, got.fired_at) == ("firing", 11.0, NOW)
        clock.advance(days=2)  # the window moves past the big days: back to ok, silently
        assert alerts.check_all(runtime) == {"fired": 0}
        assert execute(ctx_for(runtime), "analytics.alerts.get", id=a.id).state == "ok"
        _record(runtime, 20, clock.now())
        assert alerts.check_all(runtime) == {"fired": 1}  # a new crossing fires again
        assert len(smtp.messages) == 2
    with runtime.db.reading(None) as s:
        evs = list(s.scalars(select(Event).where(Event.type == "analytics.alert_triggered").order_by(Event.created_at)))
    assert [(e.data["alert_id"], e.data["value"]) for e in evs] == [(a.id, 11.0), (a.id, 20.0)]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"metric": "no.such.metric"}, "unknown metric 'no.such.metric'"),
        ({"window_days": 0}, "window_days"),
        ({"condition": "sideways"}, "condition"),
        ({"recipients": []}, "recipients"),
        ({"recipients": ["not-an-address"]}, "recipients"),
        ({"threshold": "nan"}, "threshold"),
    ],
)
def test_a_bad_alert_is_refused_and_stores_nothing(runtime: Runtime, change: dict[str, Any], says: str) -> None:
    _record(runtime, 1, datetime.now(UTC))
    body = {"name": "x", "metric": "orders.value", "threshold": 1, "window_days": 1, "recipients": ["a@b.example"]}
    with pytest.raises(ValidationFailed) as err:
        execute(ctx_for(runtime), "analytics.alerts.create", body={**body, **change})
    assert says in str(err.value) + str(err.value.details)
    assert _count(runtime, AnalyticsAlert) == 0


def _dashboard(rt: Runtime) -> str:
    widgets = [
        {"title": "Orders", "metric": "orders.value", "filters": {"days": 7}},
        {"title": "Shipped", "metric": "events.order.shipped", "chart": "bar", "filters": {"days": 90}},
    ]
    body = {"name": "Weekly ops", "widgets": widgets}
    return str(execute(ctx_for(rt), "analytics.dashboards.create", body=body).id)


def test_one_date_range_for_every_card_of_a_dashboard(runtime: Runtime) -> None:
    runtime.clock = FixedClock(NOW)
    _record(runtime, 3, datetime(2026, 2, 1, 12, tzinfo=UTC))
    _record(runtime, 4, datetime(2026, 2, 20, 12, tzinfo=UTC))
    d = _dashboard(runtime)
    own = execute(ctx_for(runtime), "analytics.dashboards.data", id=d)
    assert [len(w.series) for w in own.widgets] == [7, 90] and own.from_ is None
    q = {"from": "2026-02-01", "to": "2026-02-14"}
    shared = execute(ctx_for(runtime), "analytics.dashboards.data", id=d, query=q)
    assert [len(w.series) for w in shared.widgets] == [14, 14]
    assert (shared.from_, shared.to) == (date(2026, 2, 1), date(2026, 2, 14))
    assert shared.widgets[0].total == 3.0 and shared.widgets[0].series[0].bucket == date(2026, 2, 1)
    assert shared.model_dump(mode="json", by_alias=True)["from"] == "2026-02-01"
    only_to = execute(ctx_for(runtime), "analytics.dashboards.data", id=d, query={"to": "2026-02-20"})
    assert [len(w.series) for w in only_to.widgets] == [30, 30] and only_to.widgets[0].total == 7.0
    for bad in ({"from": "2026-02-14", "to": "2026-02-01"}, {"from": "yesterday"}):
        with pytest.raises(ValidationFailed):
            execute(ctx_for(runtime), "analytics.dashboards.data", id=d, query=bad)


def test_reports_and_dashboards_are_mailed_as_pdf_or_csv_on_the_scheduler(runtime: Runtime) -> None:
    clock = FixedClock(NOW)
    runtime.clock = clock
    _record(runtime, 7, NOW - timedelta(days=1))
    d = _dashboard(runtime)
    ctx = ctx_for(runtime, "admin@demo.test")
    rec = ["ops@example.com", "cfo@example.com"]
    pdf = execute(ctx, "analytics.schedules.create", body={"name": "Ops weekly", "dashboard_id": d, "recipients": rec})
    assert pdf.next_run_at == NOW + timedelta(days=7) and pdf.format == "pdf"
    body = {"name": "Orders daily", "metrics": ["orders.value"], "format": "csv", "every": "day", "range_days": 3}
    sheet = execute(ctx, "analytics.schedules.create", body={**body, "recipients": ["ops@example.com"]})
    assert PERIODIC["analytics.scheduled_reports"].run is scheduled_reports.send_due
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        assert scheduled_reports.send_due(runtime) == {"sent": 0}  # nothing due yet
        clock.advance(days=1)
        assert scheduled_reports.send_due(runtime) == {"sent": 1}  # the daily CSV
        assert scheduled_reports.send_due(runtime) == {"sent": 0}  # once per period
        clock.advance(days=6)
        assert scheduled_reports.send_due(runtime) == {"sent": 2}  # the weekly PDF and the next CSV
        mails = _mails(smtp)
    assert len(mails) == 4  # CSV, then the PDF to two people and the CSV again
    first = mails[0]
    assert first["Subject"] == "Report: Orders daily" and first["To"] == "ops@example.com"
    (att,) = list(first.iter_attachments())
    assert att.get_content_type() == "text/csv" and att.get_filename() == "Orders-daily-2026-03-11.csv"
    rows = list(csv.reader(io.StringIO(att.get_content() if isinstance(att.get_content(), str) else "")))
    assert rows[0] == ["metric", "bucket", "value", "count"]
    assert [r[1] for r in rows[1:]] == ["2026-03-09", "2026-03-10", "2026-03-11"]  # the last 3 days
    assert rows[1][2] == "7"
    pdfs = [m for m in mails if m["Subject"] == "Report: Ops weekly"]
    assert sorted(m["To"] for m in pdfs) == sorted(rec)
    (doc,) = list(pdfs[0].iter_attachments())
    assert doc.get_content_type() == "application/pdf" and doc.get_content()[:5] == b"%PDF-"
    got = execute(ctx, "analytics.schedules.get", id=sheet.id)
    assert got.sends == 2 and got.next_run_at == NOW + timedelta(days=8) and got.last_error is None


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x", "recipients": ["a@b.example"]},  # neither metrics nor a dashboard
        {"name": "x", "metrics": ["orders.value"], "dashboard_id": "d", "recipients": ["a@b.example"]},
        {"name": "x", "dashboard_id": "no-such-dashboard", "recipients": ["a@b.example"]},
        {"name": "x", "metrics": ["no.such"], "recipients": ["a@b.example"]},
        {"name": "x", "metrics": ["orders.value"], "format": "xlsx", "recipients": ["a@b.example"]},
        {"name": "x", "metrics": ["orders.value"], "range_days": 0, "recipients": ["a@b.example"]},
        {"name": "x", "metrics": ["orders.value"], "first_at": "2026-03-11T07:00:00", "recipients": ["a@b.example"]},
        {"name": "x", "metrics": ["orders.value"], "recipients": ["nobody"]},
    ],
)
def test_a_bad_schedule_is_refused_and_stores_nothing(runtime: Runtime, body: dict[str, Any]) -> None:
    _record(runtime, 1, datetime.now(UTC))
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "analytics.schedules.create", body=body)
    assert _count(runtime, AnalyticsSchedule) == 0
