"""What a use case's declaration may leave out or must get right, checked when it is read.

``declare_defaults`` gives a module's (or one resource's) use cases their roles and record kind, so
a declaration spells only what differs. ``check_says`` refuses, at import (that is, at start-up and
in the test that imports every module), a ``says`` whose placeholder names no field of the body and
no path parameter: a wrong one never reaches a button or a sync issue.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any, get_args

from pydantic import BaseModel

_PATH_PARAM = re.compile(r"{(\w+)}")


@dataclass(frozen=True)
class Defaults:
    roles: frozenset[str] | None = None
    record: str | None = None


# Declaration defaults by name prefix ("inventory", "inventory.items"): the longest prefix wins.
DEFAULTS: dict[str, Defaults] = {}


def declare_defaults(prefix: str, *, roles: frozenset[str] | None = None, record: str | None = None) -> None:
    """What the use cases named ``<prefix>.…`` get when their declaration does not say:
    ``declare_defaults("inventory", roles=STAFF)``, ``declare_defaults("inventory.items",
    record="inventory.item")``. Declared before the use cases (a module's ``__init__`` or the top
    of its resource file)."""
    DEFAULTS[prefix] = Defaults(roles, record)


def default_of(name: str, attr: str) -> Any:
    parts = name.split(".")
    for n in range(len(parts) - 1, 0, -1):
        found = DEFAULTS.get(".".join(parts[:n]))
        if found is not None and getattr(found, attr) is not None:
            return getattr(found, attr)
    return None


def check_says(name: str, says: str, body: type[BaseModel] | None, path: str) -> None:
    """Every placeholder of ``says`` names a field of the body or a path parameter: a wrong one is
    refused when the declaration is read (at start-up), never shown on a button or in history.
    ``{result.x}`` is refused too: the words are told before the call has a result (the record's
    label, from its record kind, completes them)."""
    allowed = set(body_fields(body)) | set(_PATH_PARAM.findall(path))
    try:
        parsed = list(string.Formatter().parse(says))
    except ValueError as exc:
        raise ValueError(f"{name}: says={says!r} is not a valid template: {exc}") from None
    for _text, field, spec, conv in parsed:
        if field is None:
            continue
        if not field or not field.isidentifier() or spec or conv:
            raise ValueError(f"{name}: says={says!r}: {{{field}}} must name a body field or path parameter plainly")
        if field not in allowed:
            raise ValueError(
                f"{name}: says={says!r} names {{{field}}}, which is neither a body field nor a path parameter "
                f"(body fields: {sorted(body_fields(body))})"
            )


def body_fields(body: type[BaseModel] | None) -> list[str]:
    """The fields of a body, the fields of every variant for a ``RootModel`` union."""
    if body is None:
        return []
    root = body.model_fields.get("root")
    if root is None or len(body.model_fields) != 1:
        return list(body.model_fields)
    found: dict[str, None] = {}
    for t in (root.annotation, *get_args(root.annotation)):
        for v in (t, *get_args(t)):
            if isinstance(v, type) and issubclass(v, BaseModel):
                found.update(dict.fromkeys(body_fields(v)))
    return list(found)


def carries_state(tp: Any, seen: set[Any] | None = None) -> bool:
    """Whether a response type holds a record with allowed actions (a ``StatefulOut``), itself, in a
    ``Page``, a union or one of its fields."""
    from services.core.schemas import StatefulOut

    seen = set() if seen is None else seen
    if tp in seen:
        return False
    seen.add(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if issubclass(tp, StatefulOut):
            return True
        return any(carries_state(f.annotation, seen) for f in tp.model_fields.values())
    return any(carries_state(a, seen) for a in get_args(tp))
