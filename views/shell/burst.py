"""Scanner bursts kept out of PIN and password fields.

A keyboard-wedge scanner types a whole code in a few milliseconds and ends it with Enter (or Tab).
Landing in a password field, that code is "Password not correct" at best. ``BurstGuard`` watches one
field: keys arriving under ``MAX_GAP`` apart and ending in Enter/Tab are a burst; the burst's
characters are taken out again and the end key is eaten, unless the field takes a badge right now.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit

MAX_GAP = 0.03  # seconds between keys of a scanner burst; people type at 100+ ms a key
MIN_KEYS = 4  # shorter runs are a person's quick fingers, not a scan
END_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab)


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
    ) -> None:
        super().__init__(field)
        self.field, self.allow, self.say, self.message = field, allow, say, message
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
            if not burst or self.allow():
                return False
            self.field.setText(self._before)
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
