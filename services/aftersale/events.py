"""Aftersale event types beyond the spec's (warranty.registered, claim.submitted)."""

from services.core.events import register_event_type

for _name, _desc in [
    ("claim.started", "staff started work on a warranty claim"),
    ("claim.closed", "a warranty claim was closed with its resolution"),
    ("claim.cancelled", "a warranty claim was cancelled"),
]:
    register_event_type(_name, "aftersale", _desc)
