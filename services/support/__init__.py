"""Support & Helpdesk: tickets, guest follow-up, categories, attachments, helpdesk config, e-mail domain, triage."""

from services.support import (  # noqa: F401 - declarations
    ai,
    attachments,
    categories,
    email_domain,
    helpdesk,
    public,
    tickets,
)
