"""The shell window's sign-in: the password checked (on the station's own file while the service
layer still loads, else through it), the tenant chosen and opened.
A part of ``ShellWindow`` (views.shell.window), kept in a file of its own: the attributes it reads
are the window's, declared below for the type checker. Its texts keep the window's translation
context ("ShellWindow").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, SignalInstance
from PySide6.QtWidgets import QMainWindow, QStackedWidget

from views.ops import OpRunner
from views.shell.forms import field_messages
from views.shell.prefs import StationPrefs
from views.shell.roles import role_label
from views.shell.signin import SignInPage, TenantPage
from views.shell.theme import Feedback

if TYPE_CHECKING:
    from services.core.context import Principal, Runtime, TenantInfo
    from services.core.local_signin import LocalSignIn, TenantChoice
    from services.core.schemas import LoginOut
    from services.core.station import StationSignIn

if TYPE_CHECKING:  # the window these methods belong to (a mixin of it at run time)
    _Base = QMainWindow
else:
    _Base = object


class WindowSignIn(_Base):
    """Signing in and opening a tenant (a mixin of ``ShellWindow``)."""

    signin: SignInPage
    tenant_page: TenantPage
    pages: QStackedWidget
    ops: OpRunner
    prefs: StationPrefs
    feedback_player: Feedback
    credentials_accepted: SignalInstance
    _rt: Runtime | None
    _local_check: Callable[[str, str], LocalSignIn | None] | None
    _device_signin: bool
    _login: LoginOut | None
    _user: tuple[str, str] | None

    if TYPE_CHECKING:  # the window's own methods (ShellWindow, WindowStatus)

        def _wait_runtime(self) -> Runtime: ...
        def _platform_login(self, email: str, password: str) -> None: ...
        def _enter(self, opened: tuple[TenantInfo, Principal, LoginOut]) -> None: ...

    def _submit_sign_in(self, email: str, password: str, device: bool) -> None:
        self.signin.set_busy(True)
        self._device_signin = device
        check = self._local_check
        if self._rt is None and check is not None:
            # The password is checked on the station's own file at once; the service layer goes
            # on loading meanwhile and is awaited when the tenant opens (issue 38).
            self.ops.run(
                lambda: check(email, password),
                on_success=lambda res: (
                    self._full_sign_in(email, password) if res is None else self._locally_signed_in(res, password)
                ),
                on_failure=self._sign_in_failed,
            )
            return
        self._full_sign_in(email, password)

    def _full_sign_in(self, email: str, password: str) -> None:
        """The sign-in through the service layer (waiting for it while it still loads)."""
        if self._rt is None:  # a first start still makes the station's data: say why they wait
            self.signin.show_message(
                QCoreApplication.translate("ShellWindow", "Opening this station's data: the first start takes longer…"),
                "info",
            )
        wait = self._wait_runtime

        def work() -> StationSignIn:
            # The runtime first, then the import: the loader thread imports the service layer
            # meanwhile, and a second thread importing it at the same time can meet a module
            # half made (pydantic's, under shiboken's import hook: an ImportError).
            rt = wait()
            from services.core.station import sign_in

            return sign_in(rt, email=email, password=password)

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
        message = getattr(exc, "message", None) or QCoreApplication.translate(
            "ShellWindow", "Signing in failed; the problem was logged."
        )
        if getattr(exc, "code", "") == "UNAUTHORIZED":
            message = (
                QCoreApplication.translate("ShellWindow", "E-mail or password is not correct.")
                if not self._device_signin
                else QCoreApplication.translate("ShellWindow", "Badge not accepted.")
            )
        self.signin.show_error(message)
        self.feedback_player.play(False)

    def _locally_signed_in(self, result: LocalSignIn, password: str) -> None:
        self._accepted(result.user_id, result.email, password, result.tenants)

    def _signed_in(self, result: StationSignIn, password: str) -> None:
        self._login = result.login
        self._accepted(result.login.id, result.login.email, password, result.tenants)

    def _accepted(self, user_id: str, email: str, password: str, choices: list[TenantChoice]) -> None:
        self._user = (user_id, email)
        self.prefs.set_last_email(email, device=self._device_signin)
        self._platform_login(email, password)
        self.credentials_accepted.emit(email)
        if len(choices) == 1:
            self._open_tenant(choices[0].slug)
            return
        self.signin.set_busy(False)
        self.tenant_page.set_choices(
            [(c.slug, f"{c.name}  ·  {role_label(c.role)}", c.status, c.active) for c in choices]
        )
        self.pages.setCurrentWidget(self.tenant_page)

    def _open_tenant(self, slug: str) -> None:
        if self._user is None:
            return  # signed out meanwhile
        user_id = self._user[0]
        login = self._login
        wait = self._wait_runtime
        if self._rt is None:  # accepted by the station's own file: its data still opens
            self.signin.show_message(
                QCoreApplication.translate("ShellWindow", "Opening this station's data: the first start takes longer…"),
                "info",
            )

        def work() -> tuple[TenantInfo, Principal, LoginOut]:
            rt = wait()  # before the import: see _full_sign_in
            from services.core.station import open_tenant, session_for

            tenant, principal = open_tenant(rt, user_id, slug)
            # A sign-in accepted before the service layer loaded gets its session now.
            return tenant, principal, login or session_for(rt, user_id)

        page = self.pages.currentWidget()

        def failed(exc: BaseException) -> None:
            self.signin.set_busy(False)
            msg = getattr(exc, "message", None) or QCoreApplication.translate(
                "ShellWindow", "Opening the tenant failed; the problem was logged."
            )
            msg = msg[0].upper() + msg[1:]
            (self.tenant_page if page is self.tenant_page else self.signin).show_error(msg)
            self.feedback_player.play(False)

        self.ops.run(work, on_success=self._enter, on_failure=failed)
