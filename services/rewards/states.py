"""Rewards state machines as data (services/core/states.py), checked in one place."""

from services.core.states import machine, move

STAFF, DEALER = "staff", "dealer"

# The registration request is the dealer account's state (a pending dealer cannot sign in).
DEALER_MACHINE = machine(
    "registration request",
    ("pending", "approved", "declined", "suspended"),
    [
        move("pending", "approve", "approved", STAFF),
        move("pending", "decline", "declined", STAFF),
        move("approved", "suspend", "suspended", STAFF),
        move("suspended", "reinstate", "approved", STAFF),
    ],
    terminal=("declined",),
)

# An approved receipt found wrong later (returned goods, fraud) is reversed: its points are taken back.
RECEIPT = machine(
    "receipt",
    ("pending", "approved", "declined", "reversed"),
    [
        move("pending", "approve", "approved", STAFF),
        move("pending", "decline", "declined", STAFF),
        move("approved", "reverse", "reversed", STAFF),
    ],
    terminal=("declined", "reversed"),
)

# Redemption orders (Open Loyalty's delivery statuses); a cancel refunds the points.
ORDER = machine(
    "redemption order",
    ("ordered", "shipped", "delivered", "cancelled"),
    [
        move("ordered", "ship", "shipped", STAFF),
        move("shipped", "deliver", "delivered", STAFF),
        move("ordered", "cancel", "cancelled", STAFF),
        move("shipped", "cancel", "cancelled", STAFF),
    ],
    terminal=("delivered", "cancelled"),
)

W9 = machine(
    "W-9",
    ("submitted", "verified", "rejected"),
    [move("submitted", "verify", "verified", STAFF), move("submitted", "reject", "rejected", STAFF)],
    terminal=("verified", "rejected"),
)
