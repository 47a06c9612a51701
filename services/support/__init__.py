"""Support & Helpdesk: tickets, guest follow-up, categories, attachments, helpdesk config, e-mail domain, triage."""
