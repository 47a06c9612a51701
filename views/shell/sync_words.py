"""The sync words (``services.sync.words``) in the person's language.

``services.sync.words`` says every sentence through a ``Voice``; this one asks Qt's translation
(context ``SyncWords``) when a sentence is made, so it is right in English and German alike, and
writes numbers, times and days the locale's way. ``install`` is called when the shell's sync
controller is imported (before any pill is drawn). ``templates`` lists every template for lupdate;
tests/views/test_i18n_words.py fails when words.py says one it does not list.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QTime

from services.sync import words
from views.i18n import _locale, fmt_number

CONTEXT = "SyncWords"


def say(text: str, n: int | None = None) -> str:
    if n is None:
        return QCoreApplication.translate(CONTEXT, text)
    said = QCoreApplication.translate(CONTEXT, text, "", n)
    # No translation (English, or no translator installed): Qt keeps "(s)"; English picks the form.
    return words.english(text, n) if said == text.replace("%n", str(n)) else said


def time(local: datetime) -> str:
    """ "10:42": 24 hours in both languages (the status bar is narrow; no AM/PM)."""
    return _locale().toString(QTime(local.hour, local.minute), "HH:mm")


def day(local: datetime) -> str:
    """ "Tue 3 Mar 10:42" / "Di. 3. März 10:42": the form is part of the translation."""
    when = QDateTime(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
    return _locale().toString(when, QCoreApplication.translate("SyncWords", "ddd d MMM HH:mm"))


def state(value: str) -> str:
    from views.wording import state_word

    return state_word(value)


def reason(message: str) -> str:
    from views.wording import service_message

    return service_message(message)


VOICE = words.Voice(say=say, number=fmt_number, time=time, day=day, state=state, reason=reason)


def install() -> None:
    words.set_voice(VOICE)


def templates() -> None:  # pragma: no cover - never called: lupdate reads the calls
    """Every template of ``services.sync.words``, for lupdate (a count, any number literal: lupdate marks a plural only so)."""
    QCoreApplication.translate("SyncWords", "%n change(s) waiting", "", 2)
    QCoreApplication.translate("SyncWords", "%n fetched", "", 2)
    QCoreApplication.translate("SyncWords", "%n removed", "", 2)
    QCoreApplication.translate("SyncWords", "%n sync issue(s)", "", 2)
    QCoreApplication.translate("SyncWords", "Downloading everything again… {done} of {total}")
    QCoreApplication.translate("SyncWords", "Not registered with the platform")
    QCoreApplication.translate("SyncWords", "Note on ticket")
    QCoreApplication.translate("SyncWords", "Offline · {waiting}")
    QCoreApplication.translate("SyncWords", "Online · {waiting}")
    QCoreApplication.translate("SyncWords", "Records differed from the platform's and were repaired: {tables}")
    QCoreApplication.translate(
        "SyncWords", "Records differed from the platform's at {when} and were repaired: {tables}"
    )
    QCoreApplication.translate("SyncWords", "Sync error: {message}")
    QCoreApplication.translate("SyncWords", "Synced {when} · {waiting}")
    QCoreApplication.translate("SyncWords", "Syncing… %n change(s) to send", "", 2)
    QCoreApplication.translate("SyncWords", "Syncing… {done} of {total}")
    QCoreApplication.translate("SyncWords", "Syncing…")
    QCoreApplication.translate("SyncWords", "The platform refused it: {reason}")
    QCoreApplication.translate("SyncWords", "code {code}")
    QCoreApplication.translate("SyncWords", "never")
    QCoreApplication.translate("SyncWords", "no reason given")
    QCoreApplication.translate("SyncWords", "nothing waiting")
    QCoreApplication.translate("SyncWords", "on the platform it is now {state}")
    QCoreApplication.translate("SyncWords", "unknown")
    QCoreApplication.translate("SyncWords", "… and %n more change(s)", "", 2)
    QCoreApplication.translate("SyncWords", "ddd d MMM HH:mm")
