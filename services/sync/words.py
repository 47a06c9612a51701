"""Sync in people's words: the state ("Offline · 3 changes waiting"), a change ("Ship order SO-1021")
and why the platform refused it. One place for the desktop (status bar, kiosk, Sync panel) and the
headless ``python -m app sync`` alike; no Qt here.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.sync.engine import SyncStatus
    from services.sync.station import Issue

STATUS_MAX_CHARS = 70  # the status bar elides longer error messages; the tooltip and the panel say them in full

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def waiting_text(n: int) -> str:
    return "nothing waiting" if n <= 0 else f"{plural(n, 'change')} waiting"


def issues_text(n: int) -> str:
    return plural(n, "sync issue")


def clock_text(when: datetime | None, now: datetime | None = None) -> str:
    """Local time: "10:42" today, "Tue 3 Mar 10:42" before."""
    if when is None:
        return "never"
    local = when.astimezone() if when.tzinfo else when
    today = (now or datetime.now().astimezone()).date()
    return f"{local:%H:%M}" if local.date() == today else f"{local:%a} {local.day} {local:%b %H:%M}"


def status_text(status: SyncStatus, pending: int | None = None) -> tuple[str, str]:
    """The indicator's words and tone (ok, busy, offline, error, neutral) for an engine status.

    ``pending``: a fresher outbox count than the engine's (a change committed since its last round).
    """
    n = status.pending if pending is None else pending
    if status.state == "unlinked":
        return "Not registered with the platform", "neutral"
    if status.state == "offline":
        return offline_text(n), "offline"
    if status.state == "syncing":
        if status.resyncing:
            return f"Downloading everything again… {status.pulled:,} of {status.to_pull:,}", "busy"
        if status.to_pull > 0:
            return f"Syncing… {status.pulled:,} of {status.to_pull:,}", "busy"
        return (f"Syncing… {plural(n, 'change')} to send" if n > 0 else "Syncing…"), "busy"
    if status.state == "error":
        return f"Sync error: {status.message or 'unknown'}", "error"
    return f"Synced {clock_text(status.last_sync_at)} · {waiting_text(n)}", "ok"


def difference_text(difference: dict[str, tuple[int, int]], at: datetime | None = None) -> str:
    """A difference a sync found between this station's records and the platform's (and
    repaired), by table: empty when there was none."""
    if not difference:
        return ""
    parts = []
    for table, (fetched, removed) in sorted(difference.items()):
        said = [x for x in (fetched and f"{fetched} fetched", removed and f"{removed} removed") if x]
        parts.append(f"{table} ({', '.join(said)})")
    when = f" at {clock_text(at)}" if at is not None else ""
    return f"Records differed from the platform's{when} and were repaired: " + "; ".join(parts)


def offline_text(n: int) -> str:
    return f"Offline · {waiting_text(n)}"


def reachable_text(n: int) -> str:
    """Before sync runs (nobody signed in yet) while the platform answers its health check."""
    return f"Online · {waiting_text(n)}"


def elide(text: str, limit: int = STATUS_MAX_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe(issue: Issue, label: str | None = None) -> str:
    """What the change was, as its declaration says it: "Reply on ticket TKT-2026-000042",
    "Ship order 0e53b15f".

    ``label``: the record's number where it could be read; else the start of its id.
    """
    from services.core.commands import REGISTRY
    from services.core.records import words_for

    op = REGISTRY.get(issue.command)
    if issue.command == "support.messages.create" and issue.details.get("internal"):
        words = "Note on ticket"
    elif op is not None:
        words = words_for(op, {"operation": issue.details.get("action") or ""})
    else:  # a change of a use case this build no longer declares
        words = issue.command.replace(".", " ").replace("_", " ").capitalize()
    ids = _UUID.findall(issue.path)
    return f"{words} {label or ids[-1][:8]}" if ids else words


def record_label(ctx: Any, issue: Issue) -> str | None:
    """Worker threads: the number of the record a change was about (None where it cannot be read)."""
    from services.core.commands import REGISTRY
    from services.core.records import record_label as label_of
    from services.core.records import record_of_call

    op = REGISTRY.get(issue.command)
    found = record_of_call(op, issue.path) if op is not None else None
    return label_of(ctx, *found) if found else None


def why_text(issue: Issue) -> str:
    """Why the platform refused it, and for a conflict what the record is there now."""
    message = issue.message or "no reason given"
    lines = [f"The platform refused it: {message[0].upper() + message[1:]}"]
    extra = [f"code {issue.code}"] if issue.code else []
    current = issue.details.get("current_state")
    if issue.status == "conflict" and current:
        extra.append(f"on the platform it is now {str(current).replace('_', ' ')}")
    if extra:
        joined = " · ".join(extra)
        lines.append(joined[0].upper() + joined[1:] + ".")
    return "\n".join(lines)
