"""Admin workspace (first version): the tenant's users and roles, enabled modules, API keys, webhook endpoints,
the scheduler's jobs, the audit log."""

from __future__ import annotations

from collections.abc import Callable, Coroutine

from pydantic import ValidationError
from PySide6.QtCore import QDateTime, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from services.core.context import MODULES, CommitInfo
from services.core.errors import ValidationFailed, validation_details
from services.core.pagination import ListQuery, Page
from services.core.roles import MANAGERS, ROLES
from services.core.schemas import ApiKeyCreate, ApiKeyCreated, ApiKeyOut, TenantModules, UserOut, UserUpdate
from services.core.service import UserQuery, get_tenant, list_api_keys, list_users, set_tenant_modules, update_user
from views.admin.audit import AuditPanel
from views.admin.scheduler import SchedulerPanel
from views.admin.users import AddUserDialog, InviteUserDialog, ResetPasswordDialog, invitation_call, role_words
from views.admin.webhooks import WebhooksPanel
from views.admin.widgets import Status as _Status
from views.admin.widgets import cell as _cell
from views.admin.widgets import rows as _rows
from views.admin.widgets import sentence as _sentence
from views.admin.widgets import table as _table
from views.admin.widgets import when as _when
from views.base import StationSession, Workspace
from views.ops import error_message
from views.records.words import QT_TRANSLATE_NOOP
from views.shell.forms import FieldError, field_messages, with_error
from views.shell.theme import icon, set_role

NO_PLATFORM = QT_TRANSLATE_NOOP(
    "ApiKeysPanel",
    "API keys are made on the platform, online, and this station works without one now (offline, or no "
    "platform URL in Settings). Create or revoke keys when it is connected.",
)


