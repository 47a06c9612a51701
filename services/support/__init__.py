"""Support & Helpdesk: tickets, guest follow-up, categories, attachments, helpdesk config, e-mail domain, triage."""

from services.core.modules import Module
from services.support import (  # noqa: F401 - declarations
    ai,
    attachments,
    automation,
    categories,
    demo,
    email_domain,
    helpdesk,
    mailbox,
    merge,
    pages,
    public,
    reports,
    tickets,
)

MODULE = Module(
    name="support",
    events=("ticket.created", "ticket.replied", "ticket.resolved", "ticket.merged"),
    records=("support.ticket",),
    seeders=(demo.seed_support,),
    periodic=(mailbox.poll_all,),  # the IMAP mailboxes (PLATFORM_SUPPORT_IMAP) polled in the job worker's rounds
    position=50,
)
