"""The scanner input: a keyboard-wedge scanner types fast and ends with a suffix key.

A scan is told apart from typing by the speed of the keystrokes (a scanner
sends a burst, a person types at 100+ ms a key) and ends with the configured
suffix (Enter, Tab) or, with no suffix, with a short pause after a burst.
Both are accepted; the source is reported so the history can show it.
Function keys and Escape are hotkeys, handled here so they work whatever the
focus chain looks like on a kiosk; the input claims them (ShortcutOverride) so no
window shortcut can take them first. Ctrl+Z takes the last scan back; digits
followed by ``*`` set the quantity of the next scan (``5*`` then the barcode).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QWidget

SCANNER_MAX_GAP = 0.05  # seconds between keys of a scanner burst
IDLE_END_MS = 120  # with no suffix, this pause after a burst ends the scan


class ScanInput(QLineEdit):
    scanned = Signal(str, str)  # (code, "scanner" | "keyboard")
    hotkey = Signal(int)  # Qt.Key of F1-F12 or Escape
    undo_scan = Signal()  # Ctrl+Z: take the last scan back
    quantity = Signal(int)  # "5*": the next scan counts 5 units

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.suffix = "enter"
        self._stamps: list[float] = []
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.timeout.connect(self._idle_end)
        self.setPlaceholderText(self.tr("Scan here"))
        self.setObjectName("scanInput")
        self.setAccessibleName("Scanner input")

    def source(self) -> str:
        gaps = [b - a for a, b in zip(self._stamps, self._stamps[1:], strict=False)]
        fast = len(self._stamps) >= 3 and max(gaps, default=1.0) < SCANNER_MAX_GAP
        return "scanner" if fast else "keyboard"

    def _submit(self) -> None:
        code = self.text().strip()
        source = self.source()
        self.clear()
        self._stamps.clear()
        if code:
            self.scanned.emit(code, source)

    def _idle_end(self) -> None:
        if self.suffix == "none" and self.source() == "scanner":
            self._submit()

    @staticmethod
    def _ours(e: QKeyEvent) -> bool:
        key = e.key()
        return (
            Qt.Key.Key_F1 <= key <= Qt.Key.Key_F12
            or key == Qt.Key.Key_Escape
            or e.matches(QKeySequence.StandardKey.Undo)
        )

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) and self._ours(e):
            e.accept()  # the workspace's keys win over any window or application shortcut
            return True
        # Tab never reaches keyPressEvent (focus navigation): catch it here when it is the suffix.
        is_tab = isinstance(e, QKeyEvent) and e.type() == QEvent.Type.KeyPress and e.key() == Qt.Key.Key_Tab
        if is_tab and self.suffix == "tab":
            self._submit()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = e.key()
        if Qt.Key.Key_F1 <= key <= Qt.Key.Key_F12 or key == Qt.Key.Key_Escape:
            self.hotkey.emit(int(key))
            return
        if e.matches(QKeySequence.StandardKey.Undo):
            self.undo_scan.emit()
            return
        if e.text() == "*" and self.text().strip().isdigit() and len(self.text().strip()) <= 4:
            n = int(self.text().strip())
            self.clear()
            self._stamps.clear()
            self.quantity.emit(n)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._submit()
            return
        if e.text() and e.text().isprintable():
            self._stamps.append(time.monotonic())
            if self.suffix == "none":
                self._idle.start(IDLE_END_MS)
        super().keyPressEvent(e)
