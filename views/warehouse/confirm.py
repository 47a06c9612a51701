"""Questions a scanner can answer: "Leave a part-picked order?", "Ship this order?", "Receive
these items?" and every other irreversible step of the warehouse and stock-count screens.

The packer's hands are on the scanner: scanning the code again while the question is open
confirms (as the docs and the kiosk banner say), and the history logs it. Without this the
scanner's Enter pressed the dialog's default "No" and the scan went nowhere, unlogged. Keys that
end in Enter after some characters are a scan; a bare Enter or Esc is the keyboard's answer as
usual (No is the default, so a stray Enter moves nothing; Esc is No).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QMessageBox, QWidget

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab)


class _ScanAnswers(QObject):
    """Event filter on the question: a scan of one of ``confirm`` is Yes; another scan is logged
    and ignored (the question stays)."""

    def __init__(
        self, box: QMessageBox, confirm: Iterable[str], log: Callable[[str, str], None], keys: Iterable[str] = ()
    ) -> None:
        super().__init__(box)
        self.box, self.confirm, self.log = box, {c.strip().upper() for c in confirm if c}, log
        # The key that asked ("F5"), pressed again, says yes as its scan would.
        self.keys = {getattr(Qt.Key, f"Key_{k}"): k for k in keys}
        self.typed = ""
        box.installEventFilter(self)
        for child in box.findChildren(QWidget):  # the buttons have the focus, not the box
            child.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        if event.key() in self.keys and not self.typed:
            self.log(self.keys[event.key()], QCoreApplication.translate("confirm", "confirmed by pressing it again"))
            self.box.done(QMessageBox.StandardButton.Yes)
            return True
        if event.key() in _ENTER and self.typed:
            code, self.typed = self.typed.strip(), ""
            if code.upper() in self.confirm:
                self.log(code, QCoreApplication.translate("confirm", "confirmed by scanning again"))
                self.box.done(QMessageBox.StandardButton.Yes)
            else:
                self.log(code, QCoreApplication.translate("confirm", "✗ ignored: answer the question first"))
            return True
        text = event.text()
        if text and text.isprintable() and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
            self.typed += text
            return True  # a scanned character never presses a button's mnemonic
        return False


def ask_leave(
    parent: QWidget,
    current: str,
    part: tuple[int, int],
    target: str,
    confirm: Iterable[str],
    log: Callable[[str, str], None],
    answered: Callable[[bool], None],
) -> QMessageBox:
    """Opens the question window-modal; ``answered(True)`` to leave ``current`` for ``target``."""
    return ask_first(
        parent,
        "leave-order",
        QCoreApplication.translate("confirm", "Leave a part-picked order?"),
        QCoreApplication.translate(
            "confirm",
            "{current} is part-picked: {part[0]} of {part[1]} items scanned.\nLeave it and open {target}? The scans stay on {current}. (Scanning {target} again leaves it.)",
        ).format(current=current, part=part, target=target),
        confirm,
        log,
        answered,
        QMessageBox.Icon.Warning,
    )


def ask_first(
    parent: QWidget,
    name: str,
    title: str,
    text: str,
    confirm: Iterable[str],
    log: Callable[[str, str], None],
    answered: Callable[[bool], None],
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
    keys: Iterable[str] = (),
) -> QMessageBox:
    """Opens the question window-modal (object name ``name``); ``answered(True)`` on Yes, on a
    scan of one of ``confirm`` or on one of ``keys`` (the key that asked, "F5") pressed again;
    ``answered(False)`` on No, Esc or closing it."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setObjectName(name)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setEscapeButton(QMessageBox.StandardButton.No)
    box.scan_answers = _ScanAnswers(box, confirm, log, keys)  # type: ignore[attr-defined]
    box.finished.connect(lambda r: answered(r == QMessageBox.StandardButton.Yes))
    box.open()
    return box
