"""Kiosk input: a scanner burst never lands in a PIN or password field (a badge may unlock a device
session), and the wrong-PIN message sits under the input."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD
from tests.views.test_shell import make_shell, sign_in
from views.shell.burst import BurstGuard
from views.shell.kiosk import PinDialog
from views.shell.window import ShellWindow


class Clock:
    """Key timing without real time: each reading moves ``step`` seconds on (no timing in tests)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _keys(qtbot: QtBot, field: QLineEdit, text: str, step: float) -> None:
    guard = field.findChild(BurstGuard)
    assert guard is not None
    guard.clock = Clock(step)
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def burst(qtbot: QtBot, field: QLineEdit, code: str) -> None:
    """A scanner: the characters 5 ms apart, then Enter."""
    _keys(qtbot, field, code, 0.005)


def typing(qtbot: QtBot, field: QLineEdit, text: str) -> None:
    """A person: 150 ms between keys, then Enter."""
    _keys(qtbot, field, text, 0.15)


def test_wrong_pin_message_sits_under_the_input(qtbot: QtBot) -> None:
    dlg = PinDialog("Enter the admin PIN to leave kiosk mode.", lambda pin: pin == "1234")
    qtbot.addWidget(dlg)
    dlg.show()
    typing(qtbot, dlg.pin, "0")
    qtbot.waitUntil(dlg.error.isVisible)
    qtbot.wait(10)  # the layout pass after the error line appeared
    pin = dlg.pin.geometry().translated(dlg.pin.parentWidget().mapTo(dlg, dlg.pin.parentWidget().rect().topLeft()))
    err = dlg.error.geometry().translated(
        dlg.error.parentWidget().mapTo(dlg, dlg.error.parentWidget().rect().topLeft())
    )
    assert "Wrong PIN" in dlg.error.text()
    assert not pin.intersects(err) and err.top() >= pin.bottom()
    assert err.height() >= dlg.error.heightForWidth(err.width()) and dlg.rect().contains(err)
    # A scanned code never lands in the PIN field.
    burst(qtbot, dlg.pin, "2000000000015")
    assert dlg.pin.text() == "" and dlg.error.text() == "Scan ignored: type the admin PIN." and dlg.attempts == 1


def _locked(qtbot: QtBot, station: Runtime, tmp_path: Path, email: str, device: bool = False) -> ShellWindow:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    w.signin.set_device_mode(device)
    sign_in(qtbot, w, email)
    w.lock()
    assert w.locked
    return w


def test_a_scan_on_the_lock_screen_is_ignored(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = _locked(qtbot, station, tmp_path, "operator@demo.test")
    tried: list[str] = []
    w.lock_page.unlock.connect(tried.append)
    burst(qtbot, w.lock_page.password, "KIT-DEMO000008")
    assert tried == [] and w.lock_page.password.text() == "" and w.locked
    assert w.lock_page.password_error.text() == "Scan ignored: unlock first."
    # A person typing unlocks as before.
    typing(qtbot, w.lock_page.password, DEMO_PASSWORD)
    qtbot.waitUntil(lambda: not w.locked, timeout=5000)
    w.idle.stop()
    w._may_close = True


def test_a_badge_scan_unlocks_a_device_session(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = _locked(qtbot, station, tmp_path, "device@demo.test", device=True)
    assert "Scan the badge" in w.lock_page.subtitle.text()
    burst(qtbot, w.lock_page.password, DEMO_PASSWORD)
    qtbot.waitUntil(lambda: not w.locked, timeout=5000)
    w.idle.stop()
    w._may_close = True


def test_a_scan_in_the_sign_in_password_is_ignored(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    sent: list[tuple[str, str, bool]] = []
    w.signin.submitted.connect(lambda *a: sent.append(a))
    w.signin.email.setText("operator@demo.test")
    w.signin.password.setText("sec")  # typed before the stray scan: kept
    burst(qtbot, w.signin.password, "2000000000015")
    assert sent == [] and w.signin.password.text() == "sec"
    assert w.signin.password_error.text().startswith("Scan ignored")
    w.ops.wait()
