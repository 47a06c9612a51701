"""What every workspace gets from the shell, and what the shell expects of a workspace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from PySide6.QtWidgets import QWidget

from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime, TenantInfo
from views.ops import OpRunner


@dataclass
class StationSession:
    """The signed-in person on this station, in one tenant."""

    runtime: Runtime
    tenant: TenantInfo
    principal: Principal
    ops: OpRunner
    token: str | None = None
    prefs: dict[str, Any] = field(default_factory=dict)  # scanner suffix, sound, theme...
    # Set by the shell: shows success/failure in the status bar (colour + icon) and plays the sound.
    feedback: Callable[[bool, str], None] | None = None
    # The platform this station syncs with ("" when none), and the person's sign-in there (read from the
    # credential store when asked, never kept here): changes that carry a secret are made there, online.
    platform_url: str = ""
    platform_token: Callable[[], str | None] | None = None

    def ctx(self) -> Ctx:
        """A fresh call context (one per call: a Ctx holds its unit of work)."""
        return Ctx(self.runtime, self.tenant, self.principal)

    def call(self, op: str, **kwargs: Any) -> Callable[[], Any]:
        """A thunk that runs a declared operation; pass it to ``ops.run``."""
        return lambda: execute(self.ctx(), op, **kwargs)

    def may_use(self, module: str) -> bool:
        return module in self.principal.modules and module in self.tenant.modules

    def notify(self, ok: bool, message: str = "") -> None:
        """Tell the person a scan/action worked or failed (colour, icon, optional sound)."""
        if self.feedback is not None:
            self.feedback(ok, message)


class Workspace(QWidget):
    """Base of the per-role workspaces (warehouse, inspection, helpdesk, admin).

    Subclasses set ``name``, ``title`` and ``modules`` (the workspace is offered
    when the person may use any of them) and build their widgets in __init__.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    modules: ClassVar[frozenset[str]] = frozenset()
    roles: ClassVar[frozenset[str]] = frozenset({"owner", "admin", "operator", "warehouse-device"})

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName(f"workspace-{self.name}")
        self.setAccessibleName(self.title)
        session.ops.did_change.connect(self.on_data_changed)

    @classmethod
    def available_to(cls, session: StationSession) -> bool:
        return session.principal.role in cls.roles and any(session.may_use(m) for m in cls.modules)

    def focus_primary(self) -> None:
        """Put keyboard focus where work starts (the scanner input on a kiosk)."""
        self.setFocus()

    def on_data_changed(self, change: str) -> None:
        """Another view changed data: refresh what is shown (default: nothing)."""
