"""Aftersale event types beyond the spec's (warranty.registered, claim.submitted)."""

from services.core.events import register_event_type

for _name, _desc in [
    ("claim.started", "staff started work on a warranty claim"),
    ("claim.closed", "a warranty claim was closed with its resolution"),
    ("claim.cancelled", "a warranty claim was cancelled"),
    ("warranty.disputed", "a second claimant registered a serial another registration holds: staff settle it"),
    ("warranty.voided", "staff voided a registration (its serial is free again)"),
    ("warranty.transferred", "staff transferred a registration to a new owner"),
    ("warranty.dispute_settled", "staff upheld or rejected a disputed registration"),
    ("repair.received", "a claim's unit was received for repair: a repair order was opened"),
    ("repair.diagnosed", "staff diagnosed a repair order's unit"),
    ("repair.repaired", "a repair order's unit was repaired (the parts used left stock)"),
    ("repair.replaced", "a repair order's unit was replaced by another (taken from stock)"),
    ("repair.returned", "a repaired or replaced unit went back to the customer"),
    ("repair.cancelled", "a repair order was cancelled before any work"),
]:
    register_event_type(_name, "aftersale", _desc)
