"""Support & Helpdesk: tickets, guest follow-up, categories, attachments, helpdesk config, e-mail domain, triage."""

from services.support import service  # noqa: F401 - declarations
