"""The Upgrade (trade-in) event types (the use cases are declared in ``service`` and ``customers``)."""

from services.core.events import register_event_type

M = "upgrade"

for _name, _desc in [
    ("tradein.offered", "an offer (initial or replacing) was sent to the customer"),
    ("tradein.shipped", "a shipping kit (or a return) label was made and sent"),
    ("tradein.received", "the device arrived at the facility"),
    ("tradein.inspected", "inspection complete: graded condition and value recorded"),
    ("tradein.offer_revised", "graded value below the accepted offer: a revised offer waits for the customer"),
    ("tradein.completed", "credit issued, trade-in finished"),
    ("tradein.declined", "the customer declined an offer or staff rejected the trade-in"),
    ("tradein.paid_out", "a customer's credit was paid out (store credit, bank transfer or PayPal)"),
]:
    register_event_type(_name, M, _desc)
