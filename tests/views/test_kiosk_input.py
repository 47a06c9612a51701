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
    qtbot.waitUntil(lambda: not w.locked, timeout=30_000)
    w.idle.stop()
    w._may_close = True


def test_a_badge_scan_unlocks_a_device_session(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = _locked(qtbot, station, tmp_path, "device@demo.test", device=True)
    assert "Scan the badge" in w.lock_page.subtitle.text()
    burst(qtbot, w.lock_page.password, DEMO_PASSWORD)
    qtbot.waitUntil(lambda: not w.locked, timeout=30_000)
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


class Times:
    """Key timing from a list: the clock's readings one after another (the last repeats)."""

    def __init__(self, *gaps: float) -> None:
        self.now, self.gaps = 1000.0, list(gaps)

    def __call__(self) -> float:
        self.now += self.gaps.pop(0) if len(self.gaps) > 1 else self.gaps[0]
        return self.now


def test_a_scan_whose_first_key_lags_leaves_nothing_in_the_pin(qtbot: QtBot) -> None:
    """Defect 5: the scanner's first key came 60 ms before the rest; it stayed in the PIN field and
    the right PIN typed next was refused."""
    dlg = PinDialog("Enter the admin PIN to leave kiosk mode.", lambda pin: pin == "1234")
    qtbot.addWidget(dlg)
    dlg.show()
    guard = dlg.pin.findChild(BurstGuard)
    assert guard is not None
    guard.clock = Times(0.5, 0.06, 0.005)  # first key, a lag, then the scanner's pace (and Enter)
    qtbot.keyClicks(dlg.pin, "2000000000015")
    qtbot.keyClick(dlg.pin, Qt.Key.Key_Return)
    assert dlg.pin.text() == "" and dlg.error.text() == "Scan ignored: type the admin PIN." and dlg.isVisible()
    typing(qtbot, dlg.pin, "1234")
    assert dlg.result() == dlg.DialogCode.Accepted and dlg.attempts == 0


def test_a_password_manager_signs_in_at_scanner_speed(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """Defect 6: KeePassXC auto-types 25 ms a key; the password is a password (not shaped like a
    code), so it signs in, while a scanned label code in the same field is still taken out."""
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.signin.email.setText("operator@demo.test")
    burst(qtbot, w.signin.password, "KIT-DEMO000008")
    assert w.signin.password.text() == "" and w.signin.password_error.text().startswith("Scan ignored")
    _keys(qtbot, w.signin.password, DEMO_PASSWORD, 0.025)
    qtbot.waitUntil(lambda: w.session is not None, timeout=30_000)
    assert w.current_workspace == "inspection"
    w.ops.wait()


def test_leaving_kiosk_mode_keeps_the_app_open(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """Defect 5: Exit kiosk with the right PIN closed the whole app; it leaves kiosk mode only."""
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    sign_in(qtbot, w, "device@demo.test")
    w.activateWindow()
    qtbot.keyClick(w, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dlg = w.pin_dialog
    assert dlg is not None and dlg.isVisible()
    typing(qtbot, dlg.pin, "1234")
    qtbot.waitUntil(lambda: not dlg.isVisible())
    assert w.isVisible() and not w.kiosk and w.session is not None
    assert not (w.windowFlags() & Qt.WindowType.FramelessWindowHint) and w.theme_name != "kiosk"
    assert w.sync_action in w.switcher.actions() and not w.idle.timer.isActive()
    w.close()  # a normal window now: closes without a PIN
    assert not w.isVisible()
    w.ops.wait()
