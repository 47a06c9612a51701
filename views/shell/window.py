"""The shell's main window: sign-in, tenant choice, workspace area with switcher, status bar, kiosk mode.

Start-up is kept light: this module imports Qt and the shell's own small
modules only. The service layer (SQLAlchemy, migrations, every module) is
loaded on a worker thread while the sign-in screen is already on screen; a
sign-in submitted before that finishes simply waits for it off the UI thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from views.credentials import CredentialStore
from views.ops import OpRunner, error_message
from views.shell.forms import field_messages
from views.shell.kiosk import IdleWatcher, PinDialog
from views.shell.prefs import StationPrefs
from views.shell.signin import LockPage, SignInPage, TenantPage
from views.shell.theme import Feedback, apply_theme, icon, pill_css, set_role

if TYPE_CHECKING:
    import asyncio

    from services.core.context import CommitInfo, Principal, Runtime, TenantInfo
    from services.core.station import StationSignIn
    from services.sync.engine import SyncEngine, SyncStatus
    from views.base import StationSession, Workspace
    from views.shell.sync_panel import SyncPanel

log = logging.getLogger("views.shell")
APP_TITLE = "Platform Station"
HEALTH_TIMEOUT_MS = 3000
# Rounds in which the platform's version of records is asked for again after "keep theirs" could
# not take it (other changes waited, or offline); a platform without the rows route never answers.
REFETCH_ROUNDS = 3
ROLE_LABELS = {"owner": "Owner", "admin": "Admin", "operator": "Operator", "warehouse-device": "Warehouse device"}


class ShellWindow(QMainWindow):
    signed_in = Signal(str)  # the workspace landed in
    signed_out = Signal()
    connection_changed = Signal(str)  # "online", "offline", "local"
    runtime_ready = Signal(object)  # the station's Runtime, once loaded
    sync_changed = Signal()  # the sync indicator changed (engine status, outbox or issue count)

    def __init__(
        self,
        data_dir: Path,
        *,
        runtime: Runtime | None = None,
        runtime_loader: Callable[[], Runtime] | None = None,
        kiosk: bool = False,
        platform_url: str | None = None,
        offline: bool = False,
        credentials: CredentialStore | None = None,
    ) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.prefs = StationPrefs(data_dir)
        self.credentials = credentials or CredentialStore(data_dir)
        self.kiosk = kiosk
        self.offline = offline
        if platform_url is not None:
            self.prefs.set("platform_url", platform_url.rstrip("/"))
        self.ops = OpRunner(self)
        self.feedback_player = Feedback(bool(self.prefs.get("sound")))
        self.session: StationSession | None = None
        self.workspace_classes: dict[str, type[Workspace]] = {}
        self.workspaces: dict[str, Workspace] = {}
        self.current_workspace: str | None = None
        self.connection = "local"
        self.pin_dialog: PinDialog | None = None
        self._may_close = not kiosk
        self._login: Any = None
        self._device_signin = False
        # Sync (an engine per entered tenant, only where an asyncio loop runs: the desktop app).
        self.sync_engine: SyncEngine | None = None
        self.sync_status: SyncStatus | None = None
        self.sync_issue_count = 0
        self.sync_summary = ""
        self.sync_tone = "neutral"
        self.sync_panel: SyncPanel | None = None
        self.sync_interval = 15.0
        self._sync_hook: Callable[[CommitInfo], None] | None = None
        self._sync_stops: set[asyncio.Future[None]] = set()
        self._refetch: set[str] = set()  # records whose platform version could not be taken yet
        self._refetch_rounds = 0

        # The runtime: given (tests, screenshots) or loaded off the UI thread.
        self._rt: Runtime | None = runtime
        self._rt_ready = threading.Event()
        self._rt_error: BaseException | None = None
        if runtime is not None:
            self._rt_ready.set()
        self._runtime_loader = runtime_loader

        self.setWindowTitle(APP_TITLE)
        self.setWindowIcon(icon("logo"))
        self.setObjectName("shell")
        self.setMinimumSize(QSize(640, 480))
        if kiosk:
            self.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)

        self.pages = QStackedWidget()
        self.pages.setObjectName("shell-pages")
        self.signin = SignInPage(self.prefs.get("station_name"), self.prefs.get("scanner_suffix"))
        self.signin.remember_emails(self.prefs.last_email(), self.prefs.last_email(device=True))
        self.signin.submitted.connect(self._submit_sign_in)
        self.signin.settings_requested.connect(self.open_settings)
        self.tenant_page = TenantPage()
        self.tenant_page.chosen.connect(self._open_tenant)
        self.tenant_page.back.connect(self.sign_out)
        self.work = QStackedWidget()
        self.work.setObjectName("workspace-area")
        self.work.setAccessibleName("Workspace")
        self.lock_page = LockPage()
        self.lock_page.unlock.connect(self._unlock)
        self.lock_page.sign_out.connect(self.sign_out)
        for page in (self.signin, self.tenant_page, self.work, self.lock_page):
            self.pages.addWidget(page)
        self.setCentralWidget(self.pages)

        self._build_toolbar()
        self._build_status_bar()
        self._build_actions()

        self.idle = IdleWatcher(int(self.prefs.get("kiosk_idle_minutes")) * 60_000, self)
        self.idle.idle.connect(self.lock)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setInterval(15_000)
        self._refresh_timer.timeout.connect(self.refresh_status)
        self.ops.did_change.connect(lambda _c: self.refresh_outbox())
        self.ops.busy_changed.connect(self._busy)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self.apply_theme()
        self.check_platform()

    # --- construction -----------------------------------------------------------
    def _build_toolbar(self) -> None:
        self.switcher = QToolBar("Workspaces")
        self.switcher.setObjectName("switcher")
        self.switcher.setMovable(False)
        self.switcher.setFloatable(False)
        self.switcher.setIconSize(QSize(20, 20))
        self.switcher.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.switcher.toggleViewAction().setVisible(False)
        self.switcher.setAccessibleName("Workspace switcher")
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.switcher)
        self.switcher.hide()
        self.workspace_group = QActionGroup(self)
        self.workspace_group.setExclusive(True)
        self.workspace_actions: dict[str, QAction] = {}

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        sb.setSizeGripEnabled(False)
        self.feedback_icon = QLabel()
        self.feedback_label = QLabel("")
        self.feedback_label.setAccessibleName("Last result")
        self.feedback_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)  # indeterminate
        self.busy_bar.setMaximumWidth(90)
        self.busy_bar.setMaximumHeight(10)
        self.busy_bar.setTextVisible(False)
        self.busy_bar.setAccessibleName("Working")
        self.busy_bar.hide()
        self.user_label = QLabel("")
        self.user_label.setAccessibleName("Signed-in user")
        self.tenant_label = QLabel("")
        self.tenant_label.setAccessibleName("Tenant")
        # The sync indicator: large coloured pills saying the state in words; a click opens the Sync panel.
        # No focus: a kiosk's scanner keeps typing into the workspace.
        self.sync_label = QPushButton("")
        self.sync_label.setObjectName("sync-indicator")
        self.sync_label.setAccessibleName("Connection and sync")
        self.sync_issues = QPushButton("")
        self.sync_issues.setObjectName("sync-issues")
        self.sync_issues.setIcon(icon("warning"))
        self.sync_issues.hide()
        for b in (self.sync_label, self.sync_issues):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            b.setIconSize(QSize(20, 20))
            b.clicked.connect(self.open_sync_panel)
        sb.addWidget(self.feedback_icon)
        sb.addWidget(self.feedback_label, 1)
        sb.addPermanentWidget(self.busy_bar)
        sb.addPermanentWidget(self.user_label)
        sb.addPermanentWidget(self.tenant_label)
        sb.addPermanentWidget(self.sync_label)
        sb.addPermanentWidget(self.sync_issues)
        sb.setContentsMargins(0, 2, 8, 2)  # the pills' borders clear the window edge
        self._feedback_timer = QTimer(self)
        self._feedback_timer.setSingleShot(True)
        self._feedback_timer.timeout.connect(lambda: self._set_feedback(None, ""))
        self.outbox_pending: int | None = None

    def _action(self, text: str, shortcut: str | QKeySequence, slot: Callable[[], Any], icon_name: str = "") -> QAction:
        a = QAction(text, self)
        if icon_name:
            a.setIcon(icon(icon_name))
        a.setShortcut(QKeySequence(shortcut))
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.setToolTip(f"{text.replace('&', '')} ({a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})")
        a.triggered.connect(lambda _checked=False: slot())
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        self.settings_action = self._action("&Settings", "Ctrl+,", self.open_settings, "settings")
        self.lock_action = self._action("&Lock", "Ctrl+L", self.lock, "lock")
        self.sign_out_action = self._action("Sign &out", "Ctrl+Shift+Q", self.sign_out, "signout")
        self.quit_action = self._action("&Quit", "Ctrl+Q", self.close)
        self.exit_kiosk_action = self._action("E&xit kiosk", "Ctrl+Shift+X", self.request_exit)
        self.refresh_action = self._action("&Refresh status", "F5", self.refresh_now, "syncing")
        self.sync_action = self._action("S&ync…", "Ctrl+Shift+S", self.open_sync_panel, "syncing")
        self.sync_action.setToolTip("Sync state and sync issues (Ctrl+Shift+S)")
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._spacer_action = self.switcher.addWidget(spacer)
        # Kiosk: the large status-bar pill is the way to the Sync panel; the toolbar keeps its room
        # for the workspaces and Lock / Sign out.
        tools = (self.settings_action, self.lock_action, self.sign_out_action)
        for a in tools if self.kiosk else (self.sync_action, *tools):
            self.switcher.addAction(a)
        self._signed_in_actions = (self.lock_action, self.sign_out_action, self.refresh_action, self.sync_action)
        for a in self._signed_in_actions:
            a.setEnabled(False)

    # --- runtime ------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._runtime_loader is not None:
            # After the first show: the loader's imports would otherwise compete with the first paint.
            loader, self._runtime_loader = self._runtime_loader, None
            QTimer.singleShot(
                0, lambda: self.ops.run(loader, on_success=self._runtime_loaded, on_failure=self._runtime_failed)
            )

    def _runtime_loaded(self, rt: Runtime) -> None:
        self._rt = rt
        self._rt_ready.set()
        self.runtime_ready.emit(rt)

    def _runtime_failed(self, exc: BaseException) -> None:
        self._rt_error = exc
        self._rt_ready.set()
        self.signin.show_message(f"The station's data could not be opened: {exc}", "error")

    def _wait_runtime(self) -> Runtime:
        """Worker threads only: the runtime once it is loaded."""
        self._rt_ready.wait(120)
        if self._rt is None:
            raise RuntimeError(f"station data not available: {self._rt_error}")
        return self._rt

    @property
    def runtime(self) -> Runtime | None:
        return self._rt

    # --- sign-in ----------------------------------------------------------------
    def _submit_sign_in(self, email: str, password: str, device: bool) -> None:
        self.signin.set_busy(True)
        self._device_signin = device
        wait = self._wait_runtime

        def work() -> StationSignIn:
            from services.core.station import sign_in

            return sign_in(wait(), email=email, password=password)

        self.ops.run(
            work,
            on_success=lambda res: self._signed_in(res, password),
            on_failure=self._sign_in_failed,
        )

    def _sign_in_failed(self, exc: BaseException) -> None:
        self.signin.set_busy(False)
        fields = field_messages(exc)
        if fields:
            self.signin.show_field_errors(fields)
            return
        message = getattr(exc, "message", None) or "Signing in failed; the problem was logged."
        if getattr(exc, "code", "") == "UNAUTHORIZED":
            message = "E-mail or password is not correct." if not self._device_signin else "Badge not accepted."
        self.signin.show_error(message)
        self.feedback_player.play(False)

    def _signed_in(self, result: StationSignIn, password: str) -> None:
        self._login = result.login
        self.prefs.set_last_email(result.login.email, device=self._device_signin)
        self._platform_login(result.login.email, password)
        choices = result.tenants
        if len(choices) == 1:
            self._open_tenant(choices[0].slug)
            return
        self.signin.set_busy(False)
        self.tenant_page.set_choices(
            [(c.slug, f"{c.name}  ·  {ROLE_LABELS.get(c.role, c.role)}", c.status, c.active) for c in choices]
        )
        self.pages.setCurrentWidget(self.tenant_page)

    def _open_tenant(self, slug: str) -> None:
        user_id = self._login.id
        wait = self._wait_runtime

        def work() -> tuple[TenantInfo, Principal]:
            from services.core.station import open_tenant

            return open_tenant(wait(), user_id, slug)

        page = self.pages.currentWidget()

        def failed(exc: BaseException) -> None:
            self.signin.set_busy(False)
            msg = getattr(exc, "message", None) or "Opening the tenant failed; the problem was logged."
            msg = msg[0].upper() + msg[1:]
            (self.tenant_page if page is self.tenant_page else self.signin).show_error(msg)
            self.feedback_player.play(False)

        self.ops.run(work, on_success=self._enter, on_failure=failed)

    def _enter(self, opened: tuple[TenantInfo, Principal]) -> None:
        from views.base import StationSession
        from views.shell.catalog import landing, workspaces_for

        tenant, principal = opened
        session = StationSession(
            runtime=self._wait_runtime(),
            tenant=tenant,
            principal=principal,
            ops=self.ops,
            token=self._login.token,
            prefs=self.prefs.as_dict(),
            feedback=self.notify,
        )
        session.prefs["online"] = self.connection == "online"
        available = workspaces_for(session)
        self.signin.set_busy(False)
        if not available:
            self.signin.show_error(
                f"No workspace on this station fits your access in {tenant.name} "
                f"(modules: {', '.join(sorted(principal.modules)) or 'none'}). Ask an administrator."
            )
            self.pages.setCurrentWidget(self.signin)
            return
        self.session = session
        self.workspace_classes = available
        self._build_switcher()
        self.user_label.setText(f"{principal.name or principal.email} · {ROLE_LABELS.get(principal.role or '', '')}")
        self.tenant_label.setText(tenant.name)
        for a in self._signed_in_actions:
            a.setEnabled(True)
        self.switcher.show()
        geometry = self.prefs.geometry(principal.id)
        if geometry is not None and not self.kiosk:
            self.restoreGeometry(geometry)
        name = landing(principal.role, list(available), self.prefs.last_workspace(principal.id))
        assert name is not None
        self.show_workspace(name)
        self.pages.setCurrentWidget(self.work)
        self.setWindowTitle(f"{APP_TITLE} — {tenant.name}")
        if self.kiosk:
            self.idle.start()
        self._refresh_timer.start()
        self._start_sync(session)
        self.refresh_status()
        if self.connection == "offline":
            self.notify(
                None,
                f"Signed in with this station's data: the platform at {self.platform_url} does not answer. "
                "Your changes are kept here and sent when it is back.",
            )
        self.signed_in.emit(name)

    def _build_switcher(self) -> None:
        for a in self.workspace_actions.values():
            self.workspace_group.removeAction(a)
            self.switcher.removeAction(a)
            self.removeAction(a)
        self.workspace_actions.clear()
        for i, (name, cls) in enumerate(self.workspace_classes.items(), start=1):
            a = QAction(icon(name), cls.title or name.title(), self)
            a.setCheckable(True)
            a.setShortcut(QKeySequence(f"Ctrl+{i}"))
            a.setToolTip(f"{cls.title} (Ctrl+{i})")
            a.setObjectName(f"switch-{name}")
            a.triggered.connect(lambda _c=False, n=name: self.show_workspace(n))
            self.workspace_group.addAction(a)
            self.switcher.insertAction(self._spacer_action, a)
            self.addAction(a)
            self.workspace_actions[name] = a
        for a in self.workspace_actions.values():
            btn = self.switcher.widgetForAction(a)
            if isinstance(btn, QToolButton):
                btn.setAccessibleName(f"{a.text()} workspace")
        # One workspace: no switcher buttons, just the tools.
        for a in self.workspace_actions.values():
            a.setVisible(len(self.workspace_actions) > 1)

    def show_workspace(self, name: str) -> None:
        if self.session is None or name not in self.workspace_classes:
            return
        ws = self.workspaces.get(name)
        if ws is None:
            cls = self.workspace_classes[name]
            try:
                ws = cls(self.session)
            except Exception:  # noqa: BLE001 - one broken workspace must not take the shell down
                log.exception("workspace %s failed to open", name)
                from views.shell.catalog import placeholder

                ws = placeholder(name)(self.session)
                self.notify(False, f"The {name} workspace failed to open; the problem was logged.")
            self.workspaces[name] = ws
            self.work.addWidget(ws)
        self.work.setCurrentWidget(ws)
        self.current_workspace = name
        self.workspace_actions[name].setChecked(True)
        self.prefs.set_last_workspace(self.session.principal.id, name)
        QTimer.singleShot(0, self.focus_primary)

    def focus_primary(self) -> None:
        ws = self.workspaces.get(self.current_workspace or "")
        if ws is not None and self.pages.currentWidget() is self.work:
            ws.focus_primary()

    # --- sign-out, lock, exit -----------------------------------------------------------
    def sign_out(self) -> None:
        if self.session is not None:
            if not self.kiosk:
                self.prefs.set_geometry(self.session.principal.id, self.saveGeometry())
            if self._login is not None:
                self._platform_logout(self.credentials.get(f"platform-token:{self._login.email}"))
                self.credentials.delete(f"platform-token:{self._login.email}")
        self.idle.stop()
        self._refresh_timer.stop()
        self._stop_sync()
        if self.sync_panel is not None:
            self.sync_panel.close()
            self.sync_panel.deleteLater()
            self.sync_panel = None
        for ws in self.workspaces.values():
            self.work.removeWidget(ws)
            ws.deleteLater()
        self.workspaces.clear()
        self.workspace_classes = {}
        self.current_workspace = None
        self.session = None
        self._login = None
        for a in self.workspace_actions.values():
            self.switcher.removeAction(a)
        self.workspace_actions.clear()
        for a in self._signed_in_actions:
            a.setEnabled(False)
        self.switcher.hide()
        self.user_label.clear()
        self.tenant_label.clear()
        self._set_feedback(None, "")
        self.setWindowTitle(APP_TITLE)
        self.signin.set_busy(False)
        self.signin.remember_emails(self.prefs.last_email(), self.prefs.last_email(device=True))
        self.pages.setCurrentWidget(self.signin)
        self.prefs.sync()
        self.signed_out.emit()

    @property
    def locked(self) -> bool:
        return self.pages.currentWidget() is self.lock_page

    def lock(self) -> None:
        if self.session is None or self.locked:
            return
        self.idle.timer.stop()
        self.switcher.setEnabled(False)
        self.lock_page.prepare(self.session.principal.name or self.session.principal.email or "")
        self.pages.setCurrentWidget(self.lock_page)
        self.lock_page.password.setFocus()

    def _unlock(self, password: str) -> None:
        if self.session is None:
            return
        email = self.session.principal.email or ""
        wait = self._wait_runtime

        def work() -> object:
            from services.core.station import sign_in

            return sign_in(wait(), email=email, password=password)

        def done(_r: object) -> None:
            self.switcher.setEnabled(True)
            self.pages.setCurrentWidget(self.work)
            if self.kiosk:
                self.idle.start()
            self.focus_primary()

        def failed(exc: BaseException) -> None:
            self.lock_page.show_error("Password not correct." if password else "Enter the password.")
            self.feedback_player.play(False)

        self.ops.run(work, on_success=done, on_failure=failed)

    def request_exit(self) -> None:
        """Leaving the kiosk needs the admin PIN; outside kiosk mode it just closes."""
        if not self.kiosk:
            self.close()
            return
        self._with_pin("Enter the admin PIN to leave kiosk mode.", self._exit_confirmed)

    def _exit_confirmed(self) -> None:
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

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if not self._may_close:
            event.ignore()
            self.request_exit()
            return
        if self.session is not None and not self.kiosk:
            self.prefs.set_geometry(self.session.principal.id, self.saveGeometry())
        self.prefs.sync()
        self.idle.stop()
        self._stop_sync()
        super().closeEvent(event)

    def show_for_mode(self) -> None:
        if self.kiosk:
            self.showFullScreen()
        else:
            self.show()

    # --- settings and theme -----------------------------------------------------------------
    def open_settings(self) -> None:
        if self.kiosk:
            self._with_pin("Enter the admin PIN to change the station settings.", self._open_settings_dialog)
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
        self.signin.set_scanner_suffix(self.prefs.get("scanner_suffix"))
        self.signin.subtitle.setText(f"Platform Station · {self.prefs.get('station_name')}")
        self.idle.set_timeout_ms(int(self.prefs.get("kiosk_idle_minutes")) * 60_000)
        if self.session is not None:
            self.session.prefs.update(self.prefs.as_dict())
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

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        # Kiosk: keyboard focus never gets lost (a scanner types into whatever has focus).
        if self.kiosk and new is None and self.session is not None and not self.locked:
            QTimer.singleShot(0, self.focus_primary)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and self.kiosk:
            QTimer.singleShot(0, self.focus_primary)

    # --- connection and sync status ------------------------------------------------------------
    @property
    def platform_url(self) -> str:
        return "" if self.offline else str(self.prefs.get("platform_url"))

    def refresh_status(self) -> None:
        self.refresh_outbox()
        self.check_platform()

    def refresh_now(self) -> None:
        """F5: the person asks; sync at once too."""
        self.refresh_status()
        self.wake_sync()

    def refresh_outbox(self) -> None:
        if self.session is None:
            return
        session = self.session

        def done(status: Any) -> None:
            if self.session is session:
                self.outbox_pending = int(status.pending)
                self._show_sync()

        self.ops.run(session.call("station.outbox_status"), on_success=done, on_failure=lambda e: None)

    def check_platform(self) -> None:
        url = self.platform_url
        if not url:
            self._set_connection("local", "")
            return
        from services.core import platform_client  # httpx: imported off the start-up path

        def answered(h: platform_client.Health) -> None:
            if url == self.platform_url:
                self._set_connection("online" if h.ok else "offline", h.detail)
                if h.ok and self.sync_status is not None and self.sync_status.state == "offline":
                    self.wake_sync()  # the platform is back: do not wait for the engine's back-off

        self.ops.run_async(
            lambda: platform_client.health(url),
            on_success=answered,
            on_failure=lambda e: self._set_connection("offline", type(e).__name__),
        )

    def _set_connection(self, state: str, detail: str) -> None:
        self.connection = state
        # Workspaces with a badge of their own (warehouse) say the same as the status bar.
        if self.session is not None:
            self.session.prefs["online"] = state == "online"
        for ws in self.workspaces.values():
            set_online = getattr(ws, "set_online", None)
            if callable(set_online):
                set_online(state == "online")
        url = self.platform_url
        if state == "online":
            self.signin.platform_line.setText(f"Platform {url} is reachable.")
        elif state == "offline":
            self.signin.platform_line.setText(
                f"The platform at {url} does not answer ({detail}). You can still sign in with this "
                "station's data; changes are kept and sent when it is back."
            )
        else:
            self.signin.platform_line.setText("No platform URL set: this station works on its own data.")
        self._show_sync()
        self.connection_changed.emit(state)

    def _show_sync(self) -> None:
        """The indicator: the engine's status where one runs, else reachability and the outbox count."""
        status = self.sync_status
        if status is None:
            label = {"online": "Online", "offline": "Offline", "local": "Local only"}[self.connection]
            text = label + ("" if self.outbox_pending is None else f" · {self.outbox_pending} pending")
            tone = "offline" if self.connection == "offline" else "neutral"
            icon_name = "online" if self.connection == "online" else "offline"
            shown = text
        else:
            # Imported here, not at start-up: no engine runs before someone signs in.
            from views.shell.sync_panel import TONE_ICONS, elide, status_text

            text, tone = status_text(status, self.outbox_pending)
            icon_name, shown = TONE_ICONS[tone], elide(text)
        issues = self.sync_issue_count
        issues_words = f"{issues:,} sync issue{'' if issues == 1 else 's'}"
        self.sync_summary = text + (f" · {issues_words}" if issues else "")
        self.sync_tone = tone
        theme = self.theme_name
        self.sync_label.setText(shown)
        self.sync_label.setIcon(icon(icon_name))
        self.sync_label.setStyleSheet(pill_css(tone, theme))
        self.sync_label.setAccessibleName(f"Sync: {self.sync_summary}")
        self.sync_label.setToolTip(
            f"{text}\nPlatform: {self.platform_url or 'not set'}. Changes waiting: {self.outbox_pending or 0}.\n"
            "Click (or Ctrl+Shift+S) for the Sync panel."
        )
        self.sync_issues.setText(issues_words)
        self.sync_issues.setStyleSheet(pill_css("warning", theme))
        self.sync_issues.setAccessibleName(f"{issues_words}: open the Sync panel")
        self.sync_issues.setVisible(issues > 0 and self.session is not None)
        # The status bar does not grow for a restyled child by itself: room for the whole pill.
        self.statusBar().setMinimumHeight(self.sync_label.sizeHint().height() + 8)
        self.sync_changed.emit()

    def set_sync_issue_count(self, n: int) -> None:
        """The Sync panel read the issues: the indicator says the same number at once."""
        if n != self.sync_issue_count:
            self.sync_issue_count = n
            self._show_sync()

    # --- the sync engine -------------------------------------------------------------------------
    def _start_sync(self, session: StationSession) -> None:
        """One engine for the entered tenant, on the app's asyncio loop; none without a loop (tests, shots)."""
        self._stop_sync()
        loop = self.ops.loop
        if loop is None or not loop.is_running() or self.offline:
            return
        from services.sync.engine import SyncEngine

        rt, tenant_id = session.runtime, session.tenant.id
        engine = SyncEngine(rt, tenant_id, interval=self.sync_interval)
        engine.on_status = lambda status: self._engine_status(engine, status)

        def committed(info: CommitInfo) -> None:
            # Worker threads: the engine lives on the loop, so wake it through the loop.
            if info.commands and info.tenant_id == tenant_id and not loop.is_closed():
                loop.call_soon_threadsafe(engine.wake)

        rt.after_commit.append(committed)
        self.sync_engine, self._sync_hook = engine, committed
        engine.start()

    def _stop_sync(self) -> None:
        engine, hook = self.sync_engine, self._sync_hook
        self.sync_engine, self._sync_hook = None, None
        self.sync_status, self.sync_issue_count = None, 0
        self._refetch.clear()
        self._refetch_rounds = 0
        if hook is not None and engine is not None and hook in engine.rt.after_commit:
            engine.rt.after_commit.remove(hook)
        loop = self.ops.loop
        if engine is not None and loop is not None and not loop.is_closed():
            task = loop.create_task(engine.stop())
            self._sync_stops.add(task)
            task.add_done_callback(self._sync_stops.discard)
        self._show_sync()

    async def sync_stopped(self) -> None:
        """Until every stopped engine has closed its connections (the app awaits this before exit)."""
        import asyncio

        if self._sync_stops:
            await asyncio.gather(*list(self._sync_stops), return_exceptions=True)

    def wake_sync(self) -> None:
        if self.sync_engine is not None:
            self.sync_engine.wake()

    def _engine_status(self, engine: SyncEngine, status: SyncStatus) -> None:
        if engine is not self.sync_engine:
            return  # a stopped engine's last words
        before = self.sync_status
        self.sync_status = status
        # The engine's counts where it read them anew (they changed, or a round just ended: it counts
        # right before "idle"); a mere state change carries older ones, and refresh_outbox may know
        # of a change committed since.
        ended = before is not None and status.state == "idle" and before.state != "idle"
        if before is None or ended or status.pending != before.pending:
            self.outbox_pending = status.pending
        if before is None or ended or status.issues != before.issues:
            self.sync_issue_count = status.issues
        self._show_sync()
        if status.state == "idle" and self.connection == "offline" and self.platform_url:
            self._set_connection("online", "")  # the engine just reached the platform: it answers
        if status.state == "idle" and (before is None or before.state != "idle"):
            if status.pulled:
                self.ops.did_change.emit("sync.pulled")  # the platform's changes arrived: views reload
            if self._refetch and self._refetch_rounds < REFETCH_ROUNDS:
                self._refetch_rounds += 1
                ids, self._refetch = sorted(self._refetch), set()
                self.fetch_theirs(ids, self._refetched)

    def _refetched(self, ok: bool) -> None:
        if ok:
            self._refetch_rounds = 0
            self.ops.did_change.emit("sync.fetched")

    def fetch_theirs(self, ids: list[str], on_done: Callable[[bool], None]) -> None:
        """Take the platform's version of these records (after "keep theirs" / "discard").

        Not possible while other changes wait to be sent, or offline: then after the next good round.
        """
        session = self.session
        if session is None:
            return
        engine = self.sync_engine
        rt, tenant_id = session.runtime, session.tenant.id

        async def fetch() -> bool:
            if engine is not None:
                return await engine.fetch_rows(ids)
            from services.sync.engine import SyncEngine

            once = SyncEngine(rt, tenant_id)  # no engine runs in this window (no loop): a one-off client
            try:
                return await once.fetch_rows(ids)
            finally:
                await once.stop()

        def done(ok: bool) -> None:
            if not ok:
                self._refetch.update(ids)
            on_done(ok)

        def failed(exc: BaseException) -> None:
            log.info("taking the platform's records failed: %s", error_message(exc))
            self._refetch.update(ids)
            on_done(False)

        self.ops.run_async(fetch, on_success=done, on_failure=failed)

    def open_sync_panel(self) -> None:
        if self.session is None:
            return
        if self.sync_panel is None:
            from views.shell.sync_panel import SyncPanel

            self.sync_panel = SyncPanel(self)
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
            elif result.status in (401, 403):
                self.notify(None, "Signed in here, but the platform refused these credentials; sync waits.")

        self.ops.run_async(
            lambda: platform_client.sign_in(url, email, password),
            on_success=answered,
            # Unreachable or odd answers: the station works on its own data; check_platform says so.
            on_failure=lambda e: log.info("platform sign-in failed: %s", type(e).__name__),
        )
