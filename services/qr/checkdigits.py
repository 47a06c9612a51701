"""Check digits of the barcodes (GS1 mod 10 for EAN-13, EAN-8, UPC-A and ITF-14: services.core.checkdigits)."""

from __future__ import annotations

from services.core.checkdigits import gs1_check_char
from services.core.errors import ValidationFailed

# Full length with the check digit.
GS1_LENGTH = {"ean13": 13, "ean8": 8, "upca": 12, "itf14": 14}
CODE39_CHARS = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")


def normalise(kind: str, value: str) -> str:
    """The value with its check digit: computed when left out, verified when given (400 when wrong)."""
    v = value.strip()
    if kind in GS1_LENGTH:
        full = GS1_LENGTH[kind]
        if not v.isdigit() or len(v) not in (full - 1, full):
            raise ValidationFailed(
                f"{kind} takes {full - 1} digits (or {full} with the check digit)", {"value": value, "type": kind}
            )
        if len(v) == full - 1:
            return v + gs1_check_char(v)
        expected = gs1_check_char(v[:-1])
        if v[-1] != expected:
            raise ValidationFailed("wrong check digit", {"value": value, "expected": expected, "given": v[-1]})
        return v
    if kind == "code39":
        v = v.upper()
        bad = sorted(set(v) - CODE39_CHARS)
        if bad:
            raise ValidationFailed("characters code39 cannot carry", {"characters": bad})
        return v
    # code128: printable ASCII.
    if not all(32 <= ord(ch) < 127 for ch in v):
        raise ValidationFailed("code128 takes printable ASCII", {"value": value})
    return v