class UsersPanel(QWidget):
    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.users: list[UserOut] = []
        lay = QVBoxLayout(self)
        self.table = _table(
            [self.tr("Name"), self.tr("E-mail"), self.tr("Role"), self.tr("Modules"), self.tr("Status")],
            self.tr("Users"),
        )
        self.table.itemSelectionChanged.connect(self._selected)
        lay.addWidget(self.table, 1)
        edit = QGroupBox(self.tr("Selected user"))
        form = QHBoxLayout(edit)
        self.who = QLabel(self.tr("Select a user in the list."))
        self.role = QComboBox()
        self.role.setAccessibleName(self.tr("Role"))
        for r in ROLES:
            self.role.addItem(role_words(r), r)
        self.disabled = QCheckBox(self.tr("&Disabled"))
        self.user_modules = _module_list(self.tr("Modules of the selected user"))
        self.user_modules.setMaximumHeight(120)
        self.user_modules.setFlow(QListWidget.Flow.LeftToRight)
        self.user_modules.setWrapping(True)
        self.save = QPushButton(self.tr("&Save user"))
        self.save.setProperty("primary", True)
        self.save.clicked.connect(self.save_user)
        self.save.setEnabled(False)
        form.addWidget(self.who, 1)
        form.addWidget(QLabel(self.tr("Role")))
        form.addWidget(self.role)
        form.addWidget(self.disabled)
        form.addWidget(self.save)
        lay.addWidget(edit)
        lay.addWidget(self.user_modules)
        self.status = _Status(self.tr("User result"))
        lay.addWidget(self.status)
        more = QHBoxLayout()  # add a user and reset a password: views/admin/users.py
        self.add_user = QPushButton(self.tr("&Add user…"))
        self.add_user.clicked.connect(self.open_add_user)
        self.reset_password = QPushButton(self.tr("Reset &password…"))
        self.reset_password.clicked.connect(self.open_reset_password)
        # Invite: the person chooses their own password through a mailed link (resend, revoke).
        self.invite_user = QPushButton(self.tr("&Invite user…"))
        self.invite_user.clicked.connect(self.open_invite_user)
        self.resend = QPushButton(self.tr("Send in&vitation again"))
        self.resend.clicked.connect(lambda: self.invitation("POST", self.tr("Invitation sent again to {email}.")))
        self.revoke_invitation = QPushButton(self.tr("Revoke invi&tation"))
        self.revoke_invitation.clicked.connect(
            lambda: self.invitation("DELETE", self.tr("Invitation of {email} revoked."))
        )
        for b in (self.add_user, self.invite_user, self.reset_password, self.resend, self.revoke_invitation):
            more.addWidget(b)
        more.addStretch(1)
        lay.addLayout(more)
        if session.principal.role != "owner":
            # Only an owner grants the owner role (the service checks it too).
            self.role.model().item(0).setEnabled(False)  # type: ignore[attr-defined]

    def load(self) -> None:
        self.session.ops.run(
            self.session.call(list_users, query=UserQuery(limit=100)),
            on_success=self._show,
            parent=self.table,
        )

    def _show(self, page: Page[UserOut]) -> None:
        self.users = list(page.items)
        self.table.setRowCount(len(self.users))
        for row, u in enumerate(self.users):
            mods = (
                self.tr("all")
                if set(u.userModules) >= set(MODULES)
                else ", ".join(map(module_word, u.userModules)) or self.tr("none")
            )
            state = self.tr("disabled") if u.disabled else self.tr("active")
            for col, text in enumerate((u.name, u.email, role_words(u.role), mods, state)):
                self.table.setItem(row, col, _cell(text, u.id))

    def _selected(self) -> None:
        row = self.table.currentRow()
        if row < 0 or row >= len(self.users):
            self.save.setEnabled(False)
            return
        u = self.users[row]
        self.who.setText(f"{u.name} <{u.email}>")
        self.role.setCurrentIndex(max(0, self.role.findData(u.role)))
        self.disabled.setChecked(u.disabled)
        _tick(self.user_modules, set(u.userModules))
        self.save.setEnabled(True)
        self.status.say("")

    def open_add_user(self) -> AddUserDialog:
        def made(user: UserOut) -> None:
            self.status.say(self.tr("Added {email}.").format(email=user.email), "ok")
            self.load()

        dialog = AddUserDialog(
            self.session, lambda: _module_list(self.tr("Modules of the new user")), _ticked, made, self
        )
        dialog.open()
        return dialog

    def open_invite_user(self) -> InviteUserDialog:
        def made(user: UserOut) -> None:
            self.status.say(self.tr("Invitation mailed to {email}.").format(email=user.email), "ok")
            self.load()

        dialog = InviteUserDialog(
            self.session, lambda: _module_list(self.tr("Modules of the new user")), _ticked, made, self
        )
        dialog.open()
        return dialog

    def invitation(self, method: str, said: str) -> None:
        """Send the selected user's invitation again (POST) or revoke it (DELETE)."""
        row = self.table.currentRow()
        if row < 0 or row >= len(self.users):
            self.status.say(self.tr("Select a user first."))
            return
        u = self.users[row]
        op = "platform.users.invitation.resend" if method == "POST" else "platform.users.invitation.revoke"
        invitation_call(
            self.session,
            method,
            f"/{u.id}/invitation",
            op,
            None,
            lambda out: self.status.say(said.format(email=out.email), "ok"),
            lambda exc: self.status.say(error_message(exc)),
            user_id=u.id,
        )

    def open_reset_password(self) -> ResetPasswordDialog | None:
        row = self.table.currentRow()
        if row < 0 or row >= len(self.users):
            self.status.say(self.tr("Select a user first."))
            return None
        dialog = ResetPasswordDialog(
            self.session,
            self.users[row],
            lambda u: self.status.say(self.tr("New password set for {email}.").format(email=u.email), "ok"),
            self,
        )
        dialog.open()
        return dialog

    def save_user(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            self.status.say(self.tr("Select a user first."))
            return
        u = self.users[row]
        try:
            body = UserUpdate(
                role=self.role.currentData(), disabled=self.disabled.isChecked(), userModules=_ticked(self.user_modules)
            )
        except ValidationError as exc:
            self.status.say(str(validation_details(exc)))
            return
        self.session.ops.run(
            self.session.call(update_user, user_id=u.id, body=body),
            on_success=lambda out: self.status.say(self.tr("Saved {email}.").format(email=out.email), "ok"),
            on_failure=lambda exc: self.status.say(error_message(exc)),
        )


def module_word(module: str) -> str:
    """ "Fulfillment" / "Versand": the module's title as Records' module tree shows it."""
    from views.records.words import module_title

    return module_title(module)


def _module_list(name: str) -> QListWidget:
    """One tick box per module."""
    lst = QListWidget()
    lst.setAccessibleName(name)
    for m in MODULES:
        item = QListWidgetItem(module_word(m))  # the module's name in the person's words, its id as data
        item.setToolTip(m)
        item.setData(Qt.ItemDataRole.UserRole, m)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Unchecked)
        lst.addItem(item)
    return lst


