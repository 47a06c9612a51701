"""The trade-in submission state machine (DECISIONS.md), as data, checked in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.core.errors import conflict_state

STATES: tuple[str, ...] = (
    "draft", "submitted", "offered", "accepted", "shipped", "received", "inspected", "completed", "declined",
)  # fmt: skip
TERMINAL: frozenset[str] = frozenset({"completed", "declined"})
# A serial number may be in at most one of these at a time (a second one is 409).
OPEN: frozenset[str] = frozenset({"submitted", "offered", "accepted", "shipped", "received", "inspected"})

Actor = Literal["customer", "staff", "system"]


@dataclass(frozen=True)
class Transition:
    source: str
    action: str
    target: str
    actor: Actor
    note: str = ""


TRANSITIONS: tuple[Transition, ...] = (
    Transition("draft", "update", "draft", "customer", "PUT submissions/[id]"),
    Transition("draft", "submit", "submitted", "customer", "POST submissions/[id]"),
    Transition("submitted", "offer", "offered", "staff", "POST offers"),
    # A new offer replaces the pending (e.g. expired) one.
    Transition("offered", "offer", "offered", "staff", "POST offers (replaces the pending offer)"),
    Transition("offered", "accept", "accepted", "customer", "POST offers/[id] accept"),
    Transition("offered", "decline", "declined", "customer", "POST offers/[id] decline"),
    Transition("accepted", "ship", "shipped", "staff", "POST submissions/[id]/ship kit"),
    Transition("shipped", "receive", "received", "staff", "POST submissions/[id]/receive"),
    Transition("received", "start_inspection", "received", "staff", "POST submissions/[id]/inspect start"),
    Transition("received", "inspect", "inspected", "staff", "POST submissions/[id]/inspect complete"),
    # Graded value >= accepted offer: the credit is issued at once.
    Transition("inspected", "complete", "completed", "system", "credit issued"),
    # Graded value < accepted offer: a revised offer waits for the customer.
    Transition("inspected", "offer", "inspected", "staff", "POST offers (replaces the revised offer)"),
    Transition("inspected", "accept", "completed", "customer", "POST offers/[id] accept (revised offer)"),
    Transition("inspected", "decline", "declined", "customer", "POST offers/[id] decline (revised offer)"),
    Transition("submitted", "reject", "declined", "staff", "POST submissions/[id]/reject"),
    Transition("received", "reject", "declined", "staff", "POST submissions/[id]/reject"),
    Transition("inspected", "reject", "declined", "staff", "POST submissions/[id]/reject"),
    # A device that reached the facility goes back to a customer who declined.
    Transition("declined", "ship_return", "declined", "staff", "POST submissions/[id]/ship return"),
)

ACTIONS: tuple[str, ...] = tuple(dict.fromkeys(t.action for t in TRANSITIONS))
_TABLE: dict[tuple[str, str], Transition] = {(t.source, t.action): t for t in TRANSITIONS}


def allowed(state: str, action: str) -> bool:
    return (state, action) in _TABLE


def check(state: str, action: str) -> str:
    """The state after ``action`` from ``state``, or 409 CONFLICT naming the current state."""
    t = _TABLE.get((state, action))
    if t is None:
        raise conflict_state("submission", state, action.replace("_", " "))
    return t.target


def actions_from(state: str) -> list[str]:
    """The actions the current state allows (the workspace shows only these)."""
    return [t.action for t in TRANSITIONS if t.source == state]
