"""The desktop shell with real widgets on the station runtime with demo data."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import update

from local_db.models import Membership, Tenant, User
from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD, demo_id
from views.credentials import CredentialStore
from views.ops import OpRunner
from views.shell.prefs import DEFAULT_PIN
from views.shell.window import ShellWindow


def make_shell(qtbot: QtBot, station: Runtime, prefs_dir: Path, **kw: object) -> ShellWindow:
    kw.setdefault("offline", True)
    w = ShellWindow(prefs_dir, runtime=station, credentials=CredentialStore(prefs_dir, use_keyring=False), **kw)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    w.resize(1100, 750)
    w.show()
    return w


@pytest.fixture
def shell(qtbot: QtBot, station: Runtime, tmp_path: Path) -> Iterator[ShellWindow]:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    yield w
    w.ops.wait()


def sign_in(qtbot: QtBot, w: ShellWindow, email: str, password: str = DEMO_PASSWORD) -> None:
    w.signin.email.setText(email)
    w.signin.password.setText(password)
    w.signin.submit()
    # Finished either way: the button is enabled again (landed, refused, or tenant choice).
    qtbot.waitUntil(lambda: w.signin.button.isEnabled(), timeout=30_000)


DEMO_CASES = [
    # email, lands in, offered workspaces, tenant name
    ("owner@demo.test", "admin", {"warehouse", "inspection", "helpdesk", "admin", "stockcount"}, "Demo Retail Co."),
    ("admin@demo.test", "admin", {"warehouse", "inspection", "helpdesk", "admin", "stockcount"}, "Demo Retail Co."),
    ("operator@demo.test", "inspection", {"inspection", "helpdesk", "stockcount"}, "Demo Retail Co."),
    ("device@demo.test", "warehouse", {"warehouse"}, "Demo Retail Co."),
    (
        "owner@other.test",
        "admin",
        {"warehouse", "inspection", "helpdesk", "admin", "stockcount"},
        "Other Holdings Ltd.",
    ),
]


@pytest.mark.parametrize(("email", "lands", "offered", "tenant"), DEMO_CASES)
def test_each_demo_user_lands_in_their_workspace(
    qtbot: QtBot, shell: ShellWindow, email: str, lands: str, offered: set[str], tenant: str
) -> None:
    with qtbot.waitSignal(shell.signed_in, timeout=30_000) as sig:
        shell.signin.email.setText(email)
        shell.signin.password.setText(DEMO_PASSWORD)
        shell.signin.submit()
    assert sig.args == [lands]
    assert shell.current_workspace == lands
    assert shell.pages.currentWidget() is shell.work
    shipped = {"warehouse", "inspection", "helpdesk", "admin", "stockcount"}  # others are found too
    assert set(shell.workspace_actions) & shipped == offered
    # What they may not use is not there at all (not just disabled).
    for hidden in shipped - offered:
        assert hidden not in shell.workspace_classes
        assert shell.findChild(object, f"switch-{hidden}") is None
    assert shell.tenant_label.text() == tenant
    assert shell.session is not None and shell.session.principal.email == email
    assert shell.sync_label.text().startswith("Offline · ") and "pending" not in shell.sync_label.text()
    if len(offered) == 1:
        assert not any(a.isVisible() for a in shell.workspace_actions.values())


def test_owner_sees_api_keys_admin_does_not(qtbot: QtBot, shell: ShellWindow) -> None:
    sign_in(qtbot, shell, "admin@demo.test")
    ws = shell.workspaces["admin"]
    assert ws.api_keys is None  # type: ignore[attr-defined]
    # No API keys tab for an admin (the owner's); webhooks, the scheduler's jobs and the audit log are
    # an admin's too (issues 35 and 37).
    tabs = [ws.tabs.tabText(i).replace("&", "") for i in range(ws.tabs.count())]  # type: ignore[attr-defined]
    assert tabs == ["Users", "Modules", "Webhooks", "Scheduler", "Audit log"]
    qtbot.waitUntil(lambda: ws.users.table.rowCount() == 4)  # type: ignore[attr-defined]
    shell.sign_out()
    sign_in(qtbot, shell, "owner@demo.test")
    assert shell.workspaces["admin"].api_keys is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("email", "password"), [("owner@demo.test", "wrong-password"), ("nobody@demo.test", DEMO_PASSWORD)]
)
def test_wrong_credentials_say_so_without_saying_which(
    qtbot: QtBot, shell: ShellWindow, email: str, password: str
) -> None:
    sign_in(qtbot, shell, email, password)
    assert shell.session is None
    assert shell.pages.currentWidget() is shell.signin
    assert shell.signin.message.isVisible()
    assert shell.signin.message.text() == "E-mail or password is not correct."
    assert not shell.signin.email_error.isVisible() and not shell.signin.password_error.isVisible()


def test_malformed_email_is_shown_under_the_field(qtbot: QtBot, shell: ShellWindow) -> None:
    sign_in(qtbot, shell, "not-an-email", "")
    assert shell.signin.email_error.isVisible()
    assert "e-mail" in shell.signin.email_error.text()
    assert shell.signin.password_error.isVisible()  # empty password
    assert shell.session is None
    # Correcting the address retires its error at once (the other field keeps its own).
    shell.signin.email.setFocus()
    qtbot.keyClick(shell.signin.email, Qt.Key.Key_Backspace)
    assert not shell.signin.email_error.isVisible() and shell.signin.password_error.isVisible()
    assert shell.signin.email.property("invalid") is False


def test_suspended_tenant_cannot_be_entered(qtbot: QtBot, shell: ShellWindow, station: Runtime) -> None:
    with station.db.transaction(None) as s:
        s.execute(update(Tenant).where(Tenant.slug == "demo").values(status="suspended"))
    sign_in(qtbot, shell, "owner@demo.test")
    assert shell.session is None
    assert "suspended" in shell.signin.message.text()


def test_user_without_modules_is_told(qtbot: QtBot, shell: ShellWindow, station: Runtime) -> None:
    # Accounts with passwords are made on the platform; here the synced rows are written directly.
    from services.core.auth import hash_password

    with station.db.transaction(None) as s:
        s.add(
            User(
                id="u-empty", email="empty@demo.test", name="No Modules", password_hash=hash_password("long-enough-pw")
            )
        )
        s.flush()
        s.add(Membership(id="m-empty", tenant_id=demo_id("tenant", "demo"), user_id="u-empty", role="operator",
                         user_modules=[]))  # fmt: skip
    sign_in(qtbot, shell, "empty@demo.test", "long-enough-pw")
    assert shell.session is None
    assert "no modules" in shell.signin.message.text()


def test_several_tenants_ask_which_and_skip_inactive(qtbot: QtBot, shell: ShellWindow, station: Runtime) -> None:
    with station.db.transaction(None) as s:
        s.add(
            Membership(
                id=demo_id("membership", "operator@demo.test", "other"),
                tenant_id=demo_id("tenant", "other"),
                user_id=demo_id("user", "operator@demo.test"),
                role="operator",
                user_modules=["support"],
            )
        )
    sign_in(qtbot, shell, "operator@demo.test")
    assert shell.pages.currentWidget() is shell.tenant_page
    assert shell.tenant_page.list.count() == 2
    # Choose "other" (second row): an operator with support lands in the helpdesk.
    shell.tenant_page.list.setCurrentRow(1)
    with qtbot.waitSignal(shell.signed_in, timeout=30_000) as sig:
        shell.tenant_page.continue_button.click()
    assert sig.args == ["helpdesk"]
    assert set(shell.workspace_actions) == {"helpdesk", "records"}  # support only, and its records
    assert shell.tenant_label.text() == "Other Holdings Ltd."

    shell.sign_out()
    with station.db.transaction(None) as s:
        s.execute(update(Tenant).where(Tenant.slug == "other").values(status="suspended"))
    sign_in(qtbot, shell, "operator@demo.test")
    item = shell.tenant_page.list.item(1)
    assert "suspended" in item.text()
    assert not item.flags() & item.flags().ItemIsEnabled


def test_last_workspace_and_geometry_are_remembered_per_user(qtbot: QtBot, shell: ShellWindow) -> None:
    sign_in(qtbot, shell, "owner@demo.test")
    shell.workspace_actions["helpdesk"].trigger()
    assert shell.current_workspace == "helpdesk"
    shell.resize(1024, 720)  # (at least the 1024x700 minimum; the offscreen screen is 800 px high)
    shell.sign_out()
    shell.resize(1024, 780)
    sign_in(qtbot, shell, "operator@demo.test")
    assert shell.current_workspace == "inspection"  # another person: their own landing
    shell.sign_out()
    sign_in(qtbot, shell, "owner@demo.test")
    assert shell.current_workspace == "helpdesk"
    assert (shell.width(), shell.height()) == (1024, 720)


def test_kiosk_cannot_be_left_without_the_pin(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    assert w.theme_name == "kiosk"
    assert w.windowFlags() & w.windowFlags().FramelessWindowHint
    w.close()
    assert w.isVisible()
    dlg = w.pin_dialog
    assert dlg is not None and dlg.isVisible()
    dlg.pin.setText("0000")
    dlg.try_accept()
    assert dlg.isVisible() and w.isVisible()
    assert dlg.error.isVisible() and "Wrong PIN" in dlg.error.text()
    dlg.reject()
    w.close()  # again: asks again
    dlg = w.pin_dialog
    assert dlg is not None
    dlg.pin.setText(DEFAULT_PIN)
    dlg.try_accept()
    assert not w.isVisible()


def test_kiosk_locks_when_idle_and_keeps_focus(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    sign_in(qtbot, w, "device@demo.test")
    assert w.current_workspace == "warehouse"
    w.activateWindow()
    ws = w.workspaces["warehouse"]
    qtbot.waitUntil(lambda: ws.isAncestorOf(QApplication.focusWidget()) or QApplication.focusWidget() is ws)
    w.idle.set_timeout_ms(150)
    qtbot.waitUntil(lambda: w.locked, timeout=30_000)
    assert not w.switcher.isEnabled()
    w.lock_page.password.setText("wrong")
    w.lock_page.unlock_button.click()
    qtbot.waitUntil(lambda: w.lock_page.password_error.isVisible(), timeout=30_000)
    assert w.locked
    w.lock_page.password.setText(DEMO_PASSWORD)
    w.lock_page.unlock_button.click()
    qtbot.waitUntil(lambda: not w.locked, timeout=30_000)
    assert w.pages.currentWidget() is w.work and w.switcher.isEnabled()
    w.idle.stop()
    w._may_close = True


def test_slow_call_keeps_the_event_loop_responsive(qtbot: QtBot) -> None:
    runner = OpRunner()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    results: list[int] = []
    busy: list[bool] = []
    runner.busy_changed.connect(busy.append)

    def slow() -> int:
        time.sleep(0.5)
        return 42

    started = time.monotonic()
    runner.run(slow, on_success=results.append)
    qtbot.waitUntil(lambda: results == [42], timeout=30_000)
    timer.stop()
    during = [t for t in ticks if t - started < 0.5]
    assert len(during) >= 10, f"the UI thread ticked only {len(during)} times in 0.5 s"
    gaps = [b - a for a, b in zip(during, during[1:], strict=False)]
    assert max(gaps) < 0.2, f"the UI thread stalled {max(gaps):.3f} s"
    assert busy == [True, False]  # over 300 ms: busy shown, then cleared


def test_failure_shows_next_to_the_widget_and_did_change_only_on_success(qtbot: QtBot, shell: ShellWindow) -> None:
    sign_in(qtbot, shell, "owner@demo.test")
    changes: list[str] = []
    shell.ops.did_change.connect(changes.append)
    anchor = shell.workspaces["admin"].users.table  # type: ignore[attr-defined]  # no show_error of its own
    session = shell.session
    assert session is not None
    shell.ops.run(session.call("platform.api_keys.create", body={"name": "", "modules": []}), parent=anchor, write=True)
    qtbot.waitUntil(lambda: shell.ops.active == 0)
    bubble = shell._bubble
    # In people's words: the field and what to do, not "request body failed validation".
    assert (
        bubble.isVisible()
        and bubble.text() == "The name is missing. Fill it in and try again. Modules: choose at least one."
    )
    below = anchor.mapTo(shell, anchor.rect().bottomLeft()).y()
    assert abs(bubble.y() - below) < 10 or bubble.geometry().bottom() <= shell.height()
    assert changes == []


def test_settings_are_validated_and_saved(qtbot: QtBot, shell: ShellWindow) -> None:
    shell.open_settings()
    dlg = shell.settings_dialog
    dlg.platform_url.setText("ftp://nowhere")
    dlg.new_pin.setText("12")
    dlg.save()
    assert dlg.isVisible()
    assert "platform URL" in dlg.errors["platform_url"].text()
    assert "4 to 12 digits" in dlg.errors["new_pin"].text()
    dlg.platform_url.setText("http://127.0.0.1:9/")
    dlg.new_pin.setText("987654")
    dlg.confirm_pin.setText("987655")
    dlg.save()
    assert "differ" in dlg.errors["confirm_pin"].text()
    dlg.confirm_pin.setText("987654")
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    dlg.scanner_suffix.setCurrentIndex(dlg.scanner_suffix.findData("tab"))
    dlg.sound.setChecked(False)
    dlg.save()
    assert not dlg.isVisible()
    assert shell.prefs.get("platform_url") == "http://127.0.0.1:9"
    assert shell.prefs.get("theme") == "dark" and shell.prefs.get("sound") is False
    assert shell.prefs.check_pin("987654") and not shell.prefs.check_pin(DEFAULT_PIN)
    assert "987654" not in (shell.data_dir / "station.ini").read_text()
    assert QApplication.instance().property("station-theme") == "dark"  # type: ignore[union-attr]
    assert not shell.feedback_player.enabled


def test_scanner_tab_suffix_submits_device_sign_in(qtbot: QtBot, shell: ShellWindow) -> None:
    shell.prefs.set("scanner_suffix", "tab")
    shell._settings_saved()
    shell.signin.set_device_mode(True)
    assert shell.signin.password.accessibleName() == "Badge"
    shell.signin.email.setText("device@demo.test")
    shell.signin.password.setFocus()
    with qtbot.waitSignal(shell.signed_in, timeout=30_000):
        qtbot.keyClicks(shell.signin.password, DEMO_PASSWORD)
        qtbot.keyPress(shell.signin.password, "\t")
    assert shell.current_workspace == "warehouse"
    assert shell.prefs.last_email(device=True) == "device@demo.test"


def test_unreachable_platform_is_said_and_sign_in_still_works(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", offline=False, platform_url="http://127.0.0.1:9")
    qtbot.waitUntil(lambda: w.connection == "offline", timeout=30_000)
    assert "does not answer" in w.signin.platform_line.text()
    sign_in(qtbot, w, "operator@demo.test")
    assert w.current_workspace == "inspection"
    assert "does not answer" in w.feedback_label.text()
    assert w.sync_label.text().startswith("Offline")


def test_platform_token_goes_to_the_credential_store_not_the_db(
    qtbot: QtBot, station: Runtime, server: object, tmp_path: Path
) -> None:
    url = server.url  # type: ignore[attr-defined]
    prefs = tmp_path / "prefs"
    w = make_shell(qtbot, station, prefs, offline=False, platform_url=url)
    qtbot.waitUntil(lambda: w.connection == "online", timeout=30_000)
    sign_in(qtbot, w, "owner@demo.test")
    store = w.credentials
    qtbot.waitUntil(lambda: store.get("platform-token:owner@demo.test") is not None, timeout=30_000)
    token = store.get("platform-token:owner@demo.test")
    assert token and token.count(".") == 2
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600
    for f in (station.data_dir / "data.db", prefs / "station.ini"):
        assert token.encode() not in f.read_bytes()
    bearer = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{url}/api/auth/me", headers=bearer).status_code == 200
    w.sign_out()
    assert store.get("platform-token:owner@demo.test") is None
    # Signing out here ended the platform session too: the token no longer works there.
    qtbot.waitUntil(lambda: httpx.get(f"{url}/api/auth/me", headers=bearer).status_code == 401, timeout=30_000)


def _in_dialog(w: QWidget, dlg: QWidget) -> QRect:
    return QRect(w.mapTo(dlg, QPoint(0, 0)), w.size())


def test_settings_errors_sit_under_their_field_and_alt_s_saves(qtbot: QtBot, shell: ShellWindow) -> None:
    """Issue 32, defect 15: the error was drawn over the next field, and Alt+S went to "Scanner
    suffix" instead of Save. Driven by keys as the person did."""
    shell.open_settings()
    dlg = shell.settings_dialog
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow)
    dlg.platform_url.setFocus()
    dlg.platform_url.selectAll()
    qtbot.keyClicks(dlg.platform_url, "ftp://nowhere")
    alt_s = (Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(dlg.platform_url, *alt_s)
    err = dlg.errors["platform_url"]
    qtbot.waitUntil(err.isVisible)
    qtbot.wait(10)  # the layout pass after the error line appeared
    assert dlg.isVisible() and "platform URL" in err.text()
    below = _in_dialog(dlg.station_name, dlg)
    assert not _in_dialog(err, dlg).intersects(below) and _in_dialog(err, dlg).bottom() < below.top()
    assert err.height() >= err.heightForWidth(err.width()) and dlg.rect().contains(_in_dialog(err, dlg))
    assert dlg.scanner_suffix.currentData() == shell.prefs.get("scanner_suffix")  # Alt+S left it alone
    dlg.platform_url.selectAll()
    qtbot.keyClicks(dlg.platform_url, "http://127.0.0.1:9/")
    qtbot.keyClick(dlg.platform_url, *alt_s)
    qtbot.waitUntil(lambda: not dlg.isVisible())
    assert shell.prefs.get("platform_url") == "http://127.0.0.1:9"


def test_links_made_at_the_station_point_at_its_platform(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """Issue 32, defect 12: QR codes (and mail and signing links) made at the desktop pointed at
    http://127.0.0.1:8000 whatever the platform's address; they follow the Settings' platform URL."""
    from services.core.links import ServerAddress
    from services.qr.codes import scan_address

    station.part(ServerAddress).url = None
    w = make_shell(qtbot, station, tmp_path / "prefs", platform_url="https://platform.example.com/")
    sign_in(qtbot, w, "owner@demo.test")
    assert w.session is not None
    assert scan_address(w.session.ctx(), "AB12").startswith("https://platform.example.com/")
    w.prefs.set("platform_url", "https://qr.example.org")
    w._settings_saved()
    assert scan_address(w.session.ctx(), "AB12").startswith("https://qr.example.org/")
    assert "127.0.0.1:8000" not in scan_address(w.session.ctx(), "AB12")
    w.ops.wait()


def test_a_long_result_in_the_status_bar_ends_in_an_ellipsis(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """The walk at 1280x800: "Signed in with this station's data: the platform at http://… does r",
    cut mid-word at the sync indicator. Shortened, it ends in "…"; the whole message stays its text."""
    w = make_shell(qtbot, station, tmp_path / "prefs", offline=False, platform_url="http://127.0.0.1:9")
    qtbot.waitUntil(lambda: w.connection == "offline")
    sign_in(qtbot, w, "owner@demo.test")
    w.resize(1280, 800)
    label = w.feedback_label
    qtbot.waitUntil(lambda: "does not answer" in label.text() and label.width() > 0)
    shown = getattr(label, "shown_text", lambda: label.text())()
    assert label.fontMetrics().horizontalAdvance(label.text()) > label.contentsRect().width()  # it does not fit
    assert shown.endswith("…") and label.text().startswith(shown[:-1]), shown
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
