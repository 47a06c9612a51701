"""The QR code's switch as data: enabled codes redirect, disabled ones answer 404 to scans.

Whether a scan is served also depends on the validity window and the scan cap; those are
checked by the scan itself (``codes.serving``), not moves of this table.
"""

from __future__ import annotations

from services.core.states import machine, move

STAFF = "staff"
STATES: tuple[str, ...] = ("enabled", "disabled")
CODE = machine(
    "qr code",
    STATES,
    [
        move("enabled", "disable", "disabled", STAFF, note="PATCH qr/[id] {enabled: false}"),
        move("disabled", "enable", "enabled", STAFF, note="PATCH qr/[id] {enabled: true}"),
        move("enabled", "retarget", "enabled", STAFF, note="PATCH qr/[id]/destination"),
        move("disabled", "retarget", "disabled", STAFF, note="PATCH qr/[id]/destination"),
    ],
    frozenset(),
)
