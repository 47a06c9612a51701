"""The outbox entry state machine as data (``services.core.states``).

pending -> sent (the platform applied it, or had already) | conflict | rejected (sync issues);
a sync issue -> discarded by a person (keep theirs, discard, or retry: sent again as a new entry);
sent -> pending when the platform was restored from an older backup and needs it again.
"""

from __future__ import annotations

from services.core.states import machine, move

STATES: tuple[str, ...] = ("pending", "sent", "conflict", "rejected", "discarded")
ISSUE_STATES: tuple[str, ...] = ("conflict", "rejected")
PERSON, SYSTEM = "person", "system"

OUTBOX = machine(
    "outbox entry",
    STATES,
    [
        move("pending", "applied", "sent", SYSTEM, note="the platform applied it (or already had)"),
        move("pending", "conflict", "conflict", SYSTEM, note="the record changed on the platform meanwhile"),
        move("pending", "rejected", "rejected", SYSTEM, note="refused, voided or tampered with"),
        *(move(s, c, "discarded", PERSON) for s in ISSUE_STATES for c in ("keep_theirs", "retry", "discard")),
        move("sent", "resend", "pending", SYSTEM, note="the platform was restored from an older backup"),
    ],
    terminal=("discarded",),
)
