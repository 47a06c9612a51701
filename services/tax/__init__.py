"""Tax: transactions synced from the shop, liability per state, nexus, filings, certificates."""

from services.tax import (  # noqa: F401 - declarations, event types and demo seeders register on import
    certificates,
    connections,
    demo,
    events,
    filings,
    reports,
    transactions,
)
