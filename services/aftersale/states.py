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
