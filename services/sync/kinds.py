"""The record kinds a pull wrote, from the tables it wrote (``CommitInfo.records`` of a pull).

A synced table is named ``<module>_<records>`` (``fulfillment_orders``) or after its module alone
(``campaigns``); the record kind is the module and the singular (``fulfillment.order``) when a use
case declares that kind, else the module's "any record" kind (``sign.*``): an open view that shows
a record of the module reads again rather than missing a change.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from services.core.commands import RECORDS, REGISTRY
from services.core.context import module_kind

# Tables of the platform itself (tenants, people and their access), not of a module.
_PLATFORM = {"tenants": "platform.tenant", "users": "platform.user", "memberships": "platform.user"}


@cache
def _declared() -> frozenset[str]:
    return frozenset(RECORDS) | frozenset(op.record for op in REGISTRY.values() if op.record)


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("ses") or word.endswith("xes"):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def kind_of_table(table: str) -> str:
    """``fulfillment_orders`` -> ``fulfillment.order``; ``sign_audit`` -> ``sign.*``."""
    if table in _PLATFORM:
        return _PLATFORM[table]
    module, _, rest = table.partition("_")
    if not rest:  # "campaigns": the module's main record
        module = _singular(table)
        rest = table
    kind = f"{module}.{_singular(rest)}"
    return kind if kind in _declared() else module_kind(module)


def kinds_of_tables(tables: Iterable[str]) -> frozenset[str]:
    return frozenset(kind_of_table(t) for t in tables)


# The station's outbox: the changes waiting to be sent and the sync issues (the shell's counts).
OUTBOX_KIND = "station.outbox"
