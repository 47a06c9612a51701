"""What every workspace gets from the shell, and what the shell expects of a workspace."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from PySide6.QtWidgets import QWidget

from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime, TenantInfo
from services.core.roles import ANYONE
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

    def __post_init__(self) -> None:
        self.ops.watch(self.runtime)  # views learn what changed from the commits themselves

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
    The shell finds them (views.workspaces): a new workspace is a new package.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    modules: ClassVar[frozenset[str]] = frozenset()
    roles: ClassVar[frozenset[str]] = ANYONE
    # Place in the switcher (lower first; its Ctrl+<n> follows). Not "order": a workspace may show one.
    position: ClassVar[int] = 100
    # Roles that land here after sign-in, each with a rank: where several workspaces
    # claim a role, the lowest rank among those the person may use wins.
    landing: ClassVar[Mapping[str, int]] = {}
    # The workspace's documented keys, (QKeySequence text, what it does): the hint row, the docs'
    # tables and the key test read this one list, and the shell never takes one of these keys.
    keys: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName(f"workspace-{self.name}")
        self.setAccessibleName(self.title)
        session.ops.did_change.connect(self.on_data_changed)

    @classmethod
    def available_to(cls, session: StationSession) -> bool:
        return session.principal.role in cls.roles and any(session.may_use(m) for m in cls.modules)

    @classmethod
    def key_hints(cls) -> str:
        """The hint row: "F1 box S · F2 box M · ..." from ``keys``."""
        return " · ".join(f"{k} {what}" for k, what in cls.keys)

    def focus_primary(self) -> None:
        """Put keyboard focus where work starts (the scanner input on a kiosk)."""
        self.setFocus()

    def on_data_changed(self, change: str) -> None:
        """Another view changed data: refresh what is shown (default: nothing)."""
