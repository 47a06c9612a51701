"""Network coroutines go through the same runner as service calls, on the app's qasync loop."""

from __future__ import annotations

import asyncio
import threading

import pytest
import qasync
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.errors import NotFound
from views.ops import OpRunner


def _on_qasync(coro_factory):  # type: ignore[no-untyped-def]
    app = QApplication.instance()
    loop = qasync.QEventLoop(app, already_running=False)
    try:
        return loop.run_until_complete(coro_factory(loop))
    finally:
        loop.close()
        asyncio.set_event_loop(None)


def test_run_async_runs_on_the_qasync_loop_and_answers_on_the_ui_thread(qtbot: QtBot) -> None:
    runner = OpRunner()
    ran_on: list[threading.Thread] = []
    answered_on: list[threading.Thread] = []
    results: list[int] = []

    async def work() -> int:
        ran_on.append(threading.current_thread())
        await asyncio.sleep(0.01)
        return 42

    def success(v: int) -> None:
        answered_on.append(threading.current_thread())
        results.append(v)

    async def main(loop: asyncio.AbstractEventLoop) -> None:
        runner.set_loop(loop)
        runner.run_async(work, on_success=success)
        for _ in range(200):
            if results:
                return
            await asyncio.sleep(0.01)

    _on_qasync(main)
    assert results == [42]
    assert ran_on == [threading.main_thread()] and answered_on == [threading.main_thread()]


def test_run_async_failure_reaches_the_handler_and_the_thread_fallback_works(qtbot: QtBot) -> None:
    runner = OpRunner()
    errors: list[BaseException] = []

    async def failing() -> None:
        raise NotFound("no such platform")

    async def main(loop: asyncio.AbstractEventLoop) -> None:
        runner.set_loop(loop)
        runner.run_async(failing, on_failure=errors.append)
        for _ in range(200):
            if errors:
                return
            await asyncio.sleep(0.01)

    _on_qasync(main)
    assert [type(e) for e in errors] == [NotFound]

    # No running loop (tools, tests): the coroutine runs on a worker thread's own loop.
    plain = OpRunner()
    label = QLabel()
    qtbot.addWidget(label)
    got: list[str] = []

    async def hello() -> str:
        return threading.current_thread().name

    plain.run_async(hello, on_success=got.append, parent=label)
    qtbot.waitUntil(lambda: bool(got), timeout=30_000)
    assert got[0] != threading.main_thread().name


@pytest.fixture(autouse=True)
def _no_leftover_loop() -> None:
    asyncio.set_event_loop(None)


def test_views_learn_what_changed_from_the_commit_itself(qtbot: QtBot, station: Runtime) -> None:
    """No view restates what its call changes: a photo attached without ``write=True`` still tells
    every open view (and the "changes waiting" count) that the inspection changed."""
    from services.core.files import Upload
    from tests.views.workspaces import session_for

    session = session_for(station, "operator@demo.test")
    seen: list[str] = []
    session.ops.did_change.connect(seen.append)
    png = _png()
    session.ops.run(session.call("upgrade.admin.photos.upload", upload=Upload("a.png", "image/png", png)))
    qtbot.waitUntil(lambda: "upgrade.admin.photos.upload" in seen, timeout=30_000)
    # Reads announce nothing; failed writes announce nothing.
    seen.clear()
    session.ops.run(session.call("fulfillment.orders.list", query={}))
    session.ops.run(session.call("upgrade.valuations.delete", id="no-such-valuation"), on_failure=lambda e: None)
    session.ops.run(session.call("support.tickets.list", query={}))
    qtbot.waitUntil(lambda: session.ops.active == 0, timeout=30_000)
    qtbot.wait(50)
    assert seen == []
    # A second session on the same runtime and runner does not announce twice.
    again = session_for(station, "operator@demo.test")
    again.ops = session.ops
    again.__post_init__()
    session.ops.run(session.call("upgrade.admin.photos.upload", upload=Upload("b.png", "image/png", png)))
    qtbot.waitUntil(lambda: seen == ["upgrade.admin.photos.upload"], timeout=30_000)
    qtbot.wait(50)
    assert seen == ["upgrade.admin.photos.upload"]


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def test_only_the_newest_request_of_a_kind_is_answered(qtbot: QtBot) -> None:
    """Two reads of one list run on the pool and the first finishes last: its answer is dropped."""
    from views.ops import Newest

    runner = OpRunner()
    lists, shown = Newest(), []
    first_may_end = threading.Event()

    def first() -> str:
        assert first_may_end.wait(30)
        return "all tickets"

    runner.run(first, on_success=lists.ask().only(shown.append))
    runner.run(lambda: "waiting on customer", on_success=lists.ask().only(shown.append))
    qtbot.waitUntil(lambda: shown == ["waiting on customer"], timeout=30_000)
    first_may_end.set()
    qtbot.waitUntil(lambda: runner.active == 0, timeout=30_000)
    assert shown == ["waiting on customer"]
    # After drop(), nothing asked before is shown.
    asked = lists.ask()
    lists.drop()
    runner.run(lambda: "late", on_success=asked.only(shown.append))
    qtbot.waitUntil(lambda: runner.active == 0, timeout=30_000)
    assert shown == ["waiting on customer"] and not asked.newest
