"""Ticket states (DECISIONS.md): open -> pending -> resolved -> closed; a customer reply reopens.

The table is the whole rule: (from, to) -> who may make the move.
"""

from __future__ import annotations

from typing import Literal

from services.core.errors import conflict_state

State = Literal["open", "pending", "resolved", "closed"]
Actor = Literal["agent", "customer"]

STATES: tuple[str, ...] = ("open", "pending", "resolved", "closed")
ACTIVE: frozenset[str] = frozenset({"open", "pending"})

TRANSITIONS: dict[tuple[str, str], frozenset[str]] = {
    ("open", "pending"): frozenset({"agent"}),  # waiting on the customer
    ("open", "resolved"): frozenset({"agent"}),
    ("pending", "open"): frozenset({"agent", "customer"}),  # the customer answered
    ("pending", "resolved"): frozenset({"agent"}),
    ("resolved", "open"): frozenset({"agent", "customer"}),  # reopened
    ("resolved", "closed"): frozenset({"agent"}),
}


def allowed_targets(current: str, actor: str = "agent") -> list[str]:
    return [to for (frm, to), who in TRANSITIONS.items() if frm == current and actor in who]


def check_transition(current: str, target: str, actor: str) -> None:
    """409 naming the current state unless ``actor`` may move a ticket from ``current`` to ``target``."""
    if actor not in TRANSITIONS.get((current, target), frozenset()):
        raise conflict_state("ticket", current, f"move to {target}")


def after_customer_reply(current: str) -> str:
    """The state a customer reply leaves the ticket in (a closed ticket takes no reply)."""
    if current == "closed":
        raise conflict_state("ticket", current, "reply to")
    return "open"
