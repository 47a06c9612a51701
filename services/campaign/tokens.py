"""Signed tokens of the public routes (unsubscribe, open, click): not guessable, not stored.

A token is ``<message id>.<first 32 hex of HMAC-SHA256(secret, purpose:id)>``: the platform
checks it without a table of tokens, and one message's token opens nothing else. The MAC is
``services.core.signing.sign``'s, computed in one call (``hmac.digest``, OpenSSL's one-shot
HMAC) with the key derived once per send: a send makes four per recipient.
"""

from __future__ import annotations

import hmac

from services.core.context import Runtime


def key(rt: Runtime) -> bytes:
    k = rt.secret_key
    return (k.encode() if isinstance(k, str) else k) + b"/campaign-links"


def make_with(k: bytes, purpose: str, message_id: str) -> str:
    return f"{message_id}.{hmac.digest(k, f'{purpose}:{message_id}'.encode(), 'sha256').hex()[:32]}"


def make(rt: Runtime, purpose: str, message_id: str) -> str:
    return make_with(key(rt), purpose, message_id)


def read(rt: Runtime, purpose: str, token: str) -> str | None:
    """The message id the token was made for, or None when it was not made here."""
    message_id, _, mac = token.partition(".")
    if not message_id or len(message_id) > 36 or len(mac) != 32:
        return None
    expected = make(rt, purpose, message_id).partition(".")[2]
    return message_id if hmac.compare_digest(mac, expected) else None
