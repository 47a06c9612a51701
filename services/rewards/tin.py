"""Taxpayer identification numbers of a W-9 (DOMAIN.md §3), checked without outside calls.

SSN: area not 000, 666 or 900-999, group not 00, serial not 0000. An SSN-type TIN that starts
with 9 is an ITIN: digits 4-5 in 50-65, 70-88, 90-92 or 94-99. EIN: nine digits whose two-digit
prefix the IRS has issued (unissued: 00, 07-09, 17-19, 28-29, 49, 69-70, 78-79, 89, 96-97).
"""

from __future__ import annotations

import re

_UNISSUED_EIN = frozenset(
    {0, 7, 8, 9, 17, 18, 19, 28, 29, 49, 69, 70, 78, 79, 89, 96, 97},
)
_ITIN_GROUPS = [(50, 65), (70, 88), (90, 92), (94, 99)]


def normalise(tin: str, tin_type: str) -> str:
    """The nine digits of a TIN; ValueError (with the rule it breaks) when it is not valid."""
    shape = r"^\d{3}-?\d{2}-?\d{4}$" if tin_type == "ssn" else r"^\d{2}-?\d{7}$"
    if not re.match(shape, tin.strip()):
        form = "NNN-NN-NNNN" if tin_type == "ssn" else "NN-NNNNNNN"
        raise ValueError(f"a {tin_type.upper()} has nine digits ({form})")
    digits = re.sub(r"\D", "", tin)
    if tin_type == "ein":
        if int(digits[:2]) in _UNISSUED_EIN:
            raise ValueError(f"EIN prefix {digits[:2]} is not issued by the IRS")
        return digits
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    if digits[0] == "9":
        if not any(lo <= group <= hi for lo, hi in _ITIN_GROUPS):
            raise ValueError("an ITIN (starting with 9) has digits 4-5 in 50-65, 70-88, 90-92 or 94-99")
        return digits
    if area in (0, 666):
        raise ValueError(f"SSN area {digits[:3]} is never issued")
    if group == 0 or serial == 0:
        raise ValueError("SSN group 00 and serial 0000 are never issued")
    return digits


def masked(last4: str, tin_type: str) -> str:
    return f"***-**-{last4}" if tin_type == "ssn" else f"**-***{last4}"
