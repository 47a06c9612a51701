"""Scanner bursts kept out of PIN and password fields.

A keyboard-wedge scanner types a whole code in a few milliseconds and ends it with Enter (or Tab).
Landing in a password field, that code is "Password not correct" at best. ``BurstGuard`` watches one
field: keys arriving under ``MAX_GAP`` apart and ending in Enter/Tab are a burst; the burst's
characters are taken out again and the end key is eaten, unless the field takes a badge right now.

Speed alone does not make a scan: a password manager's auto-type (KeePassXC types 25 ms a key) is
as fast. What tells them apart is what was typed: ``looks_scanned`` knows the shapes of the codes a
station scans (a GTIN/EAN of digits, a label code such as ``KIT-DEMO000008``); a fast run of any
other text in a password field is a password and goes through. A PIN field passes
``looks_scanned=lambda _text: True``: every fast run there is a scan, and the field is emptied
(``clear=True``), because a scanner's first key may come in slowly and stay behind otherwise.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit

MAX_GAP = 0.03  # seconds between keys of a scanner burst; people type at 100+ ms a key
MIN_KEYS = 4  # shorter runs are a person's quick fingers, not a scan
END_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab)
# What the station's scanners read: a GTIN/EAN/UPC (8-14 digits) or one of the platform's label codes
# (upper-case prefix, a dash, upper-case letters and digits: KIT-DEMO000008, LOC-A-01-02, TR-5F570155).
_CODE = re.compile(r"\d{8,14}|[A-Z]{2,6}(-[A-Z0-9]+)+")


def looks_scanned(text: str) -> bool:
    """True for text shaped like a code a scanner reads; a password rarely is (mixed case, symbols)."""
    return bool(_CODE.fullmatch(text))


class BurstGuard(QObject):
    """Install on a PIN or password field. ``allow()`` true: a burst is a badge and goes through."""

    ignored = Signal()  # a burst was taken out of the field

    def __init__(
        self,
        field: QLineEdit,
        allow: Callable[[], bool] = lambda: False,
        *,
        say: Callable[[str], None],
        message: str = "Scan ignored: unlock first.",
        is_scan: Callable[[str], bool] = looks_scanned,
        clear: bool = False,
    ) -> None:
        super().__init__(field)
        self.field, self.allow, self.say, self.message = field, allow, say, message
        self.is_scan, self.clear = is_scan, clear
        self._stamps: list[float] = []
        self.clock: Callable[[], float] = time.monotonic  # tests give a clock of their own
        self._before = ""  # the field's text before the current run of fast keys
        field.installEventFilter(self)  # installed last: runs before the field's other filters

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        now = self.clock()
        if event.key() in END_KEYS:
            burst = len(self._stamps) >= MIN_KEYS and now - self._stamps[-1] < MAX_GAP
            self._stamps.clear()
            typed = self.field.text()
            run = typed[len(self._before) :] if typed.startswith(self._before) else typed
            if not burst or self.allow() or not self.is_scan(run):
                return False
            self.field.setText("" if self.clear else self._before)
            self.say(self.message)
            self.ignored.emit()
            return True
        if event.text() and event.text().isprintable():
            if not self._stamps or now - self._stamps[-1] > MAX_GAP:
                self._before, self._stamps = self.field.text(), []
            self._stamps.append(now)
        else:
            self._stamps.clear()
        return False
