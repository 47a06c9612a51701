"""Inventory state machines as data (``services.core.states``).

Transfer (ERPNext's "in transit" leg, Odoo's transit locations):
draft -> in_transit (ship: source -q, transit +q) -> completed (receive: transit -q, destination +q);
draft -> cancelled; in_transit -> cancelled (the stock goes back to the source).

Alert: open -> acknowledged -> resolved; open | acknowledged -> resolved (by a person,
or by itself when available stock is back at or above the threshold).
"""

from __future__ import annotations

from services.core.states import machine, move

TRANSFER_STATES: tuple[str, ...] = ("draft", "in_transit", "completed", "cancelled")
TRANSFER = machine(
    "transfer",
    TRANSFER_STATES,
    [
        move("draft", "ship", "in_transit", stamps="shipped_at", emits="transfer.shipped"),
        move(
            "in_transit", "complete", "completed", stamps="completed_at", emits="transfer.completed", irreversible=True
        ),
        move("draft", "cancel", "cancelled", stamps="cancelled_at", emits="transfer.cancelled", irreversible=True),
        move("in_transit", "cancel", "cancelled", stamps="cancelled_at", emits="transfer.cancelled", irreversible=True),
    ],
    terminal=("completed", "cancelled"),
)
# ``PATCH transfers {"status"}`` names the target; the table names the move.
ACTION_TO: dict[str, str] = {"in_transit": "ship", "completed": "complete", "cancelled": "cancel"}

ALERT_STATES: tuple[str, ...] = ("open", "acknowledged", "resolved")
ALERT = machine(
    "alert",
    ALERT_STATES,
    [
        move("open", "acknowledge", "acknowledged", stamps="acknowledged_at"),
        move("open", "resolve", "resolved", stamps="resolved_at"),
        move("acknowledged", "resolve", "resolved", stamps="resolved_at"),
    ],
    terminal=("resolved",),
    state_field="state",
)
# Alerts not yet resolved: at most one per rule.
UNRESOLVED: frozenset[str] = frozenset({"open", "acknowledged"})

# Purchase order: draft -> sent -> partially_received -> received; draft | sent -> cancelled.
# Receipts move it (``purchase_orders.receive``): some lines short -> partially_received, all -> received.
PURCHASE_ORDER_STATES: tuple[str, ...] = ("draft", "sent", "partially_received", "received", "cancelled")
PURCHASE_ORDER = machine(
    "purchase order",
    PURCHASE_ORDER_STATES,
    [
        move("draft", "send", "sent", stamps="sent_at", emits="purchase_order.sent"),
        move("sent", "receive_part", "partially_received"),
        move("sent", "receive_all", "received", stamps="received_at", emits="purchase_order.received"),
        move("partially_received", "receive_all", "received", stamps="received_at", emits="purchase_order.received"),
        move(
            "draft", "cancel", "cancelled", stamps="cancelled_at", emits="purchase_order.cancelled", irreversible=True
        ),
        move("sent", "cancel", "cancelled", stamps="cancelled_at", emits="purchase_order.cancelled", irreversible=True),
    ],
    terminal=("received", "cancelled"),
)
