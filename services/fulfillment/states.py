"""The order state machine as data (``services.core.states``).

pending -> picked -> packed -> shipped -> delivered
pending | picked | packed -> cancelled
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.core.states import machine, move

if TYPE_CHECKING:
    from services.core.context import Ctx

STAFF, SYSTEM, DEVICE = "staff", "system", "device"
DEVICE_ROLE = "warehouse-device"


def actor(ctx: Ctx) -> str:
    """A scanning device, or staff (anyone else calling the order routes)."""
    return DEVICE if ctx.principal.role == DEVICE_ROLE else STAFF


STATES: tuple[str, ...] = ("pending", "picked", "packed", "shipped", "delivered", "cancelled")
TERMINAL: frozenset[str] = frozenset({"delivered", "cancelled"})

# ``pick`` stays in ``pending`` until every line is complete (see service.pick).
ORDER = machine(
    "order",
    STATES,
    [
        move("pending", "pick", "picked", stamps="picked_at", emits="order.picked"),
        # A scan taken back: a fully picked order is pending again until it is complete.
        *(move(s, "unpick", "pending") for s in ("pending", "picked")),
        # Ship what is picked now: the unpicked rest becomes a backorder (service.split).
        move("pending", "split", "picked", stamps="picked_at", emits="order.picked"),
        move("picked", "pack", "packed", stamps="packed_at", emits="order.packed"),
        # The parcel leaves with its label and tracking number: it cannot be taken back.
        move("packed", "ship", "shipped", stamps="shipped_at", emits="order.shipped", irreversible=True),
        move("shipped", "deliver", "delivered", stamps="delivered_at", emits="order.delivered"),
        # People cancel (staff at a desk, an e-commerce store's webhook); a scanning device does not.
        *(
            move(
                s,
                "cancel",
                "cancelled",
                STAFF,
                SYSTEM,
                stamps="cancelled_at",
                emits="order.cancelled",
                irreversible=True,
            )
            for s in ("pending", "picked", "packed")
        ),
        # An e-commerce update may change lines and address only before picking starts.
        move("pending", "update", "pending"),
    ],
    TERMINAL,
    actor_of=actor,
)
check = ORDER.check

# --- batches (batch picking, services/fulfillment/batches.py) --------------------------------
#
# open -> picking -> picked -> packed -> closed; open | picking | picked -> cancelled.
# ``complete_pick`` and ``complete_pack`` are the system's: a batch is picked when its last unit is
# scanned and packed when its last order is packed, never by a caller's say-so.
BATCH_STATES: tuple[str, ...] = ("open", "picking", "picked", "packed", "closed", "cancelled")
BATCH = machine(
    "batch",
    BATCH_STATES,
    [
        move("open", "pick", "picking", stamps="started_at"),
        move("picking", "pick", "picking"),
        move("picking", "complete_pick", "picked", SYSTEM, stamps="picked_at", emits="batch.picked"),
        move("picked", "pack", "picked"),
        move("picked", "complete_pack", "packed", SYSTEM, stamps="packed_at", emits="batch.packed"),
        move("packed", "close", "closed", stamps="closed_at", emits="batch.closed"),
        # Its orders are free for another batch; what was picked stays picked on each order.
        *(
            move(s, "cancel", "cancelled", STAFF, SYSTEM, stamps="cancelled_at", emits="batch.cancelled")
            for s in ("open", "picking", "picked")
        ),
    ],
    ("closed", "cancelled"),
    actor_of=actor,
)
