"""Errors in people's words: what happened and what to do, from a service error's code and details.

``views.ops.error_message`` calls ``say`` for every failure a view shows, so there is one voice.
A validation error names its field; the field's last part is looked up in ``FIELDS`` (what the
person calls it and what to do), the pydantic error type in the rules below.

Every sentence is a template translated by Qt (context ``wording``) and filled afterwards, so the
German is whole sentences, not English pieces. The services answer in English (the API's words);
the messages with a known shape (a move from the wrong state, a record not found) are said from
their parts (``service_message``): the record, the action and the state each in the person's words
(contexts ``RecordName``, ``Action``, ``State``, listed from the declared state machines by
``python -m views.records.catalogue``). Any other message is looked up whole (context
``ServiceMessage``) and shown as the service says it where no translation is known.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from services.core.errors import ServiceError
from views.i18n import QT_TRANSLATE_NOOP, fmt_number

CONTEXT = "wording"


def tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


# field (last part of the pydantic location) -> (what the person calls it, what to do about it)
FIELDS: dict[str, tuple[str, str]] = {
    "code": (QT_TRANSLATE_NOOP("wording", "That scan"), QT_TRANSLATE_NOOP("wording", "Scan the barcode again.")),
    "items": (QT_TRANSLATE_NOOP("wording", "That scan"), QT_TRANSLATE_NOOP("wording", "Scan the barcode again.")),
    "box": (QT_TRANSLATE_NOOP("wording", "The box size"), QT_TRANSLATE_NOOP("wording", "Pick one of the boxes.")),
    "email": (
        QT_TRANSLATE_NOOP("wording", "The e-mail address"),
        QT_TRANSLATE_NOOP("wording", "Check it and type it again."),
    ),
    "password": (QT_TRANSLATE_NOOP("wording", "The password"), QT_TRANSLATE_NOOP("wording", "Type it again.")),
    "name": (QT_TRANSLATE_NOOP("wording", "The name"), QT_TRANSLATE_NOOP("wording", "Shorten it and try again.")),
    "subject": (QT_TRANSLATE_NOOP("wording", "The subject"), QT_TRANSLATE_NOOP("wording", "Shorten it and try again.")),
    "body": (QT_TRANSLATE_NOOP("wording", "The message"), QT_TRANSLATE_NOOP("wording", "Shorten it and try again.")),
    "description": (
        QT_TRANSLATE_NOOP("wording", "The description"),
        QT_TRANSLATE_NOOP("wording", "Shorten it and try again."),
    ),
    "reason": (QT_TRANSLATE_NOOP("wording", "The reason"), QT_TRANSLATE_NOOP("wording", "Shorten it and try again.")),
    "quantity": (QT_TRANSLATE_NOOP("wording", "The quantity"), QT_TRANSLATE_NOOP("wording", "Type a smaller number.")),
    "modules": (QT_TRANSLATE_NOOP("wording", "Modules"), QT_TRANSLATE_NOOP("wording", "Choose at least one.")),
}
ADVICE: dict[str, str] = {
    "NOT_FOUND": QT_TRANSLATE_NOOP("wording", "Check it and try again."),
    "CONFLICT": QT_TRANSLATE_NOOP(
        "wording", "Someone or something changed it meanwhile: look at it again before you go on."
    ),
    "FORBIDDEN": QT_TRANSLATE_NOOP("wording", "Ask an administrator if you need to do this."),
    "UNAUTHORIZED": QT_TRANSLATE_NOOP("wording", "Sign in again."),
    "TENANT_INACTIVE": QT_TRANSLATE_NOOP("wording", "Ask the account owner to reactivate the tenant."),
    "PAYLOAD_TOO_LARGE": QT_TRANSLATE_NOOP("wording", "Choose a smaller file."),
    "RATE_LIMITED": QT_TRANSLATE_NOOP("wording", "Wait a moment and try again."),
    "VALIDATION_ERROR": QT_TRANSLATE_NOOP("wording", "Correct it and try again."),
}
# A 409 naming the record's current state is the state rule (pack before ship), not somebody else's
# change: it gets no blame, only what to do (issue 32: "Someone or something changed it" was false).
STATE_ADVICE = QT_TRANSLATE_NOOP("wording", "It has to be moved on first: look at the steps it offers now.")
LOGGED = QT_TRANSLATE_NOOP(
    "wording", "Something went wrong; it was logged. Try again, and tell an administrator if it keeps happening."
)
UNREACHABLE = QT_TRANSLATE_NOOP(
    "wording", "The platform does not answer. Your work is kept on this station; try again later."
)
CORRECT = QT_TRANSLATE_NOOP("wording", "Correct it and try again.")
LONGEST_QUOTE = 40  # a value quoted back (an unknown scan) is cut to this

# The services' messages with a known shape (services.core.errors.conflict_state, get_or_404).
_WRONG_STATE = re.compile(r"^cannot (?P<action>[\w ]+?) an? (?P<record>[\w\- ]+?) that is (?P<state>[\w ]+)$", re.I)
_NOT_FOUND = re.compile(r"^no (?P<record>[\w\- ]+?) (?P<id>\S+)$", re.I)


def state_word(value: str) -> str:
    """A record's state as the person reads it ("picked" / "kommissioniert"); the data keeps the value."""
    return QCoreApplication.translate("State", value.replace("_", " ")) if value else value


