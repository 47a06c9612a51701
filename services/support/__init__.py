"""Support & Helpdesk: tickets, guest follow-up, categories, attachments, helpdesk config, e-mail domain, triage."""

from services.core.modules import Module
from services.support import (  # noqa: F401 - declarations
    ai,
    attachments,
    automation,
    categories,
    demo,
    email_domain,
    escalation,
    helpdesk,
    mailbox,
    merge,
    pages,
    public,
    reports,
    requesters,
    tickets,
)

MODULE = Module(
    name="support",
    events=(
        "ticket.created",
        "ticket.replied",
        "ticket.resolved",
        "ticket.merged",
        "ticket.sla_breached",
        "ticket.rated",
    ),
    records=("support.ticket",),
    seeders=(demo.seed_support,),
    position=50,
    title="Helpdesk",
)
