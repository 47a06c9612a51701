"""The scan's pages: a landing page for codes that are not addresses (text, vCard, Wi-Fi, e-mail,
phone, SMS), the page of a code that does not serve (410), and the scanner's query forwarded.

The pages are the public pages' shared templates (``resources/templates/pages/qr/``: the
tenant's look, the visitor's language, the pages' security headers; api/pages.py renders them).
Every value is escaped by the templates' autoescaping; links carry only a scheme this file sets
(``mailto:``, ``tel:``, ``sms:``) with the value percent-encoded, so a code's content can never
become markup or a ``javascript:`` link.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from services.core.pages import N_, Page

# What a scanner is told when a code does not serve (the code's owner chose no fallback address).
REASONS = {
    "disabled": N_("This code has been paused by its owner."),
    "not_yet_valid": N_("This code is not active yet."),
    "expired": N_("This code has expired."),
    "limit_reached": N_("This code has reached its scan limit."),
    "static": N_("This code has no web address."),
}


def forward_query(destination: str, scanner: dict[str, str]) -> str:
    """The destination with the scanner's query parameters added (``?utm_source=poster``); a
    parameter the destination sets itself keeps the destination's value (the owner's link wins)."""
    if not scanner:
        return destination
    parts = urlsplit(destination)
    own = parse_qsl(parts.query, keep_blank_values=True)
    names = {k for k, _ in own}
    extra = [(k, v) for k, v in scanner.items() if k not in names]
    if not extra:
        return destination
    query = parts.query + ("&" if parts.query else "") + urlencode(extra)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def gone(reason: str) -> Page:
    """The 410 page of a code that does not serve and has no fallback address."""
    return Page("qr/gone.html", {"reason": REASONS.get(reason, REASONS["disabled"])}, 410, N_("QR code not available"))


def _row(label: str, value: str, scheme: str | None = None) -> dict[str, Any]:
    """One line of a landing page; ``scheme`` makes the value a link of that scheme only."""
    href = f"{scheme}:{quote(value, safe='@+')}" if scheme else None
    return {"label": label, "value": value, "href": href}


def _page(
    title: str, rows: list[dict[str, Any]], action: dict[str, Any] | None = None, *, literal: bool = False, **more: Any
) -> Page:
    """``literal``: the title is the code's own (a name), not a string of the catalogue."""
    view = {"heading": title, "rows": rows, "action": action, "literal": literal, **more}
    return Page("qr/landing.html", view, title=title)


def vcard_fields(content: str) -> dict[str, list[str]]:
    """The vCard's lines by property name (``TEL;TYPE=cell:+49...`` -> TEL), values unescaped."""
    out: dict[str, list[str]] = {}
    # Folded lines (RFC 6350 3.2) are joined before reading.
    for line in re.sub(r"\r?\n[ \t]", "", content).splitlines():
        name, sep, value = line.partition(":")
        if not sep:
            continue
        key = name.split(";")[0].split(".")[-1].upper()
        value = value.replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";").replace("\\\\", "\\")
        out.setdefault(key, []).append(value.strip())
    return out


def wifi_fields(content: str) -> dict[str, str]:
    """``WIFI:T:WPA;S:name;P:secret;H:false;;`` read into its fields (a backslash escapes ``;,:\\``)."""
    body = content[5:] if content.upper().startswith("WIFI:") else content
    fields: dict[str, str] = {}
    for part in re.split(r"(?<!\\);", body):
        key, sep, value = part.partition(":")
        if sep:
            fields[key.upper()] = re.sub(r"\\(.)", r"\1", value)
    return fields


def landing(qr_type: str, content: str, name: str, vcard_href: str) -> Page:
    """The landing page of a dynamic code that carries content instead of an address."""
    if qr_type == "vcard":
        f = vcard_fields(content)
        rows = [_row(label, ", ".join(f[k])) for k, label in _VCARD if f.get(k)]
        rows += [_row(N_("Phone"), t, "tel") for t in f.get("TEL", [])]
        rows += [_row(N_("E-mail"), e, "mailto") for e in f.get("EMAIL", [])]
        title = f.get("FN", [name])[0] or name
        save = {"href": vcard_href, "text": N_("Save contact (.vcf)"), "download": True}
        return _page(title, rows, save, literal=True)
    if qr_type == "wifi":
        w = wifi_fields(content)
        rows = [_row(N_("Network"), w.get("S", "")), _row(N_("Security"), w.get("T", "") or "none")]
        if w.get("P"):
            rows.append({**_row(N_("Password"), w["P"]), "code": True})
        return _page(N_("Wi-Fi network"), rows)
    if qr_type == "email":
        addr = re.sub(r"^mailto:", "", content.strip(), flags=re.IGNORECASE).split("?")[0]
        return _page(N_("E-mail"), [_row(N_("Address"), addr)], _action("mailto", addr, N_("Write an e-mail")))
    if qr_type == "phone":
        number = re.sub(r"^tel:", "", content.strip(), flags=re.IGNORECASE)
        return _page(N_("Phone"), [_row(N_("Number"), number)], _action("tel", number, N_("Call")))
    if qr_type == "sms":
        # SMSTO:<number>:<message> (the common QR form) or sms:<number>
        rest = re.sub(r"^(smsto|sms):", "", content.strip(), flags=re.IGNORECASE)
        number, _, message = rest.partition(":")
        rows = [_row(N_("Number"), number)] + ([_row(N_("Message"), message)] if message else [])
        return _page(N_("Text message"), rows, _action("sms", number, N_("Send a text message")))
    return _page(name, [], literal=True, text=content)


def _action(scheme: str, value: str, text: str) -> dict[str, Any]:
    return {"href": _row("", value, scheme)["href"], "text": text, "download": False}


_VCARD = (
    ("ORG", N_("Organisation")),
    ("TITLE", N_("Title")),
    ("ADR", N_("Address")),
    ("URL", N_("Web")),
    ("NOTE", N_("Note")),
)
