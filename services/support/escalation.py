"""SLA escalation: a ticket whose first response or resolution target passed is escalated, once each.

On the scheduler (the periodic job ``support.sla_escalation``, every ``INTERVAL``, once across the
server's processes) and
on demand (``POST /api/tenants/{tenant}/support/sla/escalate``): for every open or pending ticket
whose first response is missing past its due time, or whose resolution due time passed, and that
was not escalated for that target yet, in the ticket's own transaction: the target's
``*_escalated_at`` is stamped (so it happens once, whichever worker gets there first: the stamp is
a conditional update), an internal note says which target was missed, the event
``ticket.sla_breached`` is emitted, and, as the tenant's ``escalation`` asks, the priority goes one
step up and the assigned agent gets a mail.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from pydantic import BaseModel
from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from local_db.models import User
from local_db.models.support import SupportTicket
from services.core.commands import use_case
from services.core.context import Ctx, Runtime
from services.core.events import emit, register_event_type
from services.core.mail import Mail, send_after_commit
from services.core.roles import MANAGERS
from services.core.scheduler import each_tenant, periodic
from services.support import schemas as sc
from services.support import states
from services.support.helpdesk import MODULE, _reprioritize_sla, load_config
from services.support.tickets import _add_message

register_event_type("ticket.sla_breached", "support", "a ticket missed its first response or resolution target")
INTERVAL = timedelta(minutes=1)
_NEXT = {"low": "normal", "normal": "high", "high": "urgent", "urgent": "urgent"}


def _due(now: datetime) -> ColumnElement[bool]:
    T = SupportTicket
    return and_(
        T.state.in_(states.ACTIVE),
        or_(
            and_(T.first_response_at.is_(None), T.first_response_due < now, T.first_response_escalated_at.is_(None)),
            and_(T.resolution_due < now, T.resolution_escalated_at.is_(None)),
        ),
    )


def escalate_tenant(ctx: Ctx) -> int:
    """Escalate this tenant's breached tickets; how many targets were escalated."""
    now, done = ctx.now(), 0
    with ctx.read() as s:
        ids = list(s.scalars(select(SupportTicket.id).where(_due(now)).limit(500)))
    for tid in ids:
        with ctx.write() as s:
            cfg = load_config(s).escalation
            if not cfg.enabled:
                return done
            t = s.get(SupportTicket, tid)
            if t is None:
                continue
            missed = []
            if t.first_response_at is None and t.first_response_due and t.first_response_due < now:
                missed.append(("first_response", SupportTicket.first_response_escalated_at))
            if t.resolution_due and t.resolution_due < now:
                missed.append(("resolution", SupportTicket.resolution_escalated_at))
            for target, col in missed:
                # Conditional: of two workers, one stamps it and acts; the other finds it stamped.
                won = cast(
                    "CursorResult[Any]",
                    s.execute(
                        update(SupportTicket)
                        .where(SupportTicket.id == tid, col.is_(None))
                        .values({col.key: now})
                        .execution_options(synchronize_session=False)
                    ),
                ).rowcount
                if won != 1:
                    continue
                s.refresh(t)
                done += 1
                _act(ctx, s, t, target, cfg)
    return done


def _act(ctx: Ctx, s: Session, t: SupportTicket, target: str, cfg: sc.Escalation) -> None:
    words = "first response" if target == "first_response" else "resolution"
    note = f"SLA: the {words} target ({t.priority}) was missed."
    if cfg.raise_priority and t.priority != "urgent":
        t.priority = _NEXT[t.priority]
        _reprioritize_sla(t, load_config(s), ctx.now())  # breached outcomes keep their due times
        note += f" Priority raised to {t.priority}."
    _add_message(ctx, s, t, body=note, internal=True, kind="system", attachment_ids=[]).author_name = "Helpdesk"
    emit(
        ctx,
        "ticket.sla_breached",
        {"ticket_id": t.id, "ticket_number": t.number, "target": target, "priority": t.priority},
    )
    if cfg.notify_assignee and t.assignee_id:
        email = s.scalar(select(User.email).where(User.id == t.assignee_id))
        if email:
            send_after_commit(
                ctx, Mail(to=email, subject=f"[{t.number}] SLA {words} target missed", text=f"{note}\n\n{t.subject}")
            )


@periodic("support.sla_escalation", every=INTERVAL, lease=timedelta(minutes=10))
def escalate_all(rt: Runtime) -> dict[str, Any]:
    """Every tenant with Support; each target is stamped once (a conditional update), so a run
    taken again after a crash escalates, notes and mails nothing twice."""
    due = select(SupportTicket.tenant_id).where(_due(rt.clock.now())).distinct()
    done = each_tenant(
        rt, escalate_tenant, among=due, module=MODULE, operation=("support.sla.escalate", "support.ticket")
    )
    return {"escalated": sum(done.values())}


class EscalatedOut(BaseModel):
    escalated: int


@use_case(
    "support.sla.escalate",
    "POST /api/tenants/{tenant}/support/sla/escalate",
    tx="own",
    roles=MANAGERS,
    record="support.ticket",
    summary="escalate the tickets whose SLA target passed now (the scheduler does it every minute)",
)
def escalate_now(ctx: Ctx) -> EscalatedOut:
    return EscalatedOut(escalated=escalate_tenant(ctx))
