"""Aftersale state machines (services/core/states.py): the warranty claim, after ERPNext's
Open -> Work In Progress -> Closed, and Cancelled from either open state."""

from services.core.states import machine, move

STAFF, CUSTOMER = "staff", "customer"

CLAIM = machine(
    "claim",
    ("open", "in_progress", "closed", "cancelled"),
    [
        move("open", "start", "in_progress", STAFF),
        move("in_progress", "close", "closed", STAFF),
        move("open", "cancel", "cancelled", STAFF, CUSTOMER),
        move("in_progress", "cancel", "cancelled", STAFF),
    ],
    terminal=("closed", "cancelled"),
)
# A claim in one of these blocks a second claim on the same warranty (a double submit).
OPEN = frozenset({"open", "in_progress"})