def action_word(action: str) -> str:
    return QCoreApplication.translate("Action", action.replace("_", " "))


def record_word(record: str) -> str:
    return QCoreApplication.translate("RecordName", record)


def _translated(context: str, text: str) -> bool:
    return QCoreApplication.translate(context, text) != text


def service_message(message: str) -> str:
    """A service's (English) message in the person's language, where its shape or text is known."""
    text = message.strip()
    found = _WRONG_STATE.match(text)
    if found and _translated("RecordName", found["record"]):
        return QCoreApplication.translate("wording", "Cannot {action} a {record} that is {state}").format(
            action=action_word(found["action"]), record=record_word(found["record"]), state=state_word(found["state"])
        )
    found = _NOT_FOUND.match(text)
    if found and _translated("RecordName", found["record"]):
        return QCoreApplication.translate("wording", "No {record} {id}").format(
            record=record_word(found["record"]), id=found["id"]
        )
    return QCoreApplication.translate("ServiceMessage", text)


def too_long(label: str, length: int | None, limit: int, advice: str) -> str:
    """ "That scan is too long (10,000 characters; at most 100). Scan the barcode again." """
    if length:
        text = QCoreApplication.translate(
            "wording", "{label} is too long ({length} characters; at most {limit}). {advice}"
        )
        return text.format(label=label, length=fmt_number(length), limit=fmt_number(limit), advice=advice)
    return QCoreApplication.translate("wording", "{label} is too long (at most {limit}). {advice}").format(
        label=label, limit=fmt_number(limit), advice=advice
    )


def short(value: str) -> str:
    """A value quoted back to the person, never a screenful."""
    if len(value) <= LONGEST_QUOTE:
        return value
    return QCoreApplication.translate("wording", "{start}… ({length} characters)").format(
        start=value[:LONGEST_QUOTE], length=fmt_number(len(value))
    )


def _sentence(text: str) -> str:
    english = service_message(text) == text.strip()
    text = service_message(text)
    text = re.sub(rf"\S{{{LONGEST_QUOTE + 1},}}", lambda m: short(m.group()), text.strip())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if english:
        text = re.sub(r"\b([Aa]) (?=[aeiou])", r"\1n ", text)  # "a order" -> "an order"
    return text if text.endswith((".", "!", "?")) else text + "."


