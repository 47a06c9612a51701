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
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from views.credentials import CredentialStore
from views.ops import OpRunner
from views.shell.elided import ElidedLabel
from views.shell.kiosk import IdleWatcher, KioskExits, PinDialog
from views.shell.prefs import StationPrefs
from views.shell.roles import role_label
from views.shell.signin import LockPage, SignInPage, TenantPage
from views.shell.switch_keys import FIRST, REST, MoreButton, fit_toolbar, keys_of, next_of_rest, tooltip
from views.shell.sync_controller import SyncController
from views.shell.theme import Feedback, icon
from views.shell.window_signin import WindowSignIn
from views.shell.window_status import WindowStatus

if TYPE_CHECKING:
    from services.core.context import Principal, Runtime, TenantInfo
    from services.core.local_signin import LocalSignIn
    from services.core.schemas import LoginOut
    from views.base import StationSession, Workspace
    from views.shell.sync_panel import SyncPanel

DEFAULT_SIZE = (1280, 800)  # the first window on a station (then the size it was left at)
MIN_SIZE = (1024, 700)  # every workspace is readable from here up
log = logging.getLogger("views.shell")
APP_TITLE = "Platform Station"
HEALTH_TIMEOUT_MS = 3000


class ShellWindow(KioskExits, WindowStatus, WindowSignIn, QMainWindow):
    signed_in = Signal(str)  # the workspace landed in
    signed_out = Signal()
    connection_changed = Signal(str)  # "online", "offline", "local"
    runtime_ready = Signal(object)  # the station's Runtime, once loaded
    credentials_accepted = Signal(str)  # the e-mail of a sign-in whose password was accepted
    sync_changed = Signal()  # the sync indicator changed (engine status, outbox or issue count)

    def __init__(
        self,
        data_dir: Path,
        *,
        runtime: Runtime | None = None,
        runtime_loader: Callable[[], Runtime] | None = None,
        local_check: Callable[[str, str], LocalSignIn | None] | None = None,
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
        self.pin_dialog: PinDialog | None = None
        self._may_close = not kiosk
        self._login: LoginOut | None = None
        self._user: tuple[str, str] | None = None  # (id, e-mail) of the person signed in, from either check
        self._device_signin = False
        # Sync: the controller owns the engine (one per entered tenant, only where an asyncio loop
        # runs: the desktop app); the status bar and the Sync panel display it.
        self.sync = SyncController(self.ops, lambda: str(self.prefs.get("platform_url")), offline=offline, parent=self)
        self.sync_panel: SyncPanel | None = None
        self._offline_notice = ""

        # The runtime: given (tests, screenshots) or loaded off the UI thread.
        self._rt: Runtime | None = runtime
        self._rt_ready = threading.Event()
        self._rt_error: BaseException | None = None
        if runtime is not None:
            self._rt_ready.set()
        self._runtime_loader = runtime_loader
        # The sign-in check on the station's own file while the runtime still loads (app/desktop.py).
        self._local_check = local_check

        self.setWindowTitle(APP_TITLE)
        self.setWindowIcon(icon("logo"))
        self.setObjectName("shell")
        self.setMinimumSize(QSize(*MIN_SIZE))
        if kiosk:
            self.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)

        self.pages = QStackedWidget()
        self.pages.setObjectName("shell-pages")
        self.signin = SignInPage(str(self.prefs.get("station_name")), str(self.prefs.get("scanner_suffix")))
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
        self.ops.changed.connect(lambda _c: self.sync.refresh_outbox())
        self.sync.changed.connect(self._show_sync)
        self.sync.connection_changed.connect(self._connection_shown)
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
        self.feedback_label = ElidedLabel("")  # a long message ends in "…", not cut mid-word
        self.feedback_label.setAccessibleName("Last result")
        # Ignored: a long message is cut, it never pushes the sync indicator aside (the tooltip has it all).
        self.feedback_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
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
        self.last_feedback: tuple[bool | None, str] = (None, "")

    def _action(
        self, text: str, shortcut: str | QKeySequence, slot: Callable[[], object], icon_name: str = ""
    ) -> QAction:
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
        self.settings_action = self._action(self.tr("&Settings"), "Ctrl+,", self.open_settings, "settings")
        self.lock_action = self._action(self.tr("&Lock"), "Ctrl+L", self.lock, "lock")
        self.sign_out_action = self._action(self.tr("Sign &out"), "Ctrl+Shift+Q", self.sign_out, "signout")
        self.quit_action = self._action(self.tr("&Quit"), "Ctrl+Q", self.request_quit)
        self.exit_kiosk_action = self._action(self.tr("E&xit kiosk"), "Ctrl+Shift+X", self.request_exit)
        # Not F5: function keys belong to the workspaces (F5 ships in the warehouse, refreshes queues elsewhere).
        self.refresh_action = self._action(self.tr("&Refresh status"), "Ctrl+Shift+R", self.refresh_now, "syncing")
        self.sync_action = self._action(self.tr("S&ync…"), "Ctrl+Shift+S", self.open_sync_panel, "syncing")
        self.sync_action.setToolTip(self.tr("Sync state and sync issues (Ctrl+Shift+S)"))
        # Workspaces that do not fit a narrow window (an owner has a dozen) wait in a "More" menu,
        # their Ctrl+N shortcuts still working (they stay actions of the window).
        self.more_menu = QMenu(self.tr("More workspaces"), self)
        self.more_menu.setToolTipsVisible(True)  # each workspace's tooltip says its keys
        more = MoreButton(self.tr("More"), self.more_menu)  # a Tab stop; Enter opens the menu
        more.setIcon(icon("more"))
        more.setToolTip(self.tr("More workspaces"))
        more.setAccessibleName("More workspaces")
        self.rest_action = self._action("", REST, self._open_rest)  # the tenth workspace, again: the next
        self.more_button = more
        self._more_action = self.switcher.addWidget(more)
        self._more_action.setVisible(False)
        self._overflow: list[QAction] = []
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._spacer_action = self.switcher.addWidget(spacer)
        # Kiosk: the large status-bar pill is the way to the Sync panel; the toolbar keeps its room
        # for the workspaces and Lock / Sign out.
        tools = (self.settings_action, self.lock_action, self.sign_out_action)
        self._tool_actions = tools if self.kiosk else (self.sync_action, *tools)
        for a in self._tool_actions:
            self.switcher.addAction(a)
        self._signed_in_actions = (self.lock_action, self.sign_out_action, self.refresh_action, self.sync_action)
        for a in self._signed_in_actions:
            a.setEnabled(False)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_toolbar()

    def _fit_toolbar(self) -> None:
        fit_toolbar(self)  # views/shell/switch_keys.py: names kept, the last ones to "More"

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
        self.signin.show_message(self.tr("The station's data could not be opened: {exc}").format(exc=exc), "error")

    def _wait_runtime(self) -> Runtime:
        """Worker threads only: the runtime once it is loaded."""
        self._rt_ready.wait(120)
        if self._rt is None:
            raise RuntimeError(f"station data not available: {self._rt_error}")
        return self._rt

    @property
    def runtime(self) -> Runtime | None:
        return self._rt

    def _enter(self, opened: tuple[TenantInfo, Principal, LoginOut]) -> None:
        from views.base import StationSession
        from views.shell.catalog import landing, workspaces_for

        tenant, principal, login = opened
        if self._user is None or self._user[0] != login.id:
            return  # signed out while the tenant opened
        self._login = login
        from services.core.links import use_platform_address  # the service layer: loaded by now

        use_platform_address(self._wait_runtime(), str(self.prefs.get("platform_url")))
        session = StationSession(
            runtime=self._wait_runtime(),
            tenant=tenant,
            principal=principal,
            ops=self.ops,
            token=login.token,
            prefs=self.prefs.as_dict(),
            feedback=self.notify,
            platform_url=self.platform_url,
            platform_token=self._platform_token(login.email),
            open_workspace=self.open_workspace,
        )
        session.prefs["online"] = self.connection == "online"
        available = workspaces_for(session)
        self.signin.set_busy(False)
        if not available:
            self.signin.show_error(
                self.tr(
                    "No workspace on this station fits your access in {tenant.name} (modules: {value}). Ask an administrator."
                ).format(tenant=tenant, value=", ".join(sorted(principal.modules)) or "none")
            )
            self.pages.setCurrentWidget(self.signin)
            return
        self.session = session
        self.workspace_classes = available
        self._build_switcher()
        self.user_label.setText(f"{principal.name or principal.email} · {role_label(principal.role or '')}")
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
        self.sync.start(session)
        self.refresh_status()
        if self.connection == "offline":
            self._offline_notice = self.tr(
                "Signed in with this station's data: the platform at {platform_url} does not answer. Your changes are kept here and sent when it is back."
            ).format(platform_url=self.platform_url)
            self.notify(None, self._offline_notice)
        self.signed_in.emit(name)

    def _platform_token(self, email: str) -> Callable[[], str | None]:
        return lambda: self.credentials.get(f"platform-token:{email}")

    def _build_switcher(self) -> None:
        from views.base import shown_title

        for a in self.workspace_actions.values():
            self.workspace_group.removeAction(a)
            self.switcher.removeAction(a)
            self.more_menu.removeAction(a)
            self.removeAction(a)
        self.workspace_actions.clear()
        self._overflow.clear()
        for i, (name, cls) in enumerate(self.workspace_classes.items(), start=1):
            a = QAction(icon(name), shown_title(cls) or name.title(), self)
            a.setCheckable(True)
            if i <= FIRST:  # Ctrl+1 to Ctrl+9; the tenth on is Ctrl+0, pressed again for the next
                a.setShortcut(QKeySequence(keys_of(i)))
            a.setToolTip(tooltip(shown_title(cls), i))
            a.setObjectName(f"switch-{name}")
            a.triggered.connect(lambda _c=False, n=name: self.show_workspace(n))
            self.workspace_group.addAction(a)
            self.switcher.insertAction(self._more_action, a)
            self.addAction(a)
            self.workspace_actions[name] = a
        for a in self.workspace_actions.values():
            btn = self.switcher.widgetForAction(a)
            if isinstance(btn, QToolButton):
                btn.setAccessibleName(f"{a.text()} workspace")
        # One workspace: no switcher buttons, just the tools.
        for a in self.workspace_actions.values():
            a.setVisible(len(self.workspace_actions) > 1)
        self._fit_toolbar()

    def _open_rest(self) -> None:
        if (name := next_of_rest(list(self.workspace_actions), self.current_workspace)) is not None:
            self.show_workspace(name)

    def open_workspace(self, name: str) -> Workspace | None:
        """Switch to a workspace and hand it back (a dashboard's bar opens Records on its rows)."""
        self.show_workspace(name)
        return self.workspaces.get(name) if self.current_workspace == name else None

    def show_workspace(self, name: str) -> None:
        if self.session is None or name not in self.workspace_classes:
            return
        if name != self.current_workspace:
            # The status line spoke of the workspace being left ("Count dropped…" under Helpdesk).
            self._set_feedback(None, "")
        ws = self.workspaces.get(name)
        if ws is None:
            cls = self.workspace_classes[name]
            try:
                ws = cls(self.session)
            except Exception:  # noqa: BLE001 - one broken workspace must not take the shell down
                log.exception("workspace %s failed to open", name)
                from views.shell.catalog import placeholder

                ws = placeholder(name)(self.session)
                self.notify(
                    False, self.tr("The {name} workspace failed to open; the problem was logged.").format(name=name)
                )
            self.workspaces[name] = ws
            self.work.addWidget(ws)
        self.work.setCurrentWidget(ws)
        self.current_workspace = name
        self._yield_keys(type(ws))
        self.workspace_actions[name].setChecked(True)
        self._fit_toolbar()  # the open workspace keeps its name on a narrow toolbar
        self.prefs.set_last_workspace(self.session.principal.id, name)
        QTimer.singleShot(0, self.focus_primary)

    def _yield_keys(self, cls: type[Workspace]) -> None:
        """A workspace's documented keys win: a shell action on one of them gives it up while it shows."""
        taken = {QKeySequence(k).toString() for k, _what in cls.keys}
        for a in self.actions():
            own = a.property("shell_shortcut")
            if own is None:
                a.setProperty("shell_shortcut", a.shortcut().toString())
                own = a.shortcut().toString()
            a.setShortcut(QKeySequence() if own in taken else QKeySequence(own))

    def focus_primary(self) -> None:
        ws = self.workspaces.get(self.current_workspace or "")
        if ws is not None and self.pages.currentWidget() is self.work:
            ws.focus_primary()

    # --- sign-out, lock, exit -----------------------------------------------------------
    def sign_out(self) -> None:
        if self.session is not None:
            if not self.kiosk:
                self.prefs.set_geometry(self.session.principal.id, self.saveGeometry())
            if self._user is not None:
                self._platform_logout(self.credentials.get(f"platform-token:{self._user[1]}"))
                self.credentials.delete(f"platform-token:{self._user[1]}")
        self.idle.stop()
        self._refresh_timer.stop()
        self.sync.stop()
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
        self._user = None
        for a in self.workspace_actions.values():
            self.switcher.removeAction(a)
            self.more_menu.removeAction(a)
        self.workspace_actions.clear()
        self._overflow.clear()
        self._more_action.setVisible(False)
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
        self.lock_page.prepare(self.session.principal.name or self.session.principal.email or "", self._device_signin)
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
            self.lock_page.show_error(self.tr("Password not correct.") if password else self.tr("Enter the password."))
            self.feedback_player.play(False)

        self.ops.run(work, on_success=done, on_failure=failed)

    def leave_kiosk(self) -> None:
        """The same session goes on in a framed window: the idle lock stops, Sync is back on the
        toolbar, the normal theme applies. Quitting is then a plain close."""
        self.kiosk = False
        self._may_close = True
        self.idle.stop()
        self.exit_kiosk_action.setEnabled(False)
        if self.sync_action not in self.switcher.actions():
            self.switcher.insertAction(self.settings_action, self.sync_action)
        self._tool_actions = (self.sync_action, *self._tool_actions)
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint, False)
        self.apply_theme()
        self.showNormal()
        self.show_for_mode()
        self.notify(True, self.tr("Kiosk mode left: this is a normal window now."))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if not self._may_close:
            event.ignore()
            self.request_quit()
            return
        if self.session is not None and not self.kiosk:
            self.prefs.set_geometry(self.session.principal.id, self.saveGeometry())
        if not self.kiosk:
            self.prefs.qs.setValue("window/geometry", self.saveGeometry())
        self.prefs.sync()
        self.idle.stop()
        self.sync.stop()
        super().closeEvent(event)

    def show_for_mode(self) -> None:
        if self.kiosk:
            self.showFullScreen()
            return
        # The size this station's window had last time, or a sensible first size (never over the screen).
        geometry = self.prefs.qs.value("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            avail = self.screen().availableGeometry()
            self.resize(min(DEFAULT_SIZE[0], avail.width()), min(DEFAULT_SIZE[1], avail.height()))
        self.show()

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        # Kiosk: keyboard focus never gets lost (a scanner types into whatever has focus).
        if self.kiosk and new is None and self.session is not None and not self.locked:
            QTimer.singleShot(0, self.focus_primary)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and self.kiosk:
            QTimer.singleShot(0, self.focus_primary)
