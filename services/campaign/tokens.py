"""Signed tokens of the public routes (unsubscribe, open, click): not guessable, not stored.

A token is ``<message id>.<first 32 hex of HMAC-SHA256(secret, purpose:id)>``: the platform
checks it without a table of tokens, and one message's token opens nothing else.
"""

from __future__ import annotations

import hmac

from services.core.context import Runtime
from services.core.signing import PREFIX, sign


def _key(rt: Runtime) -> bytes:
    k = rt.secret_key
    return (k.encode() if isinstance(k, str) else k) + b"/campaign-links"


def make(rt: Runtime, purpose: str, message_id: str) -> str:
    return f"{message_id}.{sign(_key(rt), f'{purpose}:{message_id}'.encode())[len(PREFIX) : len(PREFIX) + 32]}"


def read(rt: Runtime, purpose: str, token: str) -> str | None:
    """The message id the token was made for, or None when it was not made here."""
    message_id, _, mac = token.partition(".")
    if not message_id or len(message_id) > 36 or len(mac) != 32:
        return None
    expected = make(rt, purpose, message_id).partition(".")[2]
    return message_id if hmac.compare_digest(mac, expected) else None
