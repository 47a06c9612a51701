"""Kiosk parts: the idle watcher and the admin PIN dialog."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QLayout, QLineEdit, QVBoxLayout, QWidget

from views.shell.burst import BurstGuard
from views.shell.forms import with_error
from views.shell.theme import set_role

_INPUT_EVENTS = {
    QEvent.Type.KeyPress,
    QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseMove,
    QEvent.Type.Wheel,
    QEvent.Type.TouchBegin,
    QEvent.Type.TouchUpdate,
}


class IdleWatcher(QObject):
    """Emits ``idle`` after ``timeout_ms`` without keyboard, mouse or touch input anywhere in the app."""

    idle = Signal()

    def __init__(self, timeout_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(timeout_ms)
        self.timer.timeout.connect(self.idle.emit)
        self._installed = False

    def start(self) -> None:
        app = QApplication.instance()
        if app is not None and not self._installed:
            app.installEventFilter(self)
            self._installed = True
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        app = QApplication.instance()
        if app is not None and self._installed:
            app.removeEventFilter(self)
            self._installed = False

    def set_timeout_ms(self, ms: int) -> None:
        self.timer.setInterval(ms)
        if self.timer.isActive():
            self.timer.start()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() in _INPUT_EVENTS and self.timer.isActive():
            self.timer.start()  # restart: activity
        return False


class PinDialog(QDialog):
    """Asks for the admin PIN; ``check`` decides. Stays open on a wrong PIN and says so."""

    def __init__(self, purpose: str, check: Callable[[str], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Admin PIN"))
        self.setObjectName("pin-dialog")
        self.setAccessibleName("Admin PIN")
        self.check = check
        self.attempts = 0
        lay = QVBoxLayout(self)
        # The dialog grows with the error line: the message sits under the input, never over it.
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        head = QLabel(purpose)
        head.setWordWrap(True)
        set_role(head, "section")
        lay.addWidget(head)
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setAccessibleName("PIN")
        self.pin.setPlaceholderText(self.tr("Admin PIN"))
        self.pin.setMaxLength(12)
        box, self.error = with_error(self.pin)
        lay.addWidget(box)
        # Every fast run in the PIN is a scan (a PIN is typed by hand), and the field is emptied:
        # a scanner's first key can come in slowly and would stay in front of the PIN typed next.
        self.burst_guard = BurstGuard(
            self.pin,
            say=self.say,
            message=self.tr("Scan ignored: type the admin PIN."),
            is_scan=lambda _t: True,
            clear=True,
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.try_accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.pin.setFocus()

    def try_accept(self) -> None:
        if self.check(self.pin.text()):
            self.accept()
            return
        self.attempts += 1
        self.pin.clear()
        self.say(self.tr("Wrong PIN. Ask an administrator."))
        self.pin.setFocus()

    def say(self, message: str) -> None:
        """The error line under the PIN; the dialog grows to hold it (it never squeezes over the input)."""
        self.error.show_error(message)
        lay = self.layout()
        if lay is not None:
            lay.activate()
        self.adjustSize()


if TYPE_CHECKING:  # the window these methods belong to (a mixin of it at run time)
    from PySide6.QtWidgets import QMainWindow as _Base

    from views.shell.prefs import StationPrefs
else:
    _Base = object


class KioskExits(_Base):
    """Leaving kiosk mode and quitting the station, both behind the admin PIN in kiosk mode (a
    mixin of ``ShellWindow``)."""

    kiosk: bool
    prefs: StationPrefs
    pin_dialog: PinDialog | None
    _may_close: bool

    if TYPE_CHECKING:  # the window's own

        def leave_kiosk(self) -> None: ...
        def focus_primary(self) -> None: ...

    def request_exit(self) -> None:
        """Ctrl+Shift+X: leaving kiosk mode (admin PIN) keeps the app open as a normal window."""
        if not self.kiosk:
            return
        self._with_pin(
            QCoreApplication.translate("KioskExits", "Enter the admin PIN to leave kiosk mode."), self.leave_kiosk
        )

    def request_quit(self) -> None:
        """Quitting the app: in kiosk mode it needs the admin PIN; outside it just closes."""
        if not self.kiosk:
            self.close()
            return
        self._with_pin(
            QCoreApplication.translate("KioskExits", "Enter the admin PIN to quit the station."), self._quit_confirmed
        )

    def _quit_confirmed(self) -> None:
        self._may_close = True
        self.close()

    def _with_pin(self, purpose: str, then: Callable[[], None]) -> None:
        if self.pin_dialog is not None and self.pin_dialog.isVisible():
            return
        dlg = PinDialog(purpose, self.prefs.check_pin, self)
        dlg.accepted.connect(then)
        dlg.finished.connect(lambda _r: QTimer.singleShot(0, self.focus_primary))
        self.pin_dialog = dlg
        dlg.open()  # window-modal, not a nested event loop