def _ticked(lst: QListWidget) -> list[str]:
    return [
        str(lst.item(i).data(Qt.ItemDataRole.UserRole))
        for i in range(lst.count())
        if lst.item(i).checkState() == Qt.CheckState.Checked
    ]


def _tick(lst: QListWidget, wanted: set[str]) -> None:
    for i in range(lst.count()):
        item = lst.item(i)
        on = item.data(Qt.ItemDataRole.UserRole) in wanted
        item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)


class ModulesPanel(QWidget):
    """The tenant's modules: owners and admins turn them on and off (people keep their own lists)."""

    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        lay = QVBoxLayout(self)
        note = QLabel(
            self.tr(
                "Modules enabled for this tenant. A person uses a module when the tenant has it and "
                "their own module list includes it; a module turned off and on again comes back as it was."
            )
        )
        note.setWordWrap(True)
        set_role(note, "subtitle")
        lay.addWidget(note)
        self.list = _module_list(self.tr("Enabled modules"))
        _tick(self.list, set(session.tenant.modules))
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        self.save = QPushButton(self.tr("Save &modules"))
        self.save.setProperty("primary", True)
        self.save.clicked.connect(self.save_modules)
        row.addStretch(1)
        row.addWidget(self.save)
        lay.addLayout(row)
        self.status = _Status(self.tr("Modules result"))
        lay.addWidget(self.status)

    def load(self) -> None:
        self.session.ops.run(
            self.session.call(get_tenant),
            on_success=lambda t: _tick(self.list, set(t.modules)),
            parent=self.list,
        )

    def save_modules(self) -> None:
        chosen = _ticked(self.list)
        if not chosen:
            self.status.say(self.tr("Keep at least one module enabled."))
            return
        self.session.ops.run(
            self.session.call(set_tenant_modules, body=TenantModules(modules=chosen)),
            on_success=lambda t: self.status.say(self.tr("Saved: %n modules enabled.", "", len(t.modules)), "ok"),
            on_failure=lambda exc: self.status.say(error_message(exc)),
        )


