"""Check digits (GS1 mod 10, DOMAIN.md) for tracking numbers, pick-list and demo item barcodes."""

from __future__ import annotations


def gs1_check_digit(digits: str) -> int:
    """Weights 3,1,3,... from the rightmost data digit; check = (10 - sum mod 10) mod 10."""
    if not digits.isdigit():
        raise ValueError("digits only")
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return (10 - total % 10) % 10


def with_check_digit(digits: str) -> str:
    return digits + str(gs1_check_digit(digits))


def has_valid_check_digit(code: str) -> bool:
    return len(code) >= 2 and code.isdigit() and gs1_check_digit(code[:-1]) == int(code[-1])
