"""The roles of a tenant membership (spec: Authentication) and the sets declarations use."""

from __future__ import annotations

from typing import Literal

Role = Literal["owner", "admin", "operator", "warehouse-device"]
# In the order people read them (highest first).
ROLES: tuple[str, ...] = ("owner", "admin", "operator", "warehouse-device")

ANYONE: frozenset[str] = frozenset(ROLES)
STAFF: frozenset[str] = frozenset({"owner", "admin", "operator"})
MANAGERS: frozenset[str] = frozenset({"owner", "admin"})
OWNER: frozenset[str] = frozenset({"owner"})
