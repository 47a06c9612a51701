"""Sync in people's words: the state ("Offline · 3 changes waiting"), a change ("Ship order SO-1021")
and why the platform refused it. One place for the desktop (status bar, kiosk, Sync panel) and the
headless ``python -m app sync`` alike; no Qt here.

Every sentence is a template said through ``say`` (``{name}`` placeholders, ``%n`` for a count), so
the desktop can put them in the person's language: ``views.shell.sync_words`` installs Qt's
translation with ``set_voice`` (context ``SyncWords``; lupdate reads the templates from there). The
API and the command line stay English: the default voice is the English itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.sync.engine import SyncStatus
    from services.sync.station import Issue

STATUS_MAX_CHARS = 70  # the status bar elides longer error messages; the tooltip and the panel say them in full

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def english(text: str, n: int | None = None) -> str:
    """The English voice: the template itself; a count fills ``%n`` and picks "(s)" by the number."""
    if n is None:
        return text
    return text.replace("%n", f"{n:,}").replace("(s)", "" if n == 1 else "s")


def _english_number(n: int) -> str:
    return f"{n:,}"


def _english_day(local: datetime) -> str:
    return f"{local:%a} {local.day} {local:%b %H:%M}"


def _english_time(local: datetime) -> str:
    return f"{local:%H:%M}"


def _english_state(state: str) -> str:
    return state.replace("_", " ")


def _as_is(text: str) -> str:
    return text


@dataclass
class Voice:
    """How the words are said: a template's translation, a number, a time today, a day and time, a
    record's state ("picked")."""

    say: Callable[[str, int | None], str] = english
    number: Callable[[int], str] = _english_number
    time: Callable[[datetime], str] = _english_time
    day: Callable[[datetime], str] = _english_day
    state: Callable[[str], str] = _english_state
    reason: Callable[[str], str] = _as_is  # the platform's (English) reason, as the person reads it


VOICE = Voice()


def set_voice(voice: Voice | None = None) -> None:
    """The desktop says the words in the person's language; ``set_voice()`` goes back to English."""
    global VOICE
    VOICE = voice or Voice()


def _(text: str, n: int | None = None, **values: object) -> str:
    said = VOICE.say(text, n)
    return said.format(**values) if values else said


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def waiting_text(n: int) -> str:
    return _("nothing waiting") if n <= 0 else _("%n change(s) waiting", n)


def more_text(n: int) -> str:
    return _("… and %n more change(s)", n)


def issues_text(n: int) -> str:
    return _("%n sync issue(s)", n)


def clock_text(when: datetime | None, now: datetime | None = None) -> str:
    """Local time: "10:42" today, "Tue 3 Mar 10:42" before."""
    if when is None:
        return _("never")
    local = when.astimezone() if when.tzinfo else when
    today = (now or datetime.now().astimezone()).date()
    return VOICE.time(local) if local.date() == today else VOICE.day(local)


def status_text(status: SyncStatus, pending: int | None = None) -> tuple[str, str]:
    """The indicator's words and tone (ok, busy, offline, error, neutral) for an engine status.

    ``pending``: a fresher outbox count than the engine's (a change committed since its last round).
    """
    n = status.pending if pending is None else pending
    if status.state == "unlinked":
        return _("Not registered with the platform"), "neutral"
    if status.state == "offline":
        return offline_text(n), "offline"
    if status.state == "syncing":
        done, total = VOICE.number(status.pulled), VOICE.number(status.to_pull)
        if status.resyncing:
            return _("Downloading everything again… {done} of {total}", done=done, total=total), "busy"
        if status.to_pull > 0:
            return _("Syncing… {done} of {total}", done=done, total=total), "busy"
        return (_("Syncing… %n change(s) to send", n) if n > 0 else _("Syncing…")), "busy"
    if status.state == "error":
        return _("Sync error: {message}", message=status.message or _("unknown")), "error"
    return _("Synced {when} · {waiting}", when=clock_text(status.last_sync_at), waiting=waiting_text(n)), "ok"


def difference_text(difference: dict[str, tuple[int, int]], at: datetime | None = None) -> str:
    """A difference a sync found between this station's records and the platform's (and
    repaired), by table: empty when there was none."""
    if not difference:
        return ""
    parts = []
    for table, (fetched, removed) in sorted(difference.items()):
        said = [x for x in (fetched and _("%n fetched", fetched), removed and _("%n removed", removed)) if x]
        parts.append(f"{table} ({', '.join(said)})")
    if at is not None:
        when, tables = clock_text(at), "; ".join(parts)
        return _("Records differed from the platform's at {when} and were repaired: {tables}", when=when, tables=tables)
    return _("Records differed from the platform's and were repaired: {tables}", tables="; ".join(parts))


def offline_text(n: int) -> str:
    return _("Offline · {waiting}", waiting=waiting_text(n))


def reachable_text(n: int) -> str:
    """Before sync runs (nobody signed in yet) while the platform answers its health check."""
    return _("Online · {waiting}", waiting=waiting_text(n))


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
        words = _("Note on ticket")
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
    message = VOICE.reason(issue.message) if issue.message else _("no reason given")
    lines = [_("The platform refused it: {reason}", reason=message[0].upper() + message[1:])]
    extra = [_("code {code}", code=issue.code)] if issue.code else []
    current = issue.details.get("current_state")
    if issue.status == "conflict" and current:
        extra.append(_("on the platform it is now {state}", state=VOICE.state(str(current))))
    if extra:
        joined = " · ".join(extra)
        lines.append(joined[0].upper() + joined[1:] + ".")
    return "\n".join(lines)
