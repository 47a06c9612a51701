"""Opening a workspace as a signed-in person, for the workspace tests."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.context import Runtime
from services.core.demo import demo_id
from views.base import StationSession, Workspace
from views.ops import OpRunner
from views.shell.theme import apply_theme

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


@contextmanager
def app_theme(name: str = "light") -> Iterator[str]:
    """The app's own style sheet for the duration (its fonts, arrows and scroll bars), then the one
    before. Widgets whose deletion is still queued go first each way: restyling them crashed a later
    test's window (a segfault in ``setStyleSheet``)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.styleSheet()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    apply_theme(name, app)
    try:
        yield name
    finally:
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        app.setStyleSheet(before)


def hold_answers(
    monkeypatch: pytest.MonkeyPatch, session: StationSession, op: object, query: Callable[[object], bool]
) -> threading.Event:
    """Calls of ``op`` whose ``query`` passes wait on the pool until the returned event is set: an
    answer made to come back after a later one (a stale list must not replace a newer one)."""
    release = threading.Event()
    real = session.call

    def call(called: object, /, **kwargs: object) -> object:
        thunk = real(called, **kwargs)  # type: ignore[arg-type]
        if called is not op or not query(kwargs.get("query")):
            return thunk

        def held() -> object:
            assert release.wait(30)
            return thunk()

        return held

    monkeypatch.setattr(session, "call", call)
    return release
