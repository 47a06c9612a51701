"""The scan's pages: a landing page for codes that are not addresses (text, vCard, Wi-Fi, e-mail,
phone, SMS), the page of a code that does not serve (410), and the scanner's query forwarded.

Pages are made here with every value escaped (``html.escape``); links carry only a scheme this
file sets (``mailto:``, ``tel:``, ``sms:``) with the value percent-encoded, so a code's content
can never become markup or a ``javascript:`` link.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from services.core.files import FileResult

# What a scanner is told when a code does not serve (the code's owner chose no fallback address).
REASONS = {
    "disabled": "This code has been paused by its owner.",
    "not_yet_valid": "This code is not active yet.",
    "expired": "This code has expired.",
    "limit_reached": "This code has reached its scan limit.",
    "static": "This code has no web address.",
}

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:32em;margin:2em auto;padding:0 1em;line-height:1.5}"
    "dt{font-weight:bold}dd{margin:0 0 .8em 0;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "a.button{display:inline-block;padding:.6em 1.2em;border:1px solid;border-radius:.3em;text-decoration:none}"
)


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


def page(title: str, body: str, status: int = 200) -> FileResult:
    doc = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>"
    )
    return FileResult(doc.encode(), "text/html; charset=utf-8", page=True, status=status)


def gone(reason: str) -> FileResult:
    """The 410 page of a code that does not serve and has no fallback address."""
    return page("QR code not available", f"<p>{html.escape(REASONS.get(reason, REASONS['disabled']))}</p>", 410)


def _dl(rows: list[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{html.escape(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f"<dl>{items}</dl>"


def _link(scheme: str, value: str, text: str) -> str:
    return f'<a class="button" href="{scheme}:{quote(value, safe="@+")}">{html.escape(text)}</a>'


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


def landing(qr_type: str, content: str, name: str, vcard_href: str) -> FileResult:
    """The landing page of a dynamic code that carries content instead of an address."""
    if qr_type == "vcard":
        f = vcard_fields(content)
        rows = [(label, html.escape(", ".join(f[k]))) for k, label in _VCARD if f.get(k)]
        rows += [("Phone", _link("tel", t, t)) for t in f.get("TEL", [])]
        rows += [("E-mail", _link("mailto", e, e)) for e in f.get("EMAIL", [])]
        title = f.get("FN", [name])[0] or name
        body = _dl(rows) + f'<p><a class="button" href="{html.escape(vcard_href)}" download>Save contact (.vcf)</a></p>'
        return page(title, body)
    if qr_type == "wifi":
        w = wifi_fields(content)
        rows = [("Network", html.escape(w.get("S", ""))), ("Security", html.escape(w.get("T", "") or "none"))]
        if w.get("P"):
            rows.append(("Password", f"<code>{html.escape(w['P'])}</code>"))
        return page("Wi-Fi network", _dl(rows))
    if qr_type == "email":
        addr = re.sub(r"^mailto:", "", content.strip(), flags=re.IGNORECASE).split("?")[0]
        return page("E-mail", _dl([("Address", html.escape(addr))]) + _link("mailto", addr, "Write an e-mail"))
    if qr_type == "phone":
        number = re.sub(r"^tel:", "", content.strip(), flags=re.IGNORECASE)
        return page("Phone", _dl([("Number", html.escape(number))]) + _link("tel", number, "Call"))
    if qr_type == "sms":
        # SMSTO:<number>:<message> (the common QR form) or sms:<number>
        rest = re.sub(r"^(smsto|sms):", "", content.strip(), flags=re.IGNORECASE)
        number, _, message = rest.partition(":")
        rows = [("Number", html.escape(number))] + ([("Message", html.escape(message))] if message else [])
        return page("Text message", _dl(rows) + _link("sms", number, "Send a text message"))
    return page(name, f"<pre>{html.escape(content)}</pre>")


_VCARD = (("ORG", "Organisation"), ("TITLE", "Title"), ("ADR", "Address"), ("URL", "Web"), ("NOTE", "Note"))
