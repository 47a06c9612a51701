"""The sign-in screen (person or device), the tenant choice and the lock screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from views.shell.burst import BurstGuard
from views.shell.forms import with_error
from views.shell.theme import icon, set_role


def _card(parent: QWidget, width: int = 420) -> tuple[QFrame, QVBoxLayout]:
    """A centred card on a page (the page's layout keeps it in the middle)."""
    outer = QVBoxLayout(parent)
    outer.addStretch(1)
    row = QHBoxLayout()
    row.addStretch(1)
    card = QFrame()
    card.setObjectName("card")
    card.setMinimumWidth(width)
    card.setMaximumWidth(width + 120)
    row.addWidget(card)
    row.addStretch(1)
    outer.addLayout(row)
    outer.addStretch(2)
    lay = QVBoxLayout(card)
    lay.setContentsMargins(32, 28, 32, 28)
    lay.setSpacing(12)
    return card, lay


def _title(text: str, sub: str = "") -> tuple[QLabel, QLabel]:
    t = QLabel(text)
    set_role(t, "title")
    s = QLabel(sub)
    set_role(s, "subtitle")
    s.setWordWrap(True)
    return t, s


class _SuffixSubmit(QObject):
    """Scanners end a scan with Enter or Tab (settings): Tab submits too when so configured."""

    def __init__(self, target: QLineEdit, submit: object, suffix: str) -> None:
        super().__init__(target)
        self.submit = submit
        self.suffix = suffix
        target.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if (
            self.suffix == "tab"
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Tab
        ):
            self.submit()  # type: ignore[operator]
            return True
        return False


class SignInPage(QWidget):
    """E-mail and password, or (device mode) the station's device account and its badge/password."""

    submitted = Signal(str, str, bool)  # email, password, device mode
    settings_requested = Signal()

    def __init__(self, station_name: str = "Station", scanner_suffix: str = "enter") -> None:
        super().__init__()
        self.setObjectName("signin-page")
        self.setAccessibleName("Sign in")
        _card_frame, lay = _card(self)

        head = QHBoxLayout()
        logo = QLabel()
        logo.setPixmap(icon("logo").pixmap(QSize(40, 40)))
        head.addWidget(logo)
        self.title, self.subtitle = _title(
            self.tr("Sign in"), self.tr("Platform Station · {station_name}").format(station_name=station_name)
        )
        col = QVBoxLayout()
        col.setSpacing(0)
        col.addWidget(self.title)
        col.addWidget(self.subtitle)
        head.addLayout(col, 1)
        lay.addLayout(head)

        # Mode: a person, or a scanning station's device account.
        modes = QHBoxLayout()
        self.person_button = QPushButton(self.tr("&Person"))
        self.device_button = QPushButton(self.tr("&Device"))
        self.person_button.setToolTip(self.tr("Sign in with your e-mail and password (Alt+P)"))
        self.device_button.setToolTip(self.tr("Scanning station: the device account and its badge (Alt+D)"))
        self.mode_group = QButtonGroup(self)
        for b in (self.person_button, self.device_button):
            b.setCheckable(True)
            b.setAccessibleName(f"{b.text().replace('&', '')} sign-in")
            self.mode_group.addButton(b)
            modes.addWidget(b)
        self.person_button.setChecked(True)
        self.mode_group.buttonToggled.connect(lambda *_: self._mode_changed())
        lay.addLayout(modes)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        self.email = QLineEdit()
        # A hint in the person's language (German read "name@company.com").
        self.email.setPlaceholderText(self.tr("name@company.com"))
        self.email.setAccessibleName(self.tr("E-mail"))
        self.email.setInputMethodHints(Qt.InputMethodHint.ImhEmailCharactersOnly)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName(self.tr("Password"))
        email_box, self.email_error = with_error(self.email)
        pw_box, self.password_error = with_error(self.password)
        self.email_label = QLabel(self.tr("&E-mail"))
        self.email_label.setBuddy(self.email)
        self.password_label = QLabel(self.tr("Pass&word"))
        self.password_label.setBuddy(self.password)
        form.addRow(self.email_label, email_box)
        form.addRow(self.password_label, pw_box)
        lay.addLayout(form)

        self.button = QPushButton(self.tr("Sign in"))
        self.button.setProperty("primary", True)
        self.button.setDefault(True)
        self.button.setAccessibleName("Sign in")
        self.button.clicked.connect(self.submit)
        lay.addWidget(self.button)

        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Sign-in message")
        self.message.hide()
        lay.addWidget(self.message)

        self.platform_line = QLabel("")
        self.platform_line.setWordWrap(True)
        self.platform_line.setAccessibleName("Platform connection")
        set_role(self.platform_line, "subtitle")
        lay.addWidget(self.platform_line)

        self.settings_button = QPushButton(self.tr("Settings…"))
        self.settings_button.setFlat(True)
        self.settings_button.setAccessibleName("Station settings")
        self.settings_button.setToolTip(self.tr("Station settings (Ctrl+,)"))
        self.settings_button.clicked.connect(self.settings_requested.emit)
        lay.addWidget(self.settings_button, alignment=Qt.AlignmentFlag.AlignRight)

        self.email.returnPressed.connect(self.password.setFocus)
        self.password.returnPressed.connect(self.submit)
        self._suffix = _SuffixSubmit(self.password, self.submit, scanner_suffix)
        # A scan lands here only as a badge (device mode); otherwise it is taken out again.
        self.burst_guard = BurstGuard(
            self.password,
            lambda: self.device_mode,
            say=self.password_error.show_error,
            message=self.tr("Scan ignored: type your password, or choose Device to sign in with a badge."),
        )
        self.setTabOrder(self.email, self.password)
        self.setTabOrder(self.password, self.button)
        self.setTabOrder(self.button, self.person_button)
        self.setTabOrder(self.person_button, self.device_button)
        self.setTabOrder(self.device_button, self.settings_button)
        self._person_email = ""
        self._device_email = ""

    # --- modes ----------------------------------------------------------------
    @property
    def device_mode(self) -> bool:
        return self.device_button.isChecked()

    def set_device_mode(self, on: bool) -> None:
        (self.device_button if on else self.person_button).setChecked(True)

    def remember_emails(self, person: str, device: str) -> None:
        self._person_email, self._device_email = person, device
        self._mode_changed()

    def _mode_changed(self) -> None:
        device = self.device_mode
        self.email_label.setText(self.tr("Device &account") if device else self.tr("&E-mail"))
        self.password_label.setText(self.tr("&Badge") if device else self.tr("Pass&word"))
        self.email.setAccessibleName("Device account" if device else "E-mail")
        self.password.setAccessibleName("Badge" if device else "Password")
        self.password.setPlaceholderText(self.tr("Scan the station badge") if device else "")
        self.email.setText(self._device_email if device else self._person_email)
        self.password.clear()
        self.clear_errors()
        (self.password if self.email.text() else self.email).setFocus()

    def set_scanner_suffix(self, suffix: str) -> None:
        self._suffix.suffix = suffix

    # --- submit and feedback --------------------------------------------------
    def submit(self) -> None:
        if not self.button.isEnabled():
            return
        self.clear_errors()
        self.submitted.emit(self.email.text(), self.password.text(), self.device_mode)

    def set_busy(self, busy: bool) -> None:
        self.button.setEnabled(not busy)
        self.button.setText(self.tr("Signing in…") if busy else self.tr("Sign in"))

    def clear_errors(self) -> None:
        self.email_error.clear()
        self.password_error.clear()
        self.message.hide()

    def show_field_errors(self, fields: dict[str, str]) -> None:
        if "email" in fields:
            self.email_error.show_error(fields["email"])
            self.email.setFocus()
        if "password" in fields:
            self.password_error.show_error(fields["password"])
            if "email" not in fields:
                self.password.setFocus()

    def show_message(self, text: str, kind: str = "error") -> None:
        set_role(self.message, f"message-{kind}")
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_error(self, message: str) -> None:
        """The op runner's default presentation lands here (the sign-in message)."""
        self.show_message(message, "error")
        self.password.selectAll()
        self.password.setFocus()


class TenantPage(QWidget):
    """Choose one of several tenant memberships."""

    chosen = Signal(str)  # slug
    back = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("tenant-page")
        self.setAccessibleName("Choose a tenant")
        _frame, lay = _card(self, 460)
        self.title, self.subtitle = _title(
            self.tr("Choose a tenant"), self.tr("You belong to several; pick where to work now.")
        )
        lay.addWidget(self.title)
        lay.addWidget(self.subtitle)
        self.list = QListWidget()
        self.list.setAccessibleName("Tenants")
        self.list.itemActivated.connect(lambda _i: self._choose())
        lay.addWidget(self.list)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.hide()
        lay.addWidget(self.message)
        row = QHBoxLayout()
        self.back_button = QPushButton(self.tr("&Back"))
        self.back_button.clicked.connect(self.back.emit)
        self.continue_button = QPushButton(self.tr("&Continue"))
        self.continue_button.setProperty("primary", True)
        self.continue_button.setDefault(True)
        self.continue_button.clicked.connect(self._choose)
        row.addWidget(self.back_button)
        row.addStretch(1)
        row.addWidget(self.continue_button)
        lay.addLayout(row)

    def set_choices(self, choices: list[tuple[str, str, str, bool]]) -> None:
        """(slug, label, status, active); tenants that are not active are shown but cannot be chosen."""
        self.list.clear()
        self.message.hide()
        first: QListWidgetItem | None = None
        for slug, label, status, active in choices:
            item = QListWidgetItem(label if active else f"{label} — {status}")
            item.setData(Qt.ItemDataRole.UserRole, slug)
            if not active:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled & ~Qt.ItemFlag.ItemIsSelectable)
                item.setIcon(icon("warning"))
            self.list.addItem(item)
            if active and first is None:
                first = item
        if first is not None:
            self.list.setCurrentItem(first)
        self.list.setFocus()

    def _choose(self) -> None:
        item = self.list.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.show_error(self.tr("Choose an active tenant."))
            return
        self.chosen.emit(str(item.data(Qt.ItemDataRole.UserRole)))

    def show_error(self, message: str) -> None:
        set_role(self.message, "message-error")
        self.message.setText(message)
        self.message.show()


