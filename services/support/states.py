"""Ticket states (DECISIONS.md) as data (``services.core.states``): open -> pending -> resolved ->
closed; a customer reply reopens. The table is the whole rule, with who may make each move.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Literal

from services.core.states import machine, move

if TYPE_CHECKING:
    from services.core.context import Ctx

State = Literal["open", "pending", "resolved", "closed"]
Actor = Literal["agent", "customer"]

STATES: tuple[str, ...] = ("open", "pending", "resolved", "closed")
ACTIVE: frozenset[str] = frozenset({"open", "pending"})

# A ticket moves to a state: the action is the target's name. A move the table does not give
# the actor reads as a state rule (409), as it always has for tickets.
TICKET = machine(
    "ticket",
    STATES,
    [
        move("open", "pending", "pending", "agent"),  # waiting on the customer
        move("open", "resolved", "resolved", "agent"),
        move("pending", "open", "open", "agent", "customer"),  # the customer answered
        move("pending", "resolved", "resolved", "agent"),
        move("resolved", "open", "open", "agent", "customer"),  # reopened
        move("resolved", "closed", "closed", "agent"),
    ],
    terminal=("closed",),
    wrong_actor="conflict",
    actor_of=lambda ctx: actor(ctx),
    state_field="state",
)


def actor(ctx: Ctx) -> str:
    """Staff work tickets as agents; a requester (guest or customer) is the customer."""
    return "customer" if ctx.principal.kind in ("customer", "public") else "agent"


def allowed_targets(current: str, actor: str = "agent") -> list[str]:
    return list(_targets(current, actor))


@cache
def _targets(current: str, actor: str) -> tuple[str, ...]:
    # The table is fixed: every ticket answered (each one a push makes) names its next states.
    return tuple(TICKET.targets_from(current, actor))


def check_transition(current: str, target: str, actor: str) -> None:
    """409 naming the current state unless ``actor`` may move a ticket from ``current`` to ``target``."""
    TICKET.check(current, target, actor, verb=f"move to {target}")


def after_customer_reply(current: str) -> str:
    """The state a customer reply leaves the ticket in (a closed ticket takes no reply)."""
    if current == "open":
        return "open"
    return TICKET.check(current, "open", "customer", verb="reply to")
