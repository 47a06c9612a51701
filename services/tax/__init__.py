"""Tax: transactions synced from the shop, liability per state, nexus, filings, certificates."""

from services.core.modules import Module
from services.tax import calculate, certificates, connections, demo, events, filings, rates, reports, transactions  # noqa: F401 - declarations, event types and demo seeders register on import

MODULE = Module(
    name="tax",
    events=(
        "certificate.uploaded",
        "certificate.expiring",
        "tax.transactions_synced",
        "tax.transaction_refunded",
        "tax.transaction_amended",
        "tax.rate_table_imported",
        "filing.ready",
        "filing.approved",
        "filing.dirty",
        "filing.filed",
        "filing.accepted",
        "filing.rejected",
    ),
    records=("tax.transaction", "tax.filing", "tax.certificate", "tax.rate_table"),
    seeders=(demo.seed_tax,),
    position=100,
    title="Tax",
)
