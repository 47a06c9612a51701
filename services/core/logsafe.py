"""Tracebacks for logs without exception messages: a message may carry request data
(SQL parameters, e-mails, ticket text, keys), and no personal data or secret may reach a log."""

from __future__ import annotations

import traceback


def bare_traceback(exc: BaseException) -> str:
    """Where ``exc`` (and what caused it) was raised, with class names only."""
    parts: list[str] = []
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        tb = "".join(traceback.format_tb(cur.__traceback__))
        parts.append(f"Traceback (most recent call last):\n{tb}{type(cur).__module__}.{type(cur).__qualname__}")
        cur = cur.__cause__ or cur.__context__
    return "\n\nwhich was raised while handling:\n\n".join(parts)
