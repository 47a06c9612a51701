"""GS1 mod-10 check digits (DOMAIN.md): tracking numbers, pick lists, item barcodes, GTINs, QR barcodes.

Weights 3, 1, 3, ... from the rightmost data digit; check = (10 - sum mod 10) mod 10.
"""

from __future__ import annotations


def gs1_check_digit(digits: str) -> int:
    """The check digit of ``digits`` (the data digits, without their check digit)."""
    if not digits.isdigit():
        raise ValueError("digits only")
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return (10 - total % 10) % 10


def gs1_check_char(digits: str) -> str:
    """The check digit as the character printed after ``digits``."""
    return str(gs1_check_digit(digits))


def with_check_digit(digits: str) -> str:
    return digits + gs1_check_char(digits)


def has_valid_check_digit(code: str) -> bool:
    return len(code) >= 2 and code.isdigit() and gs1_check_digit(code[:-1]) == int(code[-1])
