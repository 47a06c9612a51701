"""The shell window's status: the feedback line and error bubble, the busy bar, the settings and
theme, the connection and sync indicator, and the platform sign-in beside the station's.

A part of ``ShellWindow`` (views.shell.window), kept in a file of its own: the attributes it
reads are the window's, declared below for the type checker.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QPoint, QSize, QTimer, SignalInstance
from PySide6.QtWidgets import QLabel, QMainWindow, QProgressBar, QPushButton, QWidget

from views.credentials import CredentialStore
from views.i18n import fmt_number
from views.ops import OpRunner
from views.shell.kiosk import IdleWatcher
from views.shell.prefs import StationPrefs
from views.shell.signin import SignInPage
from views.shell.sync_controller import TONE_ICONS, SyncController, elide
from views.shell.theme import Feedback, apply_theme, icon, pill_css, set_role

if TYPE_CHECKING:
    from collections.abc import Callable

    from views.base import StationSession, Workspace
    from views.shell.settings_dialog import SettingsDialog
    from views.shell.sync_panel import SyncPanel

log = logging.getLogger("views.shell")


if TYPE_CHECKING:  # the window these methods belong to (a mixin of it at run time)
    _Base = QMainWindow
else:
    _Base = object


class WindowStatus(_Base):
    """The window's status bar, settings and sync indicator (a mixin of ``ShellWindow``)."""

    kiosk: bool
    prefs: StationPrefs
    ops: OpRunner
    sync: SyncController
    credentials: CredentialStore
    session: StationSession | None
    workspaces: dict[str, Workspace]
    signin: SignInPage
    idle: IdleWatcher
    feedback_player: Feedback
    feedback_icon: QLabel
    feedback_label: QLabel
    busy_bar: QProgressBar
    sync_label: QPushButton
    sync_issues: QPushButton
    sync_panel: SyncPanel | None
    settings_dialog: SettingsDialog
    last_feedback: tuple[bool | None, str]
    _feedback_timer: QTimer
    _offline_notice: str
    connection_changed: SignalInstance
    sync_changed: SignalInstance
    focus_primary: Callable[[], None]
    _with_pin: Callable[[str, Callable[[], None]], None]

    # --- settings and theme -----------------------------------------------------------------
    def open_settings(self) -> None:
        if self.kiosk:
            self._with_pin(
                QCoreApplication.translate("WindowStatus", "Enter the admin PIN to change the station settings."),
                self._open_settings_dialog,
            )
        else:
            self._open_settings_dialog()

    def _open_settings_dialog(self) -> None:
        from views.shell.settings_dialog import SettingsDialog

        dlg = SettingsDialog(self.prefs, self)
        dlg.accepted.connect(self._settings_saved)
        dlg.finished.connect(lambda _r: QTimer.singleShot(0, self.focus_primary))
        self.settings_dialog = dlg
        dlg.open()

    def _settings_saved(self) -> None:
        self.apply_theme()
        self.feedback_player.enabled = bool(self.prefs.get("sound"))
        self.signin.set_scanner_suffix(str(self.prefs.get("scanner_suffix")))
        self.signin.subtitle.setText(
            QCoreApplication.translate("WindowStatus", "Platform Station · {value}").format(
                value=self.prefs.get("station_name")
            )
        )
        self.idle.set_timeout_ms(int(self.prefs.get("kiosk_idle_minutes")) * 60_000)
        if self.session is not None:
            self.session.prefs.update(self.prefs.as_dict())
            from services.core.links import use_platform_address  # the service layer: loaded by now

            use_platform_address(self.session.runtime, str(self.prefs.get("platform_url")))
        self.check_platform()

    @property
    def theme_name(self) -> str:
        if self.kiosk and self.prefs.get("kiosk_theme"):
            return "kiosk"
        return str(self.prefs.get("theme"))

    def apply_theme(self) -> None:
        apply_theme(self.theme_name)
        self._show_sync()  # the indicator's colours and size follow the theme

    # --- feedback, errors, busy ---------------------------------------------------------
    def notify(self, ok: bool | None, message: str = "") -> None:
        """Success / failure in the status bar (colour + icon) and, optionally, a sound."""
        self._set_feedback(ok, message)
        if ok is not None:
            self.feedback_player.play(ok)
        self._feedback_timer.start(10_000)

    def _set_feedback(self, ok: bool | None, message: str) -> None:
        name = {True: "ok", False: "error", None: "warning"}[ok] if message else ""
        if name:
            self.feedback_icon.setPixmap(icon(name).pixmap(QSize(18, 18)))
        else:
            self.feedback_icon.clear()
        self.feedback_label.setText(message)
        self.feedback_label.setToolTip(message)
        self.feedback_label.setStyleSheet(
            {"ok": "color: #15803d;", "error": "color: #b91c1c;", "warning": "color: #b45309;"}.get(name, "")
        )
        self.last_feedback = (ok, message)

    def show_error(self, message: str, widget: QWidget | None = None) -> None:
        """The op runner's default failure presentation: a bubble right under the widget the person used."""
        self.feedback_player.play(False)
        bubble = getattr(self, "_bubble", None)
        if bubble is None:
            bubble = QLabel(self)
            bubble.setWordWrap(True)
            bubble.setMaximumWidth(420)
            bubble.setAccessibleName("Error")
            set_role(bubble, "message-error")
            self._bubble = bubble
            self._bubble_timer = QTimer(self)
            self._bubble_timer.setSingleShot(True)
            self._bubble_timer.timeout.connect(bubble.hide)
        bubble.setText(message)
        bubble.adjustSize()
        pos = QPoint(16, self.height() - bubble.height() - 48)
        if widget is not None and widget.window() is self:
            pos = widget.mapTo(self, widget.rect().bottomLeft()) + QPoint(0, 4)
            pos.setX(max(4, min(pos.x(), self.width() - bubble.width() - 4)))
            pos.setY(max(4, min(pos.y(), self.height() - bubble.height() - 4)))
        bubble.move(pos)
        bubble.show()
        bubble.raise_()
        self._bubble_timer.start(8000)

    def _busy(self, busy: bool) -> None:
        self.busy_bar.setVisible(busy)

    # --- connection and sync status (the controller owns them; the window shows them) ----------
    @property
    def platform_url(self) -> str:
        return self.sync.platform_url

    @property
    def connection(self) -> str:
        return self.sync.connection

    def refresh_status(self) -> None:
        self.sync.refresh_outbox()
        self.sync.check_platform()

    def refresh_now(self) -> None:
        """Ctrl+Shift+R: the person asks; sync at once too."""
        self.refresh_status()
        self.sync.wake()

    def check_platform(self) -> None:
        self.sync.check_platform()

    def _connection_shown(self, state: str) -> None:
        # Workspaces with a badge of their own (warehouse) say the same as the status bar.
        if self.session is not None:
            self.session.prefs["online"] = state == "online"
        for ws in self.workspaces.values():
            set_online = getattr(ws, "set_online", None)
            if callable(set_online):
                set_online(state == "online")
        url = self.platform_url
        if state == "online":
            self.signin.platform_line.setText(
                QCoreApplication.translate("WindowStatus", "Platform {url} is reachable.").format(url=url)
            )
            if self.last_feedback[1] == self._offline_notice:
                self._set_feedback(None, "")  # it answers now: the sign-in notice no longer holds
        elif state == "offline":
            self.signin.platform_line.setText(
                QCoreApplication.translate(
                    "WindowStatus",
                    "The platform at {url} does not answer yet; checking again. You can still sign in with this station's data; changes are kept and sent when it is back.",
                ).format(url=url)
            )
        else:
            self.signin.platform_line.setText(
                QCoreApplication.translate("WindowStatus", "No platform URL set: this station works on its own data.")
            )
        self.connection_changed.emit(state)

    def _show_sync(self) -> None:
        """The indicator: the controller's words, colour and counts, as they are."""
        sync = self.sync
        text, tone = sync.words()
        issues = sync.issue_count
        issues_words = (
            QCoreApplication.translate("WindowStatus", "1 sync issue")
            if issues == 1
            else QCoreApplication.translate("WindowStatus", "{count} sync issues").format(count=fmt_number(issues))
        )
        theme = self.theme_name
        self.sync_label.setText(elide(text))
        self.sync_label.setIcon(icon(TONE_ICONS[tone]))
        self.sync_label.setStyleSheet(pill_css(tone, theme))
        self.sync_label.setAccessibleName(f"Sync: {sync.summary}")
        self.sync_label.setToolTip(
            QCoreApplication.translate(
                "WindowStatus",
                "{text}\nPlatform: {value}. Changes waiting: {sync.waiting}.\nClick (or Ctrl+Shift+S) for the Sync panel.",
            ).format(
                text=text,
                value=self.platform_url or QCoreApplication.translate("WindowStatus", "not set"),
                sync=sync,
            )
        )
        self.sync_issues.setText(issues_words)
        self.sync_issues.setStyleSheet(pill_css("warning", theme))
        self.sync_issues.setAccessibleName(f"{issues_words}: open the Sync panel")
        self.sync_issues.setVisible(issues > 0 and self.session is not None)
        # Never squeezed to an icon by a long message beside it (in a kiosk it is the way to the panel),
        # and the status bar does not grow for a restyled child by itself: room for the whole pill.
        for b in (self.sync_label, self.sync_issues):
            b.setMinimumWidth(b.sizeHint().width())
        self.statusBar().setMinimumHeight(self.sync_label.sizeHint().height() + 8)
        self.sync_changed.emit()

    def open_sync_panel(self) -> None:
        if self.session is None:
            return
        if self.sync_panel is None:
            from views.shell.sync_panel import SyncPanel

            self.sync_panel = SyncPanel(self.sync, self, self)
            self.sync_panel.finished.connect(lambda _r: QTimer.singleShot(0, self.focus_primary))
        self.sync_panel.open()  # window-modal, not a nested event loop
        self.sync_panel.raise_()
        self.sync_panel.refresh()

    def _platform_logout(self, token: str | None) -> None:
        """End the platform session too when it answers (offline, the token is only forgotten here)."""
        url = self.platform_url
        if not url or not token:
            return
        from services.core import platform_client

        self.ops.run_async(
            lambda: platform_client.sign_out(url, token),
            on_success=lambda _status: None,
            on_failure=lambda e: log.info("platform sign-out failed: %s", type(e).__name__),
        )

    def _platform_login(self, email: str, password: str) -> None:
        """Also sign in to the platform (for sync) when it answers; the token goes to the credential store."""
        url = self.platform_url
        if not url:
            return
        from services.core import platform_client

        def answered(result: platform_client.PlatformSignIn) -> None:
            if result.token is not None:
                self.credentials.set(f"platform-token:{email}", result.token)
                if self.session is not None:
                    self.session.prefs["platform_token_stored"] = True
                    self.ops.did_change.emit("platform.signed_in")  # views that read the platform read again
            elif result.status in (401, 403):
                self.notify(
                    None,
                    QCoreApplication.translate(
                        "WindowStatus", "Signed in here, but the platform refused these credentials; sync waits."
                    ),
                )

        self.ops.run_async(
            lambda: platform_client.sign_in(url, email, password),
            on_success=answered,
            # Unreachable or odd answers: the station works on its own data; check_platform says so.
            on_failure=lambda e: log.info("platform sign-in failed: %s", type(e).__name__),
        )
