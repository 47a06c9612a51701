"""Templates people write, rendered in jinja2's sandbox, and SMS segment counting.

The sandbox refuses attribute access to internals (``__class__``, ...); a template that does
not compile is refused when saved (400), one that fails for a contact fails that message.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import TemplateSyntaxError, Undefined
from jinja2.sandbox import SandboxedEnvironment

from services.core.errors import ValidationFailed

_TEXT = SandboxedEnvironment(autoescape=False, undefined=Undefined)
_HTML = SandboxedEnvironment(autoescape=True, undefined=Undefined)


@lru_cache(maxsize=256)
def _compile(source: str, html: bool) -> Any:
    return (_HTML if html else _TEXT).from_string(source)


def check(source: str, field: str, html: bool = False) -> None:
    try:
        _compile(source, html)
    except TemplateSyntaxError as exc:
        raise ValidationFailed(
            f"the {field} template does not compile: {exc.message}", {"field": field, "line": exc.lineno}
        ) from exc


def render(source: str, values: dict[str, Any], html: bool = False) -> str:
    return str(_compile(source, html).render(**values))


def contact_values(contact: Any) -> dict[str, Any]:
    """What a template sees: ``contact.name``, ``contact.email``, ``contact.attributes.x``."""
    first = (contact.name or "").split(" ", 1)[0]
    return {
        "contact": {
            "name": contact.name,
            "first_name": first,
            "email": contact.email,
            "phone": contact.phone,
            "attributes": dict(contact.attributes or {}),
        }
    }


# GSM 03.38 basic set and the extension characters that cost two septets.
_GSM = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿"
    "abcdefghijklmnopqrstuvwxyzäöñüà"
)
_GSM_EXT = set("^{}\\[~]|€\f")


def sms_segments(body: str) -> tuple[int, str, int]:
    """(segments, encoding, length in units): GSM-7 160/153, else UCS-2 70/67 (code units)."""
    if all(c in _GSM or c in _GSM_EXT for c in body):
        units = sum(2 if c in _GSM_EXT else 1 for c in body)
        single, multi, enc = 160, 153, "gsm7"
    else:
        units = len(body.encode("utf-16-le")) // 2  # emoji outside the BMP count two
        single, multi, enc = 70, 67, "ucs2"
    if units <= single:
        return (1 if units else 0), enc, units
    return -(-units // multi), enc, units
