"""Segment rules: ``{"all"|"any": [{field, op, value} | nested rules]}``, evaluated at send time.

Fields: ``email, name, phone, status, created_at, list_ids, attributes.<key>`` (DECISIONS).
Rules are checked when saved (400 with the offending rule) and evaluated in Python over the
contacts of the campaign's lists, so an attribute never needs a column.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from services.core.errors import ValidationFailed

OPS = frozenset(
    {
        "eq",
        "ne",
        "contains",
        "not_contains",
        "starts_with",
        "gt",
        "gte",
        "lt",
        "lte",
        "in",
        "exists",
        "before",
        "after",
        "within_days",
    }
)
FIELDS = frozenset({"email", "name", "phone", "status", "created_at", "list_ids"})
MAX_DEPTH = 5


def check_rules(rules: Any, depth: int = 0, where: str = "rules") -> None:
    if not isinstance(rules, dict) or len(rules) != 1 or next(iter(rules)) not in ("all", "any"):
        raise ValidationFailed('rules must be {"all": [...]} or {"any": [...]}', {"field": where})
    if depth > MAX_DEPTH:
        raise ValidationFailed("rules nest too deep", {"field": where})
    key = next(iter(rules))
    items = rules[key]
    if not isinstance(items, list) or len(items) > 100:
        raise ValidationFailed(f"{key} takes a list of at most 100 conditions", {"field": f"{where}.{key}"})
    for i, cond in enumerate(items):
        at = f"{where}.{key}[{i}]"
        if isinstance(cond, dict) and set(cond) <= {"all", "any"} and cond:
            check_rules(cond, depth + 1, at)
            continue
        if not isinstance(cond, dict) or "field" not in cond or "op" not in cond:
            raise ValidationFailed("a condition is {field, op, value}", {"field": at})
        field, op = cond["field"], cond["op"]
        if not isinstance(field, str) or not (field in FIELDS or (field.startswith("attributes.") and len(field) > 11)):
            raise ValidationFailed(f"unknown field {field!r}", {"field": at, "allowed": sorted(FIELDS)})
        if op not in OPS:
            raise ValidationFailed(f"unknown op {op!r}", {"field": at, "allowed": sorted(OPS)})
        value = cond.get("value")
        if op == "in" and not isinstance(value, list):
            raise ValidationFailed("op in takes a list", {"field": at})
        if op == "within_days" and (not isinstance(value, int | float) or isinstance(value, bool) or value < 0):
            raise ValidationFailed("op within_days takes a number of days", {"field": at})
        if op in ("before", "after") and _when(value) is None:
            raise ValidationFailed(f"op {op} takes an ISO 8601 date or time", {"field": at})


def _when(v: Any) -> datetime | None:
    if isinstance(v, datetime):
        return v if v.tzinfo else v.replace(tzinfo=UTC)
    if isinstance(v, date):
        return datetime(v.year, v.month, v.day, tzinfo=UTC)
    if isinstance(v, str):
        try:
            d = datetime.fromisoformat(v.replace("Z", "+00:00"))
        except ValueError:
            return None
        return d if d.tzinfo else d.replace(tzinfo=UTC)
    return None


def _field(contact: dict[str, Any], field: str) -> Any:
    if field.startswith("attributes."):
        return (contact.get("attributes") or {}).get(field[11:])
    return contact.get(field)


def _num(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _cmp(a: Any, b: Any) -> tuple[Any, Any] | None:
    na, nb = _num(a), _num(b)
    if na is not None and nb is not None:
        return na, nb
    wa, wb = _when(a), _when(b)
    if wa is not None and wb is not None:
        return wa, wb
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    return None


def _test(contact: dict[str, Any], cond: dict[str, Any], now: datetime) -> bool:
    if set(cond) <= {"all", "any"} and cond:
        return matches(contact, cond, now)
    v = _field(contact, cond["field"])
    op, want = cond["op"], cond.get("value")
    text = lambda x: str(x).lower() if x is not None else ""  # noqa: E731 - text ops ignore case
    if op == "exists":
        present = v not in (None, "", [], {})
        return present if want is None or want is True else not present
    if op in ("eq", "ne"):
        if isinstance(v, list):
            same = want in v
        elif isinstance(v, str) and isinstance(want, str):
            same = v.lower() == want.lower()
        else:
            pair = _cmp(v, want)
            same = pair[0] == pair[1] if pair else v == want
        return same if op == "eq" else not same
    if op in ("contains", "not_contains"):
        has = want in v if isinstance(v, list) else text(want) in text(v) if v is not None else False
        return has if op == "contains" else not has
    if op == "starts_with":
        return v is not None and text(v).startswith(text(want))
    if op == "in":
        options = [text(o) for o in want or []]
        return any(text(x) in options for x in v) if isinstance(v, list) else text(v) in options
    if op in ("gt", "gte", "lt", "lte"):
        pair = _cmp(v, want)
        if pair is None:
            return False
        a, b = pair
        return {"gt": a > b, "gte": a >= b, "lt": a < b, "lte": a <= b}[op]
    if op in ("before", "after"):
        a, b = _when(v), _when(want)
        if a is None or b is None:
            return False
        return a < b if op == "before" else a > b
    if op == "within_days":
        a = _when(v)
        return a is not None and now - timedelta(days=float(want or 0)) <= a <= now + timedelta(seconds=1)
    return False


def matches(contact: dict[str, Any], rules: dict[str, Any], now: datetime) -> bool:
    if not rules:
        return True
    key = next(iter(rules))
    conds = rules[key] or []
    if key == "all":
        return all(_test(contact, c, now) for c in conds)
    return any(_test(contact, c, now) for c in conds)
