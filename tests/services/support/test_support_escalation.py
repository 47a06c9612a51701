"""SLA escalation: a breached target is escalated once (note, event, priority, mail), by the round or on demand."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from local_db.models import Event
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.mail import MailConfig
from services.core.scheduler import PERIODIC
from services.support import escalation
from tests.services.support.test_support_automation import TICKET, _configure
from tests.services.support.test_support_reports import MONDAY
from tests.services.support.test_support_service import agent
from tests.smtp_server import SmtpServer


def _breaches(rt: Runtime) -> int:
    with rt.db.reading(None) as s:
        return int(s.scalar(select(func.count()).select_from(Event).where(Event.type == "ticket.sla_breached")) or 0)


def test_a_breached_target_is_escalated_once(runtime: Runtime) -> None:
    clock = FixedClock(MONDAY)
    runtime.clock = clock
    op = agent(runtime)
    t = execute(op, "support.tickets.create", body={**TICKET, "priority": "high"})
    execute(op, "support.tickets.update", ticket_id=t.id, body={"assignee_id": op.principal.id})
    admin = agent(runtime, "admin@demo.test")
    before = _breaches(runtime)  # the demo's own old tickets are breached too
    assert execute(admin, "support.sla.escalate").escalated >= 0  # off by default: nothing happens
    assert _breaches(runtime) == before
    _configure(runtime, escalation={"enabled": True, "raise_priority": True, "notify_assignee": True})
    execute(admin, "support.sla.escalate")  # the demo's breached tickets
    start = _breaches(runtime)
    clock.advance(minutes=5)
    assert execute(admin, "support.sla.escalate").escalated == 0  # within its targets
    with SmtpServer() as smtp:
        runtime.provide(MailConfig(smtp_url=smtp.url))
        clock.set(t.first_response_due + timedelta(minutes=1))
        assert execute(admin, "support.sla.escalate").escalated == 1
        assert execute(admin, "support.sla.escalate").escalated == 0  # once
        assert len(smtp.messages) == 1 and smtp.messages[0]["rcpt"] == [op.principal.email]
    got = execute(op, "support.tickets.get", ticket_id=t.id)
    assert got.priority == "urgent" and got.first_response_due == t.first_response_due  # a breach stays a breach
    note = execute(op, "support.messages.list", ticket_id=t.id).root[-1]
    assert note.internal and note.body == "SLA: the first response target (high) was missed. Priority raised to urgent."
    assert _breaches(runtime) == start + 1
    # The resolution target, later, once; the scheduler's periodic job does it too (issue 35: on
    # the scheduler, once across processes, instead of the job worker's rounds).
    assert PERIODIC["support.sla_escalation"].run is escalation.escalate_all
    clock.set(got.resolution_due + timedelta(minutes=1))
    assert escalation.escalate_all(runtime)["escalated"] >= 1
    assert escalation.escalate_all(runtime) == {"escalated": 0}  # once
    assert _breaches(runtime) == start + 2
    assert "resolution target (urgent)" in execute(op, "support.messages.list", ticket_id=t.id).root[-1].body
