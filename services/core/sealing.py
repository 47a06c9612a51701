"""Secrets the platform must read back (webhook signing secrets), sealed at rest.

API keys and passwords are hashed: nobody needs them back. A webhook secret is
needed in clear to sign each delivery, so it is stored encrypted (Fernet:
AES-128-CBC + HMAC-SHA256) under a key derived from ``PLATFORM_SECRET_KEY``:
a copy of the database alone does not reveal it.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken

PREFIX = "sealed:v1:"


@lru_cache(maxsize=8)
def _fernet(secret_key: str) -> Fernet:
    digest = hashlib.sha256(b"platform-sealing-v1:" + secret_key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(secret_key: str, plaintext: str) -> str:
    return PREFIX + _fernet(secret_key).encrypt(plaintext.encode()).decode()


def unseal(secret_key: str, value: str) -> str:
    """The clear value; a value stored before sealing existed is returned as it is."""
    if not value.startswith(PREFIX):
        return value
    try:
        return _fernet(secret_key).decrypt(value[len(PREFIX) :].encode()).decode()
    except InvalidToken as exc:
        raise ValueError("sealed value does not open with this PLATFORM_SECRET_KEY") from exc


def is_sealed(value: str | None) -> bool:
    return bool(value) and str(value).startswith(PREFIX)
