"""Admin → Users: add a user and reset a password from the desktop.

Both carry a password, a secret: on a station linked to a platform they are made there, online,
as the signed-in person (``services.core.platform_client``), never queued in the outbox; on a
station without a platform, here. Errors come back on the fields and nothing is made.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QLocale, QSize, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from services.core.errors import ServiceError
from services.core.roles import ROLES
from services.core.schemas import UserOut
from views.base import StationSession
from views.i18n import LANGUAGES
from views.ops import error_message
from views.shell.forms import FieldError, field_messages, with_error
from views.shell.roles import role_label
from views.shell.theme import set_role


def run_on_platform_or_here(
    session: StationSession,
    method: str,
    path: str,
    op: str,
    body: dict[str, object],
    done: Callable[[UserOut], None],
    failed: Callable[[BaseException], None],
    **params: str,
) -> None:
    """A user change that carries a password: on the platform when the station has one, else here."""
    if session.platform_url:
        from services.core import platform_client

        token = session.platform_token() if session.platform_token else None
        full = f"/api/tenants/{session.tenant.slug}/users{path}"
        session.ops.run_async(
            lambda: platform_client.call(session.platform_url, token, method, full, json=body),
            on_success=lambda data: done(UserOut.model_validate(data)),
            on_failure=failed,
        )
        return
    session.ops.run(session.call(op, body=body, **params), on_success=done, on_failure=failed)


class _Dialog(QDialog):
    """A small form whose fields show the service's messages under them."""

    def __init__(self, title: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        self.errors: dict[str, FieldError] = {}
        self.message = QLabel("")
        self.message.setWordWrap(True)
        set_role(self.message, "message-error")
        self.message.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(self.form)
        lay.addWidget(self.message)
        lay.addWidget(self.buttons)

    def add(self, name: str, label: str, widget: QWidget) -> None:
        box, err = with_error(widget)
        first = not self.errors
        self.errors[name] = err
        self.form.addRow(label, box)
        if first:
            # The buttons are made before the fields, so Qt would give OK the focus and typing would
            # land nowhere: the first field takes it when the dialog opens (once it is in the dialog).
            widget.setFocus()
        # Tab runs down the fields and ends on the buttons, not the other way round.
        QWidget.setTabOrder(widget, self.buttons)

    def failed(self, error: BaseException) -> None:
        messages = field_messages(error)
        for name, err in self.errors.items():
            err.show_error(messages.pop(name, ""))
        text = error_message(error)
        self.message.setText(text)
        self.message.setVisible(bool(text))


def in_columns(lst: QListWidget, columns: int = 2) -> QListWidget:
    """The module ticks in ``columns`` columns, the list exactly as large as its rows: every module in
    sight, no scroll bar and no empty band (a list capped at 110 px scrolled its 16 modules while the
    dialog kept a tall empty row around it). Arrows move across and down; Space ticks."""
    lst.setFlow(QListView.Flow.LeftToRight)  # fill a row, then the next
    lst.setWrapping(True)
    lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    lst.ensurePolished()
    hints = [lst.sizeHintForIndex(lst.indexFromItem(lst.item(i))) for i in range(lst.count())]
    # A little room between the columns; the longest name (German ones are long) sets their width.
    cell = QSize(max((h.width() for h in hints), default=0) + 16, max((h.height() for h in hints), default=0) + 2)
    lst.setGridSize(cell)
    rows = math.ceil(lst.count() / columns)
    frame = 2 * lst.frameWidth()
    # (2 px more across: a view exactly as wide as its columns wraps the last one to a row of its own)
    lst.setFixedSize(columns * cell.width() + frame + 2, rows * cell.height() + frame)
    return lst


def _password() -> QLineEdit:
    edit = QLineEdit()
    edit.setEchoMode(QLineEdit.EchoMode.Password)
    edit.setAccessibleName(QCoreApplication.translate("admin", "Password"))
    return edit


class AddUserDialog(_Dialog):
    """E-mail, name, role, modules and a first password; the person changes it after signing in."""

    def __init__(
        self,
        session: StationSession,
        modules: Callable[[], QListWidget],
        ticked: Callable[[QListWidget], list[str]],
        done: Callable[[UserOut], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(self.tr("Add user"), parent)
        self.session = session
        self.ticked = ticked
        self.done_with = done
        self.email = QLineEdit()
        self.email.setAccessibleName(self.tr("E-mail"))
        self.name = QLineEdit()
        self.name.setAccessibleName(self.tr("Name"))
        self.role = QComboBox()
        self.role.setAccessibleName(self.tr("Role"))
        for r in ROLES:
            if r != "owner" or session.principal.role == "owner":  # only an owner makes an owner
                self.role.addItem(role_words(r), r)
        self.role.setCurrentIndex(max(0, self.role.findData("operator")))
        self.modules = in_columns(modules())
        self.password = _password()
        self.add("email", self.tr("&E-mail"), self.email)
        self.add("name", self.tr("&Name"), self.name)
        self.add("role", self.tr("&Role"), self.role)
        self.add("userModules", self.tr("&Modules"), self.modules)
        self.add("password", self.tr("&Password"), self.password)
        self.buttons.accepted.connect(self.submit)
        self.setMinimumWidth(520)  # the e-mail and name fields wide enough; the height is what the form needs

    def submit(self) -> None:
        body: dict[str, object] = {
            "email": self.email.text().strip(),
            "name": self.name.text().strip(),
            "role": self.role.currentData(),
            "userModules": self.ticked(self.modules),
            "password": self.password.text(),
        }
        run_on_platform_or_here(self.session, "POST", "", "platform.users.create", body, self._made, self.failed)

    def _made(self, user: UserOut) -> None:
        self.password.clear()
        self.accept()
        self.done_with(user)


class ResetPasswordDialog(_Dialog):
    """A new password for one user, typed twice (a typo would lock them out)."""

    def __init__(
        self, session: StationSession, user: UserOut, done: Callable[[UserOut], None], parent: QWidget | None = None
    ) -> None:
        super().__init__(self.tr("Reset the password of {name}").format(name=user.name), parent)
        self.session = session
        self.user = user
        self.done_with = done
        self.password = _password()
        self.again = _password()
        self.again.setAccessibleName(self.tr("Password again"))
        self.add("password", self.tr("New &password"), self.password)
        self.add("again", self.tr("&Again"), self.again)
        self.buttons.accepted.connect(self.submit)

    def submit(self) -> None:
        if self.password.text() != self.again.text():
            self.errors["again"].show_error(self.tr("The two passwords differ: type the same one twice."))
            return
        self.errors["again"].clear()
        run_on_platform_or_here(
            self.session,
            "PATCH",
            f"/{self.user.id}",
            "platform.users.update",
            {"password": self.password.text()},
            self._made,
            self.failed,
            user_id=self.user.id,
        )

    def _made(self, user: UserOut) -> None:
        self.password.clear()
        self.again.clear()
        self.accept()
        self.done_with(user)


class InviteUserDialog(AddUserDialog):
    """Like *Add user*, without a password: the person is mailed a link to choose their own
    (services/core/invitations.py); the user stays disabled until they have."""

    def __init__(
        self,
        session: StationSession,
        modules: Callable[[], QListWidget],
        ticked: Callable[[QListWidget], list[str]],
        done: Callable[[UserOut], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, modules, ticked, done, parent)
        self.setWindowTitle(self.tr("Invite user"))
        self.form.removeRow(self.form.rowCount() - 1)  # no password: the invited person chooses it
        self.errors.pop("password", None)
        # The mail's language: the invitee's; this station's own is the likely one.
        self.language = QComboBox()
        self.language.setAccessibleName(self.tr("Language of the mail"))
        for code in ("en", "de"):
            self.language.addItem(LANGUAGES[code], code)
        german = QLocale().language() == QLocale.Language.German
        self.language.setCurrentIndex(self.language.findData("de" if german else "en"))
        self.add("language", self.tr("&Language of the mail"), self.language)

    def submit(self) -> None:
        body: dict[str, object] = {
            "email": self.email.text().strip(),
            "name": self.name.text().strip(),
            "role": self.role.currentData(),
            "userModules": self.ticked(self.modules),
            "language": self.language.currentData(),
        }
        invitation_call(self.session, "POST", "/invitations", "platform.users.invite", body, self._invited, self.failed)

    def _invited(self, user: UserOut) -> None:
        self.accept()
        self.done_with(user)


def invitation_call(
    session: StationSession,
    method: str,
    path: str,
    op: str,
    body: dict[str, object] | None,
    done: Callable[[UserOut], None],
    failed: Callable[[BaseException], None],
    **params: str,
) -> None:
    """An invitation is mailed by the platform: made there when this station has one, here when this
    desktop is the platform's own database; a station without a platform says so and does nothing."""

    def user_of(data: object) -> UserOut:
        data = getattr(data, "user", None) or (data.get("user", data) if isinstance(data, dict) else data)
        return data if isinstance(data, UserOut) else UserOut.model_validate(data)

    if session.platform_url:
        from services.core import platform_client

        token = session.platform_token() if session.platform_token else None
        full = f"/api/tenants/{session.tenant.slug}/users{path}"
        session.ops.run_async(
            lambda: platform_client.call(session.platform_url, token, method, full, json=body),
            on_success=lambda data: done(user_of(data)),
            on_failure=failed,
        )
        return
    if session.runtime.is_station:
        why = QCoreApplication.translate("admin", "Invitations are mailed by the platform: link this station first.")
        failed(Unavailable(why))
        return
    session.ops.run(session.call(op, body=body, **params), on_success=lambda r: done(user_of(r)), on_failure=failed)


class Unavailable(ServiceError):
    """Not possible on this station (said as it is: views.wording adds no advice for this code)."""

    code = "UNAVAILABLE"
    status = 503


# A role as the person reads it: the sign-in's words ("Operator"), one map (the combo's data stays
# the role's name).
role_words = role_label