def _field(field: str, given: Mapping[str, object]) -> tuple[str, str, object]:
    parts = [p for p in field.split(".") if p and not p.isdigit()]
    leaf = parts[-1] if parts else field
    if leaf in FIELDS:
        label, advice = (tr(x) for x in FIELDS[leaf])
    else:
        # German names the field by its label in Records ("Das Feld „Kundenname“"); English as before.
        from views.records.words import readable  # Records' label for the field: its .ts key

        named = QCoreApplication.translate("records", readable(leaf))
        name = named if _translated("records", readable(leaf)) else leaf.replace("_", " ")
        label, advice = QCoreApplication.translate("wording", "The {field}").format(field=name), tr(CORRECT)
    return label, advice, given.get(leaf)


def _one_field(item: Mapping[str, object], given: Mapping[str, object]) -> str:
    label, advice, value = _field(str(item.get("field", "")), given)
    kind, message = str(item.get("type", "")), str(item.get("message", ""))
    numbers = [int(n) for n in re.findall(r"\d+", message)]
    limit = numbers[0] if numbers else None  # "at least 1 item after validation, not 0": the first is the limit
    if kind in ("string_too_long", "too_long") and limit is not None:
        return too_long(label, len(value) if isinstance(value, str | list) else None, limit, advice)
    if kind == "too_short" and limit == 1:  # a list left empty
        return QCoreApplication.translate("wording", "{label}: choose at least one.").format(label=label)
    if kind == "missing" or (kind == "string_too_short" and limit in (0, 1)):
        return QCoreApplication.translate("wording", "{label} is missing. Fill it in and try again.").format(
            label=label
        )
    if kind in ("string_too_short", "too_short") and limit is not None:
        text = QCoreApplication.translate("wording", "{label} is too short (at least {limit}). {advice}")
        return text.format(label=label, limit=fmt_number(limit), advice=advice)
    if kind in ("greater_than_equal", "greater_than") and limit is not None:
        return QCoreApplication.translate(
            "wording", "{label} must be at least {limit}. Correct it and try again."
        ).format(label=label, limit=fmt_number(limit))
    if kind in ("less_than_equal", "less_than") and limit is not None:
        text = QCoreApplication.translate("wording", "{label} must be at most {limit}. {advice}")
        return text.format(label=label, limit=fmt_number(limit), advice=advice)
    if kind in ("literal_error", "enum", "union_tag_invalid"):
        return QCoreApplication.translate(
            "wording", "{label} is not one of the choices. Pick one from the list."
        ).format(label=label)
    # pydantic's own words (English): the field is named, the advice is the person's language. A
    # validator's message comes as "Value error, not a valid e-mail address": the prefix is
    # pydantic's kind of error, not words for a person (the walk of issue 32 read it in Admin).
    message = re.sub(r"^(Value error|Assertion failed), ", "", message)
    return QCoreApplication.translate("wording", "{label}: {problem}. {advice}").format(
        label=label, problem=message.lower(), advice=advice
    )


def say(error: BaseException, given: Mapping[str, object] | None = None) -> str:
    """The sentence a person reads for ``error``. ``given``: what they typed or scanned, by field name."""
    given = given or {}
    if not isinstance(error, ServiceError):
        if type(error).__name__ in ("ConnectError", "ConnectTimeout", "ReadTimeout", "TimeoutException"):
            return tr(UNREACHABLE)
        return tr(LOGGED)
    fields = (error.details or {}).get("fields") if isinstance(error.details, dict) else None
    if error.code == "VALIDATION_ERROR" and isinstance(fields, list) and fields:
        return " ".join(dict.fromkeys(_one_field(f, given) for f in fields[:3] if isinstance(f, Mapping)))
    if error.code == "INTERNAL_ERROR":
        return tr(LOGGED)
    advice = tr(ADVICE[error.code]) if error.code in ADVICE else ""
    if error.code == "CONFLICT" and isinstance(error.details, dict) and error.details.get("current_state"):
        advice = tr(STATE_ADVICE)
    text = _sentence(error.message)
    return f"{text} {advice}".strip() if advice and advice not in text else text
