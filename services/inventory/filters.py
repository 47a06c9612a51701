"""Filters shared by the inventory lists: a comma-separated state filter checked against a machine's states."""

from __future__ import annotations

from services.core.errors import ValidationFailed


def _states(raw: str | None, allowed: tuple[str, ...], field: str = "status") -> list[str] | None:
    if not raw:
        return None
    wanted = [x.strip() for x in raw.split(",") if x.strip()]
    unknown = sorted(set(wanted) - set(allowed))
    if unknown:
        raise ValidationFailed(f"unknown {field}: {', '.join(unknown)}", {field: unknown, "allowed": list(allowed)})
    return wanted
