"""Opening a workspace as a signed-in person, for the workspace tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.context import Runtime
from services.core.demo import demo_id
from views.base import StationSession, Workspace
from views.ops import OpRunner

W = TypeVar("W", bound=Workspace)


def session_for(rt: Runtime, email: str, slug: str = "demo") -> StationSession:
    tenant = auth.load_tenant(rt.db, slug)
    principal = auth.user_principal(rt.db, demo_id("user", email), tenant)
    return StationSession(runtime=rt, tenant=tenant, principal=principal, ops=OpRunner())


def settle(qtbot: QtBot, ws: Workspace) -> None:
    """Wait until every service call the workspace started has come back."""
    qtbot.waitUntil(
        lambda: ws.session.ops.active == 0, timeout=60_000
    )  # a condition, not a wait: generous for a loaded machine


def workspace_factory(
    rt: Runtime, qtbot: QtBot, cls: type[W], default_email: str, size: tuple[int, int]
) -> Iterator[Callable[..., W]]:
    """Yields ``make(email=...)``: the workspace shown, focused and settled; waits for it at teardown."""
    made: list[W] = []

    def make(email: str = default_email) -> W:
        ws = cls(session_for(rt, email))
        qtbot.addWidget(ws)
        ws.resize(*size)
        ws.show()
        ws.focus_primary()
        settle(qtbot, ws)
        made.append(ws)
        return ws

    yield make
    for ws in made:
        ws.session.ops.wait()
