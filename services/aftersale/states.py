"""Aftersale state machines (services/core/states.py): the warranty claim, after ERPNext's
Open -> Work In Progress -> Closed, and Cancelled from either open state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.core.states import machine, move

if TYPE_CHECKING:
    from services.core.context import Ctx

STAFF, CUSTOMER = "staff", "customer"


def actor(ctx: Ctx) -> str:
    """Which of the table's actors the caller is."""
    return CUSTOMER if ctx.principal.kind == "customer" else STAFF


CLAIM = machine(
    "claim",
    ("open", "in_progress", "closed", "cancelled"),
    [
        move("open", "start", "in_progress", STAFF, emits="claim.started"),
        move("in_progress", "close", "closed", STAFF, emits="claim.closed", irreversible=True),
        move("open", "cancel", "cancelled", STAFF, CUSTOMER, emits="claim.cancelled", irreversible=True),
        move("in_progress", "cancel", "cancelled", STAFF, emits="claim.cancelled", irreversible=True),
    ],
    terminal=("closed", "cancelled"),
    actor_of=actor,
)
# A claim in one of these blocks a second claim on the same warranty (a double submit).
OPEN = frozenset({"open", "in_progress"})

# A claim's repair order (services/aftersale/repairs.py). Staff only; the unit comes back to the
# customer repaired or replaced. Parts are taken from stock on repair or replace, so those moves
# and the return cannot be taken back; cancel is for a unit not worked on yet.
REPAIR = machine(
    "repair order",
    ("received", "diagnosed", "repaired", "replaced", "returned", "cancelled"),
    [
        move("received", "diagnose", "diagnosed", STAFF, stamps="diagnosed_at", emits="repair.diagnosed"),
        move(
            "diagnosed", "repair", "repaired", STAFF, stamps="finished_at", emits="repair.repaired", irreversible=True
        ),
        move(
            "diagnosed", "replace", "replaced", STAFF, stamps="finished_at", emits="repair.replaced", irreversible=True
        ),
        *(
            move(s, "return", "returned", STAFF, stamps="returned_at", emits="repair.returned", irreversible=True)
            for s in ("repaired", "replaced")
        ),
        *(
            move(s, "cancel", "cancelled", STAFF, stamps="cancelled_at", emits="repair.cancelled", irreversible=True)
            for s in ("received", "diagnosed")
        ),
    ],
    terminal=("returned", "cancelled"),
    actor_of=actor,
)
REPAIR_OPEN = frozenset({"received", "diagnosed", "repaired", "replaced"})
