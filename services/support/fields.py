"""Custom ticket fields: the tenant's own (``custom_fields`` of the helpdesk configuration).

A value is checked against its field: ``text`` (at most 1,000 characters), ``number`` (an integer
or a decimal, never a boolean), ``choice`` (one of its choices), ``date`` (``YYYY-MM-DD``). An
unknown key, a value of the wrong kind, a required field missing at creation or cleared later: 400
naming the field, and nothing is stored. ``GET /tickets?field=<key>:<value>`` filters on one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import ColumnElement

from local_db.models.support import SupportTicket
from services.core.errors import ValidationFailed
from services.support import schemas as sc

MAX_TEXT = 1000


def _value(f: sc.CustomField, value: Any) -> Any:
    def bad(expected: str) -> ValidationFailed:
        return ValidationFailed(f"custom field {f.key}: {expected}", {"field": f.key, "expected": expected})

    if f.type == "text":
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise bad(f"text of at most {MAX_TEXT} characters")
        return value
    if f.type == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("a number")
        return value
    if f.type == "choice":
        if value not in f.choices:
            raise ValidationFailed(
                f"custom field {f.key}: one of its choices", {"field": f.key, "allowed": list(f.choices)}
            )
        return value
    if not isinstance(value, str) or len(value) != 10:
        raise bad("a date YYYY-MM-DD")
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise bad("a date YYYY-MM-DD") from None


def checked(
    cfg: sc.HelpdeskConfig, given: dict[str, Any], current: dict[str, Any] | None = None, *, creating: bool = False
) -> dict[str, Any]:
    """The ticket's fields after ``given`` is applied to ``current`` (null clears), checked."""
    defs = {f.key: f for f in cfg.custom_fields}
    unknown = sorted(k for k in given if k not in defs)
    if unknown:
        raise ValidationFailed("unknown custom field", {"fields": unknown, "allowed": sorted(defs)})
    out = dict(current or {})
    for key, value in given.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = _value(defs[key], value)
    if creating or current is not None:
        missing = [f.key for f in cfg.custom_fields if f.required and f.key not in out]
        # Required: given at agent creation, never cleared; tickets made before the field are left alone.
        if missing and (creating or any(k in given for k in missing)):
            raise ValidationFailed("required custom field missing", {"fields": missing})
    return out


def field_filter(cfg: sc.HelpdeskConfig, spec: str) -> ColumnElement[bool]:
    """``key:value`` as a clause on the tickets' custom fields (numbers compared as numbers)."""
    key, sep, value = spec.partition(":")
    f = next((d for d in cfg.custom_fields if d.key == key), None)
    if not sep or f is None:
        raise ValidationFailed(
            "field filter is <custom field key>:<value>", {"field": spec, "allowed": [d.key for d in cfg.custom_fields]}
        )
    col = SupportTicket.custom_fields[key]
    if f.type == "number":
        try:
            number = float(value)
        except ValueError:
            raise ValidationFailed(f"custom field {key}: a number", {"field": key}) from None
        return col.as_float() == number
    return col.as_string() == value