class LockPage(QWidget):
    """Shown after idle time on a kiosk: the signed-in person unlocks, or someone else signs in."""

    unlock = Signal(str)  # password
    sign_out = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("lock-page")
        self.setAccessibleName("Station locked")
        _frame, lay = _card(self)
        head = QHBoxLayout()
        pic = QLabel()
        pic.setPixmap(icon("lock").pixmap(QSize(40, 40)))
        head.addWidget(pic)
        self.title, self.subtitle = _title(self.tr("Locked"), "")
        col = QVBoxLayout()
        col.addWidget(self.title)
        col.addWidget(self.subtitle)
        head.addLayout(col, 1)
        lay.addLayout(head)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password to unlock")
        self.password.setPlaceholderText(self.tr("Password or badge"))
        box, self.password_error = with_error(self.password)
        lay.addWidget(box)
        row = QHBoxLayout()
        self.sign_out_button = QPushButton(self.tr("Sign &out"))
        self.sign_out_button.clicked.connect(self.sign_out.emit)
        self.unlock_button = QPushButton(self.tr("&Unlock"))
        self.unlock_button.setProperty("primary", True)
        self.unlock_button.setDefault(True)
        self.unlock_button.clicked.connect(self._unlock)
        self.password.returnPressed.connect(self._unlock)
        self.badge_unlocks = False  # a device session unlocks with its badge: a scan may go through
        self.burst_guard = BurstGuard(self.password, lambda: self.badge_unlocks, say=self.password_error.show_error)
        row.addWidget(self.sign_out_button)
        row.addStretch(1)
        row.addWidget(self.unlock_button)
        lay.addLayout(row)

    def prepare(self, who: str, badge: bool = False) -> None:
        self.badge_unlocks = badge
        how = self.tr("Scan the badge or enter the password") if badge else self.tr("Enter the password")
        self.subtitle.setText(self.tr("{who} was signed in. {how} to go on, or sign out.").format(who=who, how=how))
        self.password.clear()
        self.password_error.clear()
        self.password.setFocus()

    def _unlock(self) -> None:
        self.password_error.clear()
        self.unlock.emit(self.password.text())

    def show_error(self, message: str) -> None:
        self.password_error.show_error(message)
        self.password.selectAll()
        self.password.setFocus()