class ApiKeysPanel(QWidget):
    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.keys: list[ApiKeyOut] = []
        lay = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setAccessibleName(self.tr("Where API keys are made"))
        set_role(self.where, "subtitle")
        lay.addWidget(self.where)
        self.table = _table(
            ["Name", "Prefix", "Env", "Modules", "Status", "Created", "Expires", "Last used"], "API keys"
        )
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.revoke = QPushButton(self.tr("&Revoke selected key"))
        self.revoke.setProperty("danger", True)
        self.revoke.clicked.connect(self.revoke_selected)
        row.addStretch(1)
        row.addWidget(self.revoke)
        lay.addLayout(row)

        create = QGroupBox(self.tr("New API key"))
        form = QFormLayout(create)
        self.name = QLineEdit()
        self.name.setAccessibleName(self.tr("Key name"))
        self.name.setPlaceholderText(self.tr("e.g. ERP integration"))
        self.environment = QComboBox()
        self.environment.setAccessibleName(self.tr("Environment"))
        self.environment.addItem(self.tr("live (pk_live_)"), "live")
        self.environment.addItem(self.tr("test (pk_test_)"), "test")
        self.modules = QListWidget()
        self.modules.setAccessibleName(self.tr("Key modules"))
        self.modules.setMaximumHeight(110)
        self.modules.setFlow(QListWidget.Flow.LeftToRight)
        self.modules.setWrapping(True)
        for m in sorted(session.tenant.modules):
            item = QListWidgetItem(m)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.modules.addItem(item)
        self.expires_on = QCheckBox(self.tr("E&xpires"))
        self.expires = QDateTimeEdit(QDateTime.currentDateTimeUtc().addDays(90))
        self.expires.setAccessibleName(self.tr("Expires at"))
        self.expires.setCalendarPopup(True)
        self.expires.setEnabled(False)
        self.expires_on.toggled.connect(self.expires.setEnabled)
        exp_row = QWidget()
        er = QHBoxLayout(exp_row)
        er.setContentsMargins(0, 0, 0, 0)
        er.addWidget(self.expires_on)
        er.addWidget(self.expires, 1)
        name_box, name_err = with_error(self.name)
        mod_box, mod_err = with_error(self.modules)
        exp_box, exp_err = with_error(exp_row)
        self.errors: dict[str, FieldError] = {"name": name_err, "modules": mod_err, "expires_at": exp_err}
        form.addRow(self.tr("&Name"), name_box)
        form.addRow(self.tr("&Environment"), self.environment)
        form.addRow(self.tr("&Modules"), mod_box)
        form.addRow(self.tr("Expiry"), exp_box)
        self.create_button = QPushButton(self.tr("&Create key"))
        self.create_button.setProperty("primary", True)
        self.create_button.clicked.connect(self.create_key)
        form.addRow("", self.create_button)
        self.status = _Status(self.tr("API key result"))
        form.addRow("", self.status)
        # Shown once after creation: the key value with a copy button.
        self.created_box = QGroupBox(self.tr("Copy the key now: it is shown only once"))
        cb = QHBoxLayout(self.created_box)
        self.created_key = QLineEdit()
        self.created_key.setReadOnly(True)
        self.created_key.setAccessibleName(self.tr("New API key value"))
        self.copy_button = QPushButton(icon("copy"), "C&opy")
        self.copy_button.setAccessibleName(self.tr("Copy the API key"))
        self.copy_button.clicked.connect(self.copy_key)
        self.done_button = QPushButton(self.tr("&Done"))
        self.done_button.clicked.connect(self.forget_key)
        cb.addWidget(self.created_key, 1)
        cb.addWidget(self.copy_button)
        cb.addWidget(self.done_button)
        self.created_box.hide()
        lay.addWidget(create)
        lay.addWidget(self.created_box)

    # --- where keys live: the platform this station syncs with (online), else this station alone ---------
    @property
    def on_platform(self) -> bool:
        return bool(self.session.platform_url)

    def _platform(self, method: str, path: str, body: object = None) -> Callable[[], Coroutine[object, None, object]]:
        """A platform route as the signed-in person (services.core.platform_client): made there, never queued."""
        from services.core import platform_client

        s = self.session
        url, token = s.platform_url, s.platform_token() if s.platform_token else None
        full = f"/api/tenants/{s.tenant.slug}/api-keys{path}"
        return lambda: platform_client.call(url, token, method, full, json=body)

    def load(self) -> None:
        if self.on_platform:
            where = self.tr("API keys are made on the platform ({url}), online: the key works as soon as it is shown.")
            self.where.setText(where.format(url=self.session.platform_url))
            s = self.session
            if not (s.platform_token() if s.platform_token else None):
                # The station signs in to the platform in the background after the sign-in here: until
                # that answer comes ("platform.signed_in" reloads this), there is nothing wrong to say.
                self.status.say(self.tr("Signing in to the platform to read its keys…"), "info")
                return
            self.session.ops.run_async(
                self._platform("GET", "?limit=100&sort=-created_at"),
                on_success=self._listed,
                on_failure=lambda exc: self.status.say(_sentence(error_message(exc))),
                parent=self.table,
            )
            return
        self.where.setText(self.tr(NO_PLATFORM))
        self.session.ops.run(
            self.session.call(list_api_keys, query=ListQuery(limit=100, sort="-created_at")),
            on_success=lambda page: self._show(list(page.items)),
            parent=self.table,
        )

    def _listed(self, data: object) -> None:
        self.status.say("")  # a message of an earlier read (before the platform sign-in) no longer holds
        self._show([ApiKeyOut.model_validate(k) for k in _rows(data)])

    def _show(self, keys: list[ApiKeyOut]) -> None:
        self.keys = keys
        self.table.setRowCount(len(self.keys))
        for row, k in enumerate(self.keys):
            cells = (
                k.name,
                k.prefix + "…",
                k.environment,
                ", ".join(k.modules),
                k.status,
                _when(k.created_at),
                _when(k.expires_at),
                _when(k.last_used_at),
            )
            for col, text in enumerate(cells):
                self.table.setItem(row, col, _cell(text, k.id))

    def _checked_modules(self) -> list[str]:
        out = []
        for i in range(self.modules.count()):
            item = self.modules.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(item.text())
        return out

    def create_key(self) -> None:
        for e in self.errors.values():
            e.clear()
        self.status.say("")
        raw: dict[str, object] = {
            "name": self.name.text(),
            "modules": self._checked_modules(),
            "environment": self.environment.currentData(),
        }
        if self.expires_on.isChecked():
            raw["expires_at"] = self.expires.dateTime().toUTC().toString(Qt.DateFormat.ISODate)
        try:
            body = ApiKeyCreate.model_validate(raw)
        except ValidationError as exc:
            self._field_errors(ValidationFailed("check the fields", validation_details(exc)))
            return
        if not self.on_platform:
            self.status.say(self.tr(NO_PLATFORM))
            return
        self.create_button.setEnabled(False)
        self.status.say(self.tr("Creating the key on the platform…"), "info")
        self.session.ops.run_async(
            self._platform("POST", "", body.model_dump(mode="json", exclude_none=True)),
            on_success=lambda data: self._created(ApiKeyCreated.model_validate(data)),
            on_failure=self._failed,
            parent=self.create_button,
        )

    def _field_errors(self, exc: BaseException) -> None:
        fields = field_messages(exc)
        shown = False
        for name, msg in fields.items():
            if name in self.errors:
                self.errors[name].show_error(msg)
                shown = True
        if not shown:
            self.status.say(_sentence(error_message(exc)))

    def _failed(self, exc: BaseException) -> None:
        self.create_button.setEnabled(True)
        self._field_errors(exc)

    def _created(self, out: ApiKeyCreated) -> None:
        self.create_button.setEnabled(True)
        self.created_key.setText(out.key)
        self.created_box.show()
        self.name.clear()
        self.status.say(self.tr("Key “{name}” created.").format(name=out.name), "ok")
        self.copy_button.setFocus()
        self.load()

    def copy_key(self) -> None:
        QApplication.clipboard().setText(self.created_key.text())
        self.status.say(self.tr("Key copied to the clipboard."), "ok")

    def forget_key(self) -> None:
        # Gone from the screen for good: the station keeps no copy.
        self.created_key.clear()
        self.created_box.hide()

    def revoke_selected(self) -> None:
        row = self.table.currentRow()
        if row < 0 or row >= len(self.keys):
            self.status.say(self.tr("Select a key in the list first."))
            return
        k = self.keys[row]
        if self.revoke.property("confirm") != k.id:
            # Two presses: a slip of the mouse does not cut off an integration.
            self.revoke.setProperty("confirm", k.id)
            self.revoke.setText(self.tr("Press again to revoke “{name}”").format(name=k.name))
            QTimer.singleShot(5000, self._reset_revoke)
            return
        self._reset_revoke()
        if not self.on_platform:
            self.status.say(self.tr(NO_PLATFORM))
            return
        self.session.ops.run_async(
            self._platform("DELETE", f"/{k.id}"),
            on_success=lambda data: self._revoked(ApiKeyOut.model_validate(data)),
            on_failure=lambda exc: self.status.say(_sentence(error_message(exc))),
            parent=self.revoke,
        )

    def _revoked(self, out: ApiKeyOut) -> None:
        self.status.say(self.tr("Key “{name}” revoked.").format(name=out.name), "ok")
        self.load()

    def _reset_revoke(self) -> None:
        self.revoke.setProperty("confirm", None)
        self.revoke.setText(self.tr("&Revoke selected key"))


