"""Helpdesk reports: first response, resolution, SLA attainment by group over a date range; JSON and CSV."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Forbidden, ValidationFailed
from tests.services.support.test_support_service import agent

# A far future week: the demo's tickets are all before it.
MONDAY = datetime(2031, 3, 3, 9, 0, tzinfo=UTC)


def test_report_figures_by_category_and_agent(runtime: Runtime) -> None:
    clock = FixedClock(MONDAY)
    runtime.clock = clock
    op, admin = agent(runtime), agent(runtime, "admin@demo.test")
    cats = {c.name: c.id for c in execute(op, "support.categories.list").root}
    body = {"email": "r@example.com", "name": "R", "description": "d"}
    # Billing, urgent (first response due within 60 business minutes): answered in 30 min, resolved in 2 h.
    a = execute(op, "support.tickets.create", body={**body, "subject": "a", "priority": "urgent",
                                                     "category_id": cats["Billing"]})  # fmt: skip
    clock.advance(minutes=30)
    execute(op, "support.messages.create", ticket_id=a.id, body={"body": "on it"})
    clock.advance(minutes=90)
    execute(op, "support.tickets.update", ticket_id=a.id, body={"state": "resolved", "assignee_id": op.principal.id})
    # Billing, urgent: answered after 3 hours: the first response target is breached.
    b = execute(op, "support.tickets.create", body={**body, "subject": "b", "priority": "urgent",
                                                     "category_id": cats["Billing"]})  # fmt: skip
    clock.advance(hours=3)
    execute(op, "support.messages.create", ticket_id=b.id, body={"body": "late"})
    # No category, not answered yet, still within its targets: nothing decided.
    execute(op, "support.tickets.create", body={**body, "subject": "c"})
    day = MONDAY.date().isoformat()
    report = execute(admin, "support.reports.get", query={"from": day, "to": day, "group_by": "category"})
    rows = {r.name: r for r in report.rows}
    billing = rows["Billing"]
    assert billing.tickets == 2 and rows["(none)"].tickets == 1 and report.total.tickets == 3
    assert billing.first_response.count == 2 and billing.first_response.median_minutes == 105.0  # 30 and 180
    assert billing.resolution.count == 1 and billing.resolution.mean_minutes == 120.0
    assert (billing.first_response_sla.met, billing.first_response_sla.breached) == (1, 1)
    assert billing.first_response_sla.attainment == 0.5
    assert rows["(none)"].first_response_sla.attainment is None  # nothing decided yet
    assert billing.satisfaction is None or billing.satisfaction.ratings == 0
    by_agent = execute(admin, "support.reports.get", query={"from": day, "to": day, "group_by": "agent"})
    assert {r.name: r.tickets for r in by_agent.rows} == {"(unassigned)": 2, op.principal.name: 1}
    # The range is what counts: the day before holds none of them.
    before = execute(admin, "support.reports.get", query={"from": "2031-03-02", "to": "2031-03-02"})
    assert before.total.tickets == 0 and before.rows == []
    # CSV: one line a group, then the total.
    out = execute(admin, "support.reports.csv", query={"from": day, "to": day, "group_by": "priority"})
    lines = list(csv.DictReader(io.StringIO(out.content.decode())))
    assert out.media_type == "text/csv" and [r["name"] for r in lines] == ["urgent", "normal", "All tickets"]
    assert lines[0]["first_response_sla_attainment"] == "0.5" and lines[-1]["tickets"] == "3"


def test_bad_report_queries(runtime: Runtime) -> None:
    admin = agent(runtime, "admin@demo.test")
    with pytest.raises(ValidationFailed, match="after"):
        execute(admin, "support.reports.get", query={"from": "2026-02-01", "to": "2026-01-01"})
    with pytest.raises(ValidationFailed, match="at most"):
        execute(admin, "support.reports.get", query={"from": "2020-01-01", "to": "2026-01-01"})
    with pytest.raises(ValidationFailed):
        execute(admin, "support.reports.get", query={"group_by": "weather"})
    with pytest.raises(Forbidden):
        execute(agent(runtime), "support.reports.get", query={})  # operators do not read reports
