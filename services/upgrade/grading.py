"""Valuation and grading rules: condition modifiers, values in cents, the grade a checklist suggests.

Pure functions (no database), shared by the service, the inspection workspace
(live grade and value while the checklist changes) and the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CONDITIONS: tuple[str, ...] = ("excellent", "good", "fair", "poor")  # best first
MODIFIERS: dict[str, int] = {"excellent": 100, "good": 80, "fair": 60, "poor": 40}  # percent of base value

SCREEN_LEVELS: dict[str, int] = {"flawless": 0, "light_scratches": 1, "deep_scratches": 2, "cracked": 3}
BODY_LEVELS: dict[str, int] = {"flawless": 0, "light_wear": 1, "dents": 2, "damaged": 3}
CHECKLIST_ITEMS: tuple[str, ...] = (
    "power_on",
    "screen",
    "body",
    "functions",
    "battery_health",
    "account_lock_removed",
    "data_wiped",
    "accessories",
)
# Items that must be true before an inspection can complete: a locked or
# unwiped device cannot be credited, whatever its grade.
BLOCKING: dict[str, str] = {
    "account_lock_removed": "the device is still locked to an account",
    "data_wiped": "the customer's data is not wiped yet",
}


def value_cents(base_cents: int, condition: str) -> int:
    """Base value x the condition's modifier, rounded half up to the cent."""
    return (base_cents * MODIFIERS[condition] + 50) // 100


def level(condition: str) -> int:
    """0 for excellent ... 3 for poor (a larger number is a worse grade)."""
    return CONDITIONS.index(condition)


def battery_level(health: int) -> int:
    if health >= 85:
        return 0
    if health >= 75:
        return 1
    if health >= 60:
        return 2
    return 3


def assess(checklist: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The grade the checklist suggests and the reasons that lowered it.

    The worst item decides: a device that does not power on or whose functions
    fail is poor; screen, body and battery each map to a level; missing
    original accessories cap the grade at good.
    """
    found: list[tuple[int, str]] = []
    if not checklist.get("power_on", True):
        found.append((3, "does not power on"))
    if not checklist.get("functions", True):
        found.append((3, "functions fail the test"))
    screen = checklist.get("screen", "flawless")
    if SCREEN_LEVELS.get(screen, 0):
        found.append((SCREEN_LEVELS[screen], f"screen: {screen.replace('_', ' ')}"))
    body = checklist.get("body", "flawless")
    if BODY_LEVELS.get(body, 0):
        found.append((BODY_LEVELS[body], f"body: {body.replace('_', ' ')}"))
    health = int(checklist.get("battery_health", 100))
    if battery_level(health):
        found.append((battery_level(health), f"battery health {health} %"))
    if not checklist.get("accessories", True):
        found.append((1, "original accessories missing"))
    worst = max((lvl for lvl, _ in found), default=0)
    grade = CONDITIONS[worst]
    reasons = [f"{text} ({CONDITIONS[lvl]})" for lvl, text in sorted(found, key=lambda f: -f[0])]
    return grade, reasons


def blockers(checklist: Mapping[str, Any]) -> list[str]:
    found = [msg for item, msg in BLOCKING.items() if not checklist.get(item, False)]
    if checklist.get("blacklist_status") == "blacklisted":
        found.append("the device is reported lost or stolen (blacklisted)")
    erasure = checklist.get("erasure")
    if erasure and not erasure.get("verified"):
        found.append("the data erasure is not verified")
    return found


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))