class AdminWorkspace(Workspace):
    name = "admin"
    title = "Admin"
    modules = frozenset(MODULES)
    shows = frozenset({"platform.user"})
    roles = MANAGERS
    position = 90
    landing = {"owner": 1, "admin": 1}

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        head = QLabel(f"{session.tenant.name}")
        set_role(head, "title")
        enabled = self.tr("%n modules enabled", "", len(session.tenant.modules))
        sub = QLabel(self.tr("Tenant “{tenant}” · {modules}").format(tenant=session.tenant.slug, modules=enabled))
        set_role(sub, "subtitle")
        lay.addWidget(head)
        lay.addWidget(sub)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName(self.tr("Admin sections"))
        self.users = UsersPanel(session)
        self.modules_panel = ModulesPanel(session)
        self.tabs.addTab(self.users, icon("user"), self.tr("&Users"))
        self.tabs.addTab(self.modules_panel, icon("ok"), self.tr("&Modules"))
        self.api_keys: ApiKeysPanel | None = None
        if session.principal.role == "owner":  # API keys are the owner's (spec: Roles)
            self.api_keys = ApiKeysPanel(session)
            self.tabs.addTab(self.api_keys, icon("key"), self.tr("API &keys"))
        self.webhooks: WebhooksPanel | None = None
        if "events" in session.tenant.modules:
            self.webhooks = WebhooksPanel(session)
            self.tabs.addTab(self.webhooks, icon("online"), self.tr("We&bhooks"))
        self.scheduler = SchedulerPanel(session)
        self.tabs.addTab(self.scheduler, icon("syncing"), self.tr("Sc&heduler"))
        self.audit = AuditPanel(session)
        self.tabs.addTab(self.audit, icon("lock"), self.tr("Audit &log"))
        # Read when shown (and again each time): changes made elsewhere appear without a reload.
        self.tabs.currentChanged.connect(self._tab_shown)
        lay.addWidget(self.tabs, 1)
        self.reload()

    def _tab_shown(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.audit:
            self.audit.load()
        elif self.tabs.currentWidget() is self.scheduler:
            self.scheduler.load()  # the jobs' last runs move on by themselves

    def reload(self) -> None:
        self.users.load()
        self.modules_panel.load()
        if self.api_keys is not None:
            self.api_keys.load()
        if self.webhooks is not None:
            self.webhooks.load()
        self.scheduler.load()

    def on_changed(self, change: CommitInfo) -> None:
        if change.touches(frozenset({"platform.user"})):
            self.users.load()
        if "platform.signed_in" in change.changed:
            # The person's platform sign-in arrived: the platform's keys, audit log, endpoints and jobs can be read.
            if self.api_keys is not None:
                self.api_keys.load()
            if self.tabs.currentWidget() is self.audit:
                self.audit.load()
            if self.webhooks is not None:
                self.webhooks.load()
            self.scheduler.load()

    def focus_primary(self) -> None:
        self.users.table.setFocus()


WORKSPACE = AdminWorkspace
