"""The sign-in window (first version; the shell issue grows it into the full shell)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from services.core import service as core_service
from services.core.context import Runtime
from services.core.errors import ServiceError


class LoginWindow(QWidget):
    def __init__(self, rt: Runtime) -> None:
        super().__init__()
        self.rt = rt
        self.setWindowTitle("Platform Station — Sign in")
        self.email = QLineEdit()
        self.email.setPlaceholderText("name@company.com")
        self.email.setAccessibleName("E-mail")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.message = QLabel("")
        self.message.setAccessibleName("Sign-in message")
        self.button = QPushButton("Sign in")
        self.button.setDefault(True)
        self.button.clicked.connect(self.sign_in)
        self.password.returnPressed.connect(self.sign_in)
        title = QLabel("Sign in")
        title.setStyleSheet("font-size: 22pt; font-weight: 600;")
        form = QFormLayout()
        form.addRow("E-mail", self.email)
        form.addRow("Password", self.password)
        box = QVBoxLayout(self)
        box.addStretch(1)
        box.addWidget(title, alignment=Qt.AlignmentFlag.AlignHCenter)
        box.addLayout(form)
        box.addWidget(self.button)
        box.addWidget(self.message)
        box.addStretch(1)
        self.signed_in_as: str | None = None

    def sign_in(self) -> None:
        try:
            out = core_service.login(
                self.rt.db, self.rt.secret_key, self.email.text(), self.password.text(), self.rt.clock.now()
            )
        except ServiceError as exc:
            self.message.setText(exc.message)
            return
        self.signed_in_as = out.email
        self.message.setText(f"Signed in as {out.name}")
