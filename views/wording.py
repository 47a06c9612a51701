"""Errors in people's words: what happened and what to do, from a service error's code and details.

``views.ops.error_message`` calls ``say`` for every failure a view shows, so there is one voice.
A validation error names its field; the field's last part is looked up in ``FIELDS`` (what the
person calls it and what to do), the pydantic error type in the rules below.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from services.core.errors import ServiceError

# field (last part of the pydantic location) -> (what the person calls it, what to do about it)
FIELDS: dict[str, tuple[str, str]] = {
    "code": ("That scan", "Scan the barcode again."),
    "items": ("That scan", "Scan the barcode again."),
    "box": ("The box size", "Pick one of the boxes."),
    "email": ("The e-mail address", "Check it and type it again."),
    "password": ("The password", "Type it again."),
    "name": ("The name", "Shorten it and try again."),
    "subject": ("The subject", "Shorten it and try again."),
    "body": ("The message", "Shorten it and try again."),
    "description": ("The description", "Shorten it and try again."),
    "reason": ("The reason", "Shorten it and try again."),
    "quantity": ("The quantity", "Type a smaller number."),
    "modules": ("Modules", "Choose at least one."),
}
ADVICE: dict[str, str] = {
    "NOT_FOUND": "Check it and try again.",
    "CONFLICT": "Someone or something changed it meanwhile: look at it again before you go on.",
    "FORBIDDEN": "Ask an administrator if you need to do this.",
    "UNAUTHORIZED": "Sign in again.",
    "TENANT_INACTIVE": "Ask the account owner to reactivate the tenant.",
    "PAYLOAD_TOO_LARGE": "Choose a smaller file.",
    "RATE_LIMITED": "Wait a moment and try again.",
    "VALIDATION_ERROR": "Correct it and try again.",
}
# A 409 naming the record's current state is the state rule (pack before ship), not somebody else's
# change: it gets no blame, only what to do (issue 32: "Someone or something changed it" was false).
STATE_ADVICE = "It has to be moved on first: look at the steps it offers now."
LOGGED = "Something went wrong; it was logged. Try again, and tell an administrator if it keeps happening."
LONGEST_QUOTE = 40  # a value quoted back (an unknown scan) is cut to this


def too_long(label: str, length: int | None, limit: int, advice: str) -> str:
    """ "That scan is too long (10,000 characters; at most 100). Scan the barcode again." """
    given = f"{length:,} characters; " if length else ""
    return f"{label} is too long ({given}at most {limit:,}). {advice}"


def short(value: str) -> str:
    """A value quoted back to the person, never a screenful."""
    return value if len(value) <= LONGEST_QUOTE else f"{value[:LONGEST_QUOTE]}… ({len(value):,} characters)"


def _sentence(text: str) -> str:
    text = re.sub(rf"\S{{{LONGEST_QUOTE + 1},}}", lambda m: short(m.group()), text.strip())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    text = re.sub(r"\b([Aa]) (?=[aeiou])", r"\1n ", text)  # "a order" -> "an order"
    return text if text.endswith((".", "!", "?")) else text + "."


def _field(field: str, given: Mapping[str, object]) -> tuple[str, str, object]:
    parts = [p for p in field.split(".") if p and not p.isdigit()]
    leaf = parts[-1] if parts else field
    label, advice = FIELDS.get(leaf, (f"The {leaf.replace('_', ' ')}", "Correct it and try again."))
    return label, advice, given.get(leaf)


def _one_field(item: Mapping[str, object], given: Mapping[str, object]) -> str:
    label, advice, value = _field(str(item.get("field", "")), given)
    kind, message = str(item.get("type", "")), str(item.get("message", ""))
    numbers = [int(n) for n in re.findall(r"\d+", message)]
    limit = numbers[0] if numbers else None  # "at least 1 item after validation, not 0": the first is the limit
    if kind in ("string_too_long", "too_long") and limit is not None:
        return too_long(label, len(value) if isinstance(value, str | list) else None, limit, advice)
    if kind == "too_short" and limit == 1:  # a list left empty
        return f"{label}: choose at least one."
    if kind == "missing" or (kind == "string_too_short" and limit in (0, 1)):
        return f"{label} is missing. Fill it in and try again."
    if kind in ("string_too_short", "too_short") and limit is not None:
        return f"{label} is too short (at least {limit:,}). {advice}"
    if kind in ("greater_than_equal", "greater_than") and limit is not None:
        return f"{label} must be at least {limit:,}. Correct it and try again."
    if kind in ("less_than_equal", "less_than") and limit is not None:
        return f"{label} must be at most {limit:,}. {advice}"
    if kind in ("literal_error", "enum", "union_tag_invalid"):
        return f"{label} is not one of the choices. Pick one from the list."
    return f"{label}: {message.lower()}. {advice}"


def say(error: BaseException, given: Mapping[str, object] | None = None) -> str:
    """The sentence a person reads for ``error``. ``given``: what they typed or scanned, by field name."""
    given = given or {}
    if not isinstance(error, ServiceError):
        if type(error).__name__ in ("ConnectError", "ConnectTimeout", "ReadTimeout", "TimeoutException"):
            return "The platform does not answer. Your work is kept on this station; try again later."
        return LOGGED
    fields = (error.details or {}).get("fields") if isinstance(error.details, dict) else None
    if error.code == "VALIDATION_ERROR" and isinstance(fields, list) and fields:
        return " ".join(dict.fromkeys(_one_field(f, given) for f in fields[:3] if isinstance(f, Mapping)))
    if error.code == "INTERNAL_ERROR":
        return LOGGED
    advice = ADVICE.get(error.code, "")
    if error.code == "CONFLICT" and isinstance(error.details, dict) and error.details.get("current_state"):
        advice = STATE_ADVICE
    text = _sentence(error.message)
    return f"{text} {advice}".strip() if advice and advice not in text else text
