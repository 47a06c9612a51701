"""The one HMAC signer and the one token hash.

Everything the platform signs (webhook deliveries, station requests and
outbox entries, event rows, inbound webhook checks) is ``sha256=`` followed by
the hex HMAC-SHA256; every secret kept for lookup (API keys, access tokens) is
stored as its SHA-256 hex digest, never in clear.
"""

from __future__ import annotations

import hashlib
import hmac

PREFIX = "sha256="


def sign(key: bytes | str, message: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of message>``."""
    k = key.encode() if isinstance(key, str) else key
    # hmac.digest: the one-shot C path, the same digest as hmac.new(...).hexdigest() without
    # building an HMAC object (every outbox row and event is signed: issue 38's write path).
    return PREFIX + hmac.digest(k, message, "sha256").hex()


def verify(key: bytes | str, message: bytes, given: str) -> bool:
    """Constant-time check of a signature, with or without its ``sha256=`` prefix."""
    expected = sign(key, message)
    given = given.strip()
    return hmac.compare_digest(given if given.startswith(PREFIX) else PREFIX + given, expected)


def token_hash(token: str) -> str:
    """How a secret is kept for lookup: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()
