"""The trade-in submission state machine (DECISIONS.md), as data, checked in one place."""

from __future__ import annotations

from typing import Literal

from services.core.states import machine, move

STATES: tuple[str, ...] = (
    "draft",
    "submitted",
    "offered",
    "accepted",
    "shipped",
    "received",
    "inspected",
    "completed",
    "declined",
)
TERMINAL: frozenset[str] = frozenset({"completed", "declined"})
# A serial number may be in at most one of these at a time (a second one is 409).
OPEN: frozenset[str] = frozenset({"submitted", "offered", "accepted", "shipped", "received", "inspected"})

Actor = Literal["customer", "staff", "system"]
CUSTOMER, STAFF, SYSTEM = "customer", "staff", "system"

# Who may make each move: the customer, staff (also recording a customer's answer given by
# phone or e-mail, on the staff route) or the system (the credit step after an inspection).
SUBMISSION = machine(
    "submission",
    STATES,
    [
        move("draft", "update", "draft", CUSTOMER, note="PUT submissions/[id]"),
        move("draft", "submit", "submitted", CUSTOMER, note="POST submissions/[id]", stamps="submitted_at"),
        move("submitted", "offer", "offered", STAFF, note="POST offers"),
        # A new offer replaces the pending (e.g. expired) one.
        move("offered", "offer", "offered", STAFF, note="POST offers (replaces the pending offer)"),
        move(
            "offered",
            "accept",
            "accepted",
            CUSTOMER,
            STAFF,
            note="POST offers/[id] accept",
            stamps="accepted_at",
            emits="tradein.approved",
        ),
        move(
            "offered",
            "decline",
            "declined",
            CUSTOMER,
            STAFF,
            note="POST offers/[id] decline",
            emits="tradein.declined",
            irreversible=True,
        ),
        move("accepted", "ship", "shipped", STAFF, note="POST submissions/[id]/ship kit"),
        move(
            "shipped",
            "receive",
            "received",
            STAFF,
            note="POST submissions/[id]/receive",
            stamps="received_at",
            emits="tradein.received",
        ),
        move("received", "start_inspection", "received", STAFF, note="POST submissions/[id]/inspect start"),
        move("received", "inspect", "inspected", STAFF, note="POST submissions/[id]/inspect complete"),
        # Graded value >= accepted offer: the credit is issued at once.
        move(
            "inspected", "complete", "completed", SYSTEM, note="credit issued", stamps="completed_at", irreversible=True
        ),
        # Graded value < accepted offer: a revised offer waits for the customer.
        move("inspected", "offer", "inspected", STAFF, note="POST offers (replaces the revised offer)"),
        move(
            "inspected",
            "accept",
            "completed",
            CUSTOMER,
            STAFF,
            note="POST offers/[id] accept (revised offer)",
            stamps="completed_at",
            emits="tradein.approved",
            irreversible=True,
        ),
        move(
            "inspected",
            "decline",
            "declined",
            CUSTOMER,
            STAFF,
            note="POST offers/[id] decline (revised offer)",
            emits="tradein.declined",
            irreversible=True,
        ),
        move(
            "submitted",
            "reject",
            "declined",
            STAFF,
            note="POST submissions/[id]/reject",
            emits="tradein.declined",
            irreversible=True,
        ),
        move(
            "received",
            "reject",
            "declined",
            STAFF,
            note="POST submissions/[id]/reject",
            emits="tradein.declined",
            irreversible=True,
        ),
        move(
            "inspected",
            "reject",
            "declined",
            STAFF,
            note="POST submissions/[id]/reject",
            emits="tradein.declined",
            irreversible=True,
        ),
        # A device that reached the facility goes back to a customer who declined.
        move("declined", "ship_return", "declined", STAFF, note="POST submissions/[id]/ship return"),
    ],
    TERMINAL,
)
TRANSITIONS = SUBMISSION.transitions
ACTIONS: tuple[str, ...] = SUBMISSION.actions
allowed = SUBMISSION.allowed
check = SUBMISSION.check
actions_from = SUBMISSION.actions_from
