"""The webhook delivery state machine as data (``services.core.states``).

pending -> succeeded | failed | cancelled; a failed attempt with tries left stays pending (retry).
A replay is a new delivery, so nothing leaves a final state.
"""

from __future__ import annotations

from services.core.states import machine, move

STATES: tuple[str, ...] = ("pending", "succeeded", "failed", "cancelled")
SYSTEM = "system"

DELIVERY = machine(
    "delivery",
    STATES,
    [
        move("pending", "succeed", "succeeded", SYSTEM, note="the receiver answered 2xx"),
        move("pending", "retry", "pending", SYSTEM, note="an attempt failed; tries are left"),
        move("pending", "fail", "failed", SYSTEM, note="the last attempt failed"),
        move("pending", "cancel", "cancelled", note="the subscription was turned off"),
    ],
    terminal=("succeeded", "failed", "cancelled"),
)
PENDING = "pending"
# What a recorded attempt does to its delivery (set-based updates use the targets directly).
SUCCEEDED = DELIVERY.check(PENDING, "succeed")
RETRIED = DELIVERY.check(PENDING, "retry")
FAILED = DELIVERY.check(PENDING, "fail")
CANCELLED = DELIVERY.check(PENDING, "cancel")
