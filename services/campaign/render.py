"""Templates people write, rendered in jinja2's sandbox, and SMS segment counting.

The sandbox refuses attribute access to internals (``__class__``, ...); a template that does
not compile is refused when saved (400), one that fails for a contact fails that message.

A template that only prints values (text and ``{{ contact.first_name }}``-style lookups) is
rendered from its parts, read from jinja2's own parse: the same output as the sandbox for plain
dictionaries of values (``str``, or ``escape`` in HTML), at a twentieth of the cost per
recipient. Anything else, and any lookup the parts do not settle (a missing name, a value that
is not a plain dict, a dict method's name), goes to the sandbox, which decides as before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import TemplateSyntaxError, Undefined, nodes
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import escape

from services.core.errors import ValidationFailed

_TEXT = SandboxedEnvironment(autoescape=False, undefined=Undefined)
_HTML = SandboxedEnvironment(autoescape=True, undefined=Undefined)
_MISSING = object()
_DICT_NAMES = frozenset(dir(dict))  # ``x.items`` is the method in jinja2, not the key: the sandbox decides


class Compiled:
    """One template, compiled once: ``render(values)`` for each recipient."""

    __slots__ = ("html", "parts", "template")

    def __init__(self, source: str, html: bool) -> None:
        env = _HTML if html else _TEXT
        self.html = html
        self.template = env.from_string(source)
        self.parts = _parts(env.parse(source))

    def render(self, values: dict[str, Any]) -> str:
        if self.parts is None:
            return str(self.template.render(**values))
        out: list[str] = []
        for part in self.parts:
            if type(part) is str:
                out.append(part)
                continue
            value: Any = values.get(part[0], _MISSING)
            last = len(part) - 1
            for i in range(1, len(part)):
                key = part[i]
                if type(value) is not dict or key in _DICT_NAMES:
                    value = _MISSING
                    break
                value = value.get(key, _MISSING)
                if value is _MISSING and i == last:
                    value = ""  # the last name missing in a dict: jinja2's Undefined prints nothing
            if value is _MISSING:
                return str(self.template.render(**values))  # undefined on the way, or not a dict
            out.append(escape(value) if self.html else str(value))
        return "".join(out)


def _parts(tree: nodes.Template) -> list[str | tuple[str, ...]] | None:
    """Literal text and lookup paths (``("contact", "first_name")``), or None for anything else."""
    parts: list[str | tuple[str, ...]] = []
    for node in tree.body:
        if not isinstance(node, nodes.Output):
            return None
        for child in node.nodes:
            if isinstance(child, nodes.TemplateData):
                parts.append(child.data)
                continue
            path: list[str] = []
            while isinstance(child, (nodes.Getattr, nodes.Getitem)):
                if isinstance(child, nodes.Getattr):
                    path.append(child.attr)
                elif isinstance(child.arg, nodes.Const) and isinstance(child.arg.value, str):
                    path.append(child.arg.value)
                else:
                    return None
                child = child.node
            if not isinstance(child, nodes.Name):
                return None
            parts.append((child.name, *reversed(path)))
    return parts


@lru_cache(maxsize=256)
def compiled(source: str, html: bool = False) -> Compiled:
    return Compiled(source, html)


def check(source: str, field: str, html: bool = False) -> None:
    """400 naming the field, the line and jinja2's reason (issue 35: the line and the reason)."""
    try:
        compiled(source, html)
    except TemplateSyntaxError as exc:
        reason = exc.message or "syntax error"
        raise ValidationFailed(
            f"the {field} template does not compile: line {exc.lineno}: {reason}",
            {"field": field, "line": exc.lineno, "reason": reason},
        ) from exc


def render(source: str, values: dict[str, Any], html: bool = False) -> str:
    return compiled(source, html).render(values)


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
