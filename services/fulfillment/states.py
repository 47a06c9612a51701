"""The order state machine as data, and the one check.

pending -> picked -> packed -> shipped -> delivered
pending | picked | packed -> cancelled
"""

from __future__ import annotations

from services.core.errors import conflict_state

STATES: tuple[str, ...] = ("pending", "picked", "packed", "shipped", "delivered", "cancelled")

# action -> (states it may start from, state it leads to). ``pick`` stays in
# ``pending`` until every line is complete (see service.pick).
TRANSITIONS: dict[str, tuple[frozenset[str], str]] = {
    "pick": (frozenset({"pending"}), "picked"),
    # A scan taken back: a fully picked order is pending again until it is complete.
    "unpick": (frozenset({"pending", "picked"}), "pending"),
    "pack": (frozenset({"picked"}), "packed"),
    "ship": (frozenset({"packed"}), "shipped"),
    "deliver": (frozenset({"shipped"}), "delivered"),
    "cancel": (frozenset({"pending", "picked", "packed"}), "cancelled"),
    # An e-commerce update may change lines and address only before picking starts.
    "update": (frozenset({"pending"}), "pending"),
}

TERMINAL: frozenset[str] = frozenset({"delivered", "cancelled"})


def check(current: str, action: str) -> str:
    """The state ``action`` leads to from ``current``, or 409 naming the current state."""
    sources, target = TRANSITIONS[action]
    if current not in sources:
        raise conflict_state("order", current, action)
    return target
