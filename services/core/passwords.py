"""Password hashing and checking (argon2), apart from the rest of auth.

Its own module so that a station's sign-in check before the service layer is loaded
(services/core/local_signin.py) checks a password exactly as ``auth.authenticate_password``
does, without importing SQLAlchemy and the table declarations that ``auth`` needs.
"""

from __future__ import annotations

import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


@functools.cache
def dummy_hash() -> str:
    """A hash to check a password against when there is no account, so both failures take as long.

    Made on first use, not at import: one argon2 hash costs 0.1-0.5 s of CPU, and every station
    imports this module while its sign-in window is already waiting for the service layer."""
    return _hasher.hash("not-a-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
