"""Tax's event types beyond the spec's certificate.uploaded and certificate.expiring."""

from services.core.events import register_event_type

M = "tax"

for _name, _desc in [
    ("tax.transactions_synced", "orders and refunds were imported from the e-commerce connection"),
    ("tax.transaction_refunded", "a refund was recorded against an order"),
    ("tax.transaction_amended", "a transaction got a new revision (the old one is kept)"),
    ("tax.rate_table_imported", "a state's ZIP-code rate table was imported with the days it is in force"),
    ("filing.ready", "a filing's period closed: it can be approved"),
    ("filing.approved", "a filing was approved with its liability"),
    ("filing.dirty", "a transaction of an approved filing's period changed: approve it again"),
    ("filing.filed", "a filing was filed; its period's transactions are locked"),
    ("filing.accepted", "the state accepted a filed return"),
    ("filing.rejected", "the state rejected a filed return; its transactions are open for correction"),
]:
    register_event_type(_name, M, _desc)
