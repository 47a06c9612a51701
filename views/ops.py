"""The one way views run service calls off the UI thread.

In the spirit of Anki's ``CollectionOp``/``QueryOp``: the call runs on a
worker thread; its result or its ``ServiceError`` comes back to the UI thread
through a queued signal. Failures are shown next to the widget where the
person acted unless the caller handles them. Calls over 300 ms raise the busy
indicator. After a successful write, ``did_change`` tells every open view.

    runner.run(session.call(orders.get_order, id=oid), on_success=self.show_order, parent=self.scan_input)

Views never say what a call changed: the runner watches the runtime's
commits (``watch``), and every commit (a use case's, a sync pull's, the
station's bookkeeping) is announced once through ``changed(CommitInfo)`` on
the UI thread, whoever ran it: its record kinds, ids and origin. Workspaces
refresh from it (``Workspace.shows``). ``did_change(name)`` also names each
use case committed (the shell's counts, the sync panel); a name announced by
hand on it (a sync step, a sign-in) reaches ``changed`` too.
"""

from __future__ import annotations

import logging
import traceback
import weakref
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, TypeVar, cast

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QToolTip, QWidget

from services.core.errors import ServiceError
from views.wording import say

if TYPE_CHECKING:  # asyncio costs ~40 ms to import: kept off the start-up path
    import asyncio

    # The service layer (SQLAlchemy, every model: seconds on a busy machine) is imported where it
    # is used, never on the way to the sign-in window: the window shows first, it loads meanwhile.
    from services.core.context import CommitInfo, Runtime

T = TypeVar("T")
log = logging.getLogger("views.ops")
BUSY_AFTER_MS = 300
# How often the station's file is asked whether another process committed (a PRAGMA, microseconds).
OTHER_WRITERS_POLL_MS = 1000


class Newest:
    """Only the answer to the newest request of one kind is shown. A view that asks again (another
    queue, another location, a new drawing) starts a new request before the old one has answered;
    the pool may finish them in any order, and an old answer coming back last drew the old list
    over the new one (the helpdesk showed all 20 tickets under "Waiting on customer").

        asked = self.tickets.ask()
        runner.run(fn, on_success=asked.only(self.show_tickets), on_failure=asked.only(self.failed))
    """

    def __init__(self) -> None:
        self._asked = 0

    def ask(self) -> _Asked:
        """A new request of this kind: the answers of every earlier one are dropped from now on."""
        self._asked += 1
        return _Asked(self, self._asked)

    def drop(self) -> None:
        """Nothing on its way is wanted any more (the view shows something given to it)."""
        self._asked += 1


class _Asked:
    def __init__(self, kind: Newest, number: int) -> None:
        self._kind, self._number = kind, number

    @property
    def newest(self) -> bool:
        return self._number == self._kind._asked

    def only(self, handler: Callable[[T], None]) -> Callable[[T], None]:
        """``handler``, called only while this is still the newest request of its kind."""

        def answer(value: T) -> None:
            if self.newest:
                handler(value)

        return answer


class _Bridge(QObject):
    """Lives on the UI thread; workers emit, slots run on the UI thread."""

    done = Signal(object, object)  # (result, error)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], object], bridge: _Bridge) -> None:
        super().__init__()
        self.fn = fn
        self.bridge = bridge
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the UI thread
            if not isinstance(exc, ServiceError):
                log.error("operation failed: %s\n%s", type(exc).__name__, traceback.format_exc())
            self.bridge.done.emit(None, exc)
            return
        self.bridge.done.emit(result, None)


def _gone(*objs: object) -> bool:
    """A view closed while its call ran: its widget (or the handler's owner) no longer exists."""
    for obj in objs:
        owner = getattr(obj, "__self__", obj)
        if isinstance(owner, QObject) and not shiboken6.isValid(owner):
            return True
    return False


def error_message(error: BaseException, given: Mapping[str, object] | None = None) -> str:
    """What a person reads: what happened and what to do (``views.wording``); anything that is not a
    service error was logged with its traceback. ``given``: what the person typed, by field name."""
    return say(error, given)


def show_error(widget: QWidget | None, message: str) -> None:
    """Default failure presentation: the message at the widget where the person acted."""
    if widget is None:
        log.warning("operation failed: %s", message)
        return
    presenter = getattr(widget, "show_error", None)
    if callable(presenter):
        presenter(message)
        return
    win = widget.window()
    presenter = getattr(win, "show_error", None)
    if callable(presenter):
        presenter(message, widget)
        return
    QToolTip.showText(widget.mapToGlobal(widget.rect().bottomLeft()), message, widget)


def announced(name: str) -> CommitInfo:
    """What a name announced by hand changed: a use case's record kind; a sync step ("sync.pulled")
    or an unwatched write ("change") may have changed anything; another name, its module's records."""
    from services.core.commands import REGISTRY
    from services.core.context import ANY_KIND, CommitInfo, module_kind

    op = REGISTRY.get(name)
    if op is not None:
        kinds = frozenset({op.record or module_kind(op.module)})
    elif name == "change" or name.startswith("sync."):
        kinds = frozenset({ANY_KIND})
    else:
        kinds = frozenset({module_kind(name.split(".", 1)[0])})
    return CommitInfo(None, [], [], (name,), kinds, origin="pull" if name.startswith("sync.") else "local")


