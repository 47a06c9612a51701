"""Numbers that fit the database: one integer and one decimal type, and the edge check behind them.

PostgreSQL's and SQLite's integers are 64-bit: a larger Python integer fails when bound
(``OverflowError``, a 500 with the connection dropped). Decimals are stored in ``NUMERIC``
columns of at most 18 integer digits here. ``Int64`` and ``Decimal18`` declare these bounds in
a schema (and so in the OpenAPI document); :func:`check_numbers` applies them to every query
and body the front doors validate (``services.core.commands.parse_query``,
``services.core.bodies.validate_body``), so a field typed plain ``int`` is bounded too.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, Field

from services.core.errors import ValidationFailed

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
DECIMAL_LIMIT = Decimal(10) ** 18

Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]
Decimal18 = Annotated[Decimal, Field(gt=-DECIMAL_LIMIT, lt=DECIMAL_LIMIT, allow_inf_nan=False)]


def _problem(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return f"must be between {INT64_MIN} and {INT64_MAX}"
    if isinstance(value, Decimal) and (not value.is_finite() or abs(value) >= DECIMAL_LIMIT):
        return "must be a finite number below 10^18"
    return None


def number_problems(value: Any, path: str = "") -> list[dict[str, str]]:
    """Every number in a validated model (nested models, lists, dicts) that does not fit."""
    out: list[dict[str, str]] = []
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, BaseModel):
            stack.extend(
                (getattr(item, name), f"{where}.{name}" if where else name) for name in type(item).model_fields
            )
        elif isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend((v, f"{where}.{i}") for i, v in enumerate(item))
        elif (why := _problem(item)) is not None:
            out.append({"field": where or "value", "message": why})
    return out


def _fits(value: Any) -> bool:
    """Whether every number in ``value`` fits: ``number_problems`` without the field paths, which
    it builds for every value it passes (a tenth of a scan's service call, issue 38); only a body
    that fails is walked again to name its fields."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            continue
        if isinstance(item, BaseModel):
            stack.extend(getattr(item, name) for name in type(item).model_fields)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif _problem(item) is not None:
            return False
    return True


def check_numbers(model: BaseModel, what: str) -> None:
    """VALIDATION_ERROR naming each field whose number does not fit the database."""
    if _fits(model):
        return
    problems = number_problems(model)
    if problems:
        raise ValidationFailed(f"{what} failed validation: a number is out of range", {"fields": problems})
