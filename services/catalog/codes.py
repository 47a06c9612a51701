"""The checks Catalog's input must pass: GS1 GTINs (DOMAIN §7) and BCP 47 language tags (RFC 5646)."""

from __future__ import annotations

import re

from services.core.checkdigits import gs1_check_digit

GTIN_LENGTHS = (8, 12, 13, 14)  # GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN), GTIN-14


def gtin_problem(code: str) -> str | None:
    """Why ``code`` is not a GTIN, or None: digits only, 8/12/13/14 long, the GS1 mod-10 check digit."""
    if not code.isdigit() or not code.isascii():
        return "a GTIN has digits only"
    if len(code) not in GTIN_LENGTHS:
        return "a GTIN has 8, 12, 13 or 14 digits"
    expected = gs1_check_digit(code[:-1])
    if int(code[-1]) != expected:
        return f"wrong check digit: {code[-1]} given, {expected} expected (GS1 mod 10)"
    return None


def check_gtin(code: str) -> str:
    why = gtin_problem(code)
    if why:
        raise ValueError(why)
    return code


# language (2-3 letters with up to three extlangs, or 4-8 letters), script, region, variants,
# extensions and private use, as RFC 5646 section 2.1 writes them; case-insensitive.
_BCP47 = re.compile(
    r"^(?P<language>[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})"
    r"(?:-(?P<script>[a-z]{4}))?"
    r"(?:-(?P<region>[a-z]{2}|[0-9]{3}))?"
    r"(?P<variants>(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)"
    r"(?P<extensions>(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*)"
    r"(?:-x(?:-[a-z0-9]{1,8})+)?$",
    re.IGNORECASE,
)


def canonical_language(tag: str) -> str:
    """A BCP 47 tag in its conventional case (``zh-hant-tw`` -> ``zh-Hant-TW``); ValueError when malformed."""
    tag = tag.strip().replace("_", "-") if isinstance(tag, str) else tag
    if not isinstance(tag, str) or len(tag) > 35 or not _BCP47.match(tag):
        raise ValueError(f"{tag!r} is not a BCP 47 language tag (e.g. en, en-US, zh-Hant-TW)")
    parts = tag.split("-")
    out = [parts[0].lower()]
    private = False
    for p in parts[1:]:
        if private or len(p) == 1:
            private = private or p.lower() == "x"
            out.append(p.lower())
        elif len(p) == 4 and p.isalpha() and len(out) == 1 + sum(1 for q in out[1:] if len(q) == 3 and q.isalpha()):
            out.append(p.title())  # script
        elif len(p) == 2 and p.isalpha() or len(p) == 3 and p.isdigit():
            out.append(p.upper())  # region
        else:
            out.append(p.lower())
    return "-".join(out)


def fallbacks(tag: str, default: str) -> list[str]:
    """RFC 4647 lookup by truncation, then the default: zh-Hant-TW -> zh-Hant -> zh -> default."""
    chain: list[str] = []
    parts = tag.split("-")
    while parts:
        chain.append("-".join(parts))
        parts = parts[:-1]
        while parts and len(parts[-1]) == 1:  # never end on a singleton (RFC 4647 3.4)
            parts = parts[:-1]
    if default not in chain:
        chain.append(default)
    return chain
