"""Request bodies, read the same way by every front door (HTTP, desktop, sync replay).

* A body is required where an operation declares one: absent or ``null`` is 400.
* Nesting deeper than ``MAX_DEPTH`` is 400 (no legitimate request comes close; a deeper one
  would only exhaust the parser's or the validator's recursion).
* Validation is strict, with JSON's own semantics: ``"quantity": "1"`` or ``true`` is not an
  integer, but an ISO 8601 string is a datetime and a decimal string is a ``Decimal`` (money).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError, to_json

from services.core.errors import ValidationFailed, validation_details
from services.core.numbers import check_numbers

MAX_DEPTH = 64
M = TypeVar("M", bound=BaseModel)


def nesting_depth_exceeded(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when containers nest deeper than ``limit`` (iterative: no recursion of its own)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list | tuple))
    return False


def parse_json(raw: bytes) -> Any:
    """JSON text -> value, or VALIDATION_ERROR (malformed, or nested too deep)."""
    try:
        value = json.loads(raw)
    except RecursionError as exc:
        raise _too_deep() from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed("request body is not valid JSON", {"reason": str(exc)[:200]}) from exc
    if nesting_depth_exceeded(value):
        raise _too_deep()
    return value


def _too_deep() -> ValidationFailed:
    return ValidationFailed(f"request body nests deeper than {MAX_DEPTH} levels", {"max_depth": MAX_DEPTH})


def validate_body(model: type[M], raw: Any) -> M:
    """A request body (a model instance, or the JSON value as decoded) -> ``model``, strictly."""
    if isinstance(raw, model):
        return raw
    if raw is None:
        raise ValidationFailed("a request body is required", {"fields": [{"field": "body", "message": "required"}]})
    if not isinstance(raw, dict):
        raise ValidationFailed("request body must be a JSON object")
    if nesting_depth_exceeded(raw):
        raise _too_deep()
    try:
        # Through JSON text so strict mode keeps JSON's natural readings (ISO datetimes,
        # decimal strings) for callers that pass Python values (the desktop, the sync replay).
        text = to_json(raw)
    except PydanticSerializationError as exc:
        raise ValidationFailed("request body is not JSON-compatible", {"reason": str(exc)[:200]}) from exc
    try:
        body = model.model_validate_json(text, strict=True)
    except ValidationError as exc:
        raise ValidationFailed("request body failed validation", validation_details(exc)) from exc
    check_numbers(body, "request body")
    return body


MAX_IDEMPOTENCY_KEY = 200


def check_idempotency_key(key: str | None) -> None:
    """An ``Idempotency-Key`` the store can keep whole: 1 to 200 printable characters."""
    if not key:  # absent (an empty header counts as absent)
        return
    if len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} printable characters",
            {"fields": [{"field": "Idempotency-Key", "message": f"1 to {MAX_IDEMPOTENCY_KEY} characters"}]},
        )
