"""What every workspace gets from the shell, and what the shell expects of a workspace."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Concatenate, ParamSpec, TypeVar, overload

from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QBoxLayout, QLayout, QSizePolicy, QWidget

from services.core.bodies import validate_body
from services.core.commands import Operation, declaration_of, execute
from services.core.context import CommitInfo, Ctx, Principal, Runtime, TenantInfo
from services.core.errors import ServiceError
from services.core.roles import ANYONE
from views.ops import OpRunner, announced, error_message, show_error

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)


@dataclass
class StationSession:
    """The signed-in person on this station, in one tenant."""

    runtime: Runtime
    tenant: TenantInfo
    principal: Principal
    ops: OpRunner
    token: str | None = None
    prefs: dict[str, str | int | bool] = field(default_factory=dict)  # scanner suffix, sound, theme...
    # Set by the shell: shows success/failure in the status bar (colour + icon) and plays the sound.
    feedback: Callable[[bool, str], None] | None = None
    # The platform this station syncs with ("" when none), and the person's sign-in there (read from the
    # credential store when asked, never kept here): changes that carry a secret are made there, online.
    platform_url: str = ""
    platform_token: Callable[[], str | None] | None = None
    # Set by the shell: switch to a workspace by name and answer it (None where it is not offered).
    open_workspace: Callable[[str], Workspace | None] | None = None

    def __post_init__(self) -> None:
        self.ops.watch(self.runtime)  # views learn what changed from the commits themselves

    def ctx(self) -> Ctx:
        """A fresh call context (one per call: a Ctx holds its unit of work)."""
        return Ctx(self.runtime, self.tenant, self.principal)

    @overload
    def call(self, op: Callable[Concatenate[Ctx, P], R], /, *args: P.args, **kwargs: P.kwargs) -> Callable[[], R]: ...

    # A declaration or a name is typed at run time only (the records workspace lists any use case): Any.
    @overload
    def call(self, op: Operation | str, /, **kwargs: Any) -> Callable[[], Any]: ...

    # Any: the arguments go on to ``execute`` as the overloads above typed them.
    def call(self, op: object, /, *args: object, **kwargs: Any) -> Callable[[], object]:
        """A thunk that runs a use case; pass it to ``ops.run``.

        Name it by its service function (``session.call(orders.get_order, id=oid)``): the request's
        types (path parameters, ``body=`` and ``query=`` models) and the result's are the function's
        own. A declaration (``Operation``) serves the views that list use cases generically (records);
        a name, scripts and tests. Arguments go by name, as the HTTP door passes them."""
        if args:
            raise TypeError("pass a use case's arguments by name (id=..., body=..., query=...)")
        if isinstance(op, Operation | str):
            declared: Operation | str = op
        elif callable(op):
            declared = declaration_of(op)
        else:
            raise TypeError(f"a use case is named by its service function, not {op!r}")
        return lambda: execute(self.ctx(), declared, **kwargs)

    @staticmethod
    def typed(model: type[M], data: Mapping[str, object]) -> M:
        """``model`` made of what a person typed, validated as the HTTP door validates a body; a
        refusal raises the door's ValidationFailed (run it inside a call's thunk to have it reported
        like the call's own failure)."""
        return validate_body(model, dict(data))

    def request(
        self,
        model: type[M],
        data: Mapping[str, object],
        failed: Callable[[BaseException], None] | None = None,
        parent: QWidget | None = None,
    ) -> M | None:
        """The typed request made of what a person typed, validated as the HTTP door validates a body
        (strictly, JSON's readings). Refused: ``failed`` is told (by default the message shows at
        ``parent``), exactly as the call's own failure would be, and the answer is None."""
        try:
            return self.typed(model, data)
        except ServiceError as exc:
            if failed is not None:
                failed(exc)
            else:
                show_error(parent, error_message(exc))
            return None

    def may_use(self, module: str) -> bool:
        return module in self.principal.modules and module in self.tenant.modules

    def notify(self, ok: bool, message: str = "") -> None:
        """Tell the person a scan/action worked or failed (colour, icon, optional sound)."""
        if self.feedback is not None:
            self.feedback(ok, message)


def shown_title(ws: type[Workspace]) -> str:
    """A workspace's title in the person's language: each marks its ``title`` with
    ``QT_TRANSLATE_NOOP("Workspaces", ...)`` (a class attribute is made before the translator)."""
    return QCoreApplication.translate("Workspaces", ws.title) if ws.title else ""


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
    # The record kinds it shows ("fulfillment.order"; "support.*": any record of support): a commit
    # that changed one of them, here, by a pull or by another view, refreshes it (``on_changed``).
    shows: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName(f"workspace-{self.name}")
        self.setAccessibleName(shown_title(type(self)))
        session.ops.changed.connect(self._committed)

    @classmethod
    def available_to(cls, session: StationSession) -> bool:
        return session.principal.role in cls.roles and any(session.may_use(m) for m in cls.modules)

    @classmethod
    def key_hints(cls) -> str:
        """The hint row: "F1 box S · F2 box M · ..." from ``keys``."""
        # Each workspace marks its descriptions QT_TRANSLATE_NOOP("Keys", ...) for lupdate.
        return " · ".join(f"{k} {QCoreApplication.translate('Keys', what)}" for k, what in cls.keys)

    def focus_primary(self) -> None:
        """Put keyboard focus where work starts (the scanner input on a kiosk)."""
        self.setFocus()

    def _committed(self, change: CommitInfo) -> None:
        if change.touches(self.shows):
            self.on_changed(change)

    def on_changed(self, change: CommitInfo) -> None:
        """A record of a kind it shows changed: refresh what is shown (default: nothing)."""

    def on_data_changed(self, name: str) -> None:
        """A use case (or sync step) named by hand, as ``OpRunner.did_change`` announces one."""
        self._committed(announced(name))


def ran(change: CommitInfo, fn: Callable[..., object]) -> bool:
    """Whether the use case declared on ``fn`` is among those the change committed."""
    return declaration_of(fn).name in change.changed


def ran_only(change: CommitInfo, fn: Callable[..., object]) -> bool:
    """Whether the change is that use case's alone (a file attached: nothing else to read again)."""
    return change.changed == (declaration_of(fn).name,)


def share_column(row: QBoxLayout, column: QLayout, stretch: int) -> None:
    """A column of a row as wide as its share alone: long or changing text inside it (a customer's
    name, a wrapped banner) never moves the columns, so the screen does not jump under the person."""
    box = QWidget()
    box.setLayout(column)
    column.setContentsMargins(0, 0, 0, 0)
    box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    row.addWidget(box, stretch)