class OpRunner(QObject):
    # Everything one commit changed (services.core.context.CommitInfo): workspaces refresh from it.
    changed = Signal(object)
    did_change = Signal(str)  # name of each use case committed (or sync step announced)
    busy_changed = Signal(bool)
    _committed = Signal(object)  # CommitInfo, from the committing thread

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        # Own pool: SQLite writes are serialised anyway; a few threads keep reads flowing.
        self.pool = pool or QThreadPool(self)
        self.pool.setMaxThreadCount(4)
        self._active = 0
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.timeout.connect(lambda: self.busy_changed.emit(True))
        self._keep: set[_Bridge] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._watched: set[int] = set()
        # Queued to the UI thread: commits happen on worker threads.
        self._committed.connect(self._announce)
        self._announcing = False
        self.did_change.connect(self._named)

    def watch(self, runtime: Runtime) -> None:
        """Announce every use case committed on ``runtime`` (the service's own account of what changed)."""
        if id(runtime) in self._watched:
            return
        from services.core.watch import OtherWriters

        self._watched.add(id(runtime))
        me = weakref.ref(self)

        def committed(info: CommitInfo) -> None:
            runner = me()
            if runner is None or not shiboken6.isValid(runner):
                if committed in runtime.after_commit:
                    runtime.after_commit.remove(committed)
                return
            if info.changed or info.records:
                runner._committed.emit(info)

        runtime.after_commit.append(committed)
        # Another process writing the same file (``python -m app call``, a second window) is told too.
        writers = OtherWriters(runtime)
        if writers.active:
            timer = QTimer(self)
            timer.setInterval(OTHER_WRITERS_POLL_MS)
            timer.timeout.connect(writers.poll)
            timer.start()
            self.destroyed.connect(lambda *_: writers.close())

    def _announce(self, info: CommitInfo) -> None:
        self.changed.emit(info)
        self._announcing = True  # the names below are this commit's, already announced above
        try:
            for name in info.changed:
                self.did_change.emit(name)
        finally:
            self._announcing = False

    def _named(self, name: str) -> None:
        if not self._announcing:
            self.changed.emit(announced(name))

    @property
    def active(self) -> int:
        return self._active

    def run(
        self,
        fn: Callable[[], T],
        *,
        on_success: Callable[[T], None] | None = None,
        on_failure: Callable[[BaseException], None] | None = None,
        parent: QWidget | None = None,
        write: bool = False,
    ) -> None:
        """Run ``fn`` on a worker thread. ``write``: only for calls outside a watched runtime (the
        commit announces itself): on success, views are told something changed."""
        bridge = _Bridge()
        self._keep.add(bridge)
        self._active += 1
        if self._active == 1:
            self._busy_timer.start(BUSY_AFTER_MS)

        def finished(result: object, error: BaseException | None) -> None:
            self._keep.discard(bridge)
            if not shiboken6.isValid(self):
                return  # the window (and its runner) closed while the call ran: nobody to tell
            self._active -= 1
            if self._active == 0:
                self._busy_timer.stop()
                self.busy_changed.emit(False)
            if not _gone(parent, on_success, on_failure):
                try:
                    if error is not None:
                        if on_failure is not None:
                            on_failure(error)
                        else:
                            show_error(parent, error_message(error))
                    elif on_success is not None:
                        on_success(cast(T, result))  # the worker ran fn: its result is a T
                except Exception:  # noqa: BLE001 - a failing handler must not go unseen
                    log.exception("result handler failed")
                    show_error(parent, "Something went wrong showing the result; it was logged.")
            if write and error is None and not self._watched:
                # The data changed whether or not the view that asked is still open.
                self.did_change.emit("change")

        bridge.done.connect(finished)
        self.pool.start(_Job(fn, bridge))

    def set_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The qasync loop of the running app: network coroutines run on it (``run_async``)."""
        self.loop = loop

    def run_async(
        self,
        make: Callable[[], Coroutine[object, None, T]],
        *,
        on_success: Callable[[T], None] | None = None,
        on_failure: Callable[[BaseException], None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Network work (httpx.AsyncClient): a coroutine on the app's qasync loop.

        Without a running loop (tests, tools) the coroutine runs on a worker
        thread's own loop; either way the result comes back on the UI thread
        through the same handlers as ``run``.
        """
        loop = self.loop
        if loop is None or not loop.is_running():
            import asyncio

            self.run(lambda: asyncio.run(make()), on_success=on_success, on_failure=on_failure, parent=parent)
            return
        bridge = _Bridge()
        self._keep.add(bridge)

        def finished(result: object, error: BaseException | None) -> None:
            self._keep.discard(bridge)
            if _gone(parent, on_success, on_failure):
                return
            if error is not None:
                (on_failure or (lambda e: show_error(parent, error_message(e))))(error)
            elif on_success is not None:
                on_success(cast(T, result))  # the worker ran fn: its result is a T

        def done(task: asyncio.Task[T]) -> None:
            if task.cancelled():
                self._keep.discard(bridge)
                return
            exc = task.exception()
            bridge.done.emit(None if exc else task.result(), exc)

        bridge.done.connect(finished)
        loop.create_task(make()).add_done_callback(done)

    def wait(self, msecs: int = 5000) -> bool:
        """Wait for every queued call (tests and shutdown)."""
        return bool(self.pool.waitForDone(msecs))
