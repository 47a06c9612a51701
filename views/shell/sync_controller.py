"""The station's sync, owned by one object: the engine of the entered tenant, reachability, counts.

The window's status-bar indicator, the kiosk and the Sync panel only display
this controller (``text``, ``tone``, ``summary``) and ask it to act (``wake``,
``resolve``, ``fetch_theirs``). The words come from services.sync.words, so every
place (and the headless ``python -m app sync``) says the same thing:
"Offline · 3 changes waiting", "Syncing…", "Sync error: …", "Synced 10:42 ·
nothing waiting".

Imports Qt only at start-up; the engine and httpx are imported when used.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from services.sync.words import (  # noqa: F401 - the words, for the window and the panel
    clock_text,
    elide,
    issues_text,
    offline_text,
    plural,
    reachable_text,
    status_text,
    waiting_text,
)
from views.ops import OpRunner, error_message
from views.shell import sync_words

# The sync words are asked of Qt's translation when said, so this is right in either language.
sync_words.install()

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtWidgets import QWidget

    from services.core.context import CommitInfo
    from services.core.station import OutboxStatus
    from services.sync.engine import SyncEngine, SyncStatus
    from services.sync.station import Choice
    from views.base import StationSession

log = logging.getLogger("views.shell.sync")
# Rounds in which the platform's version of records is asked for again after "keep theirs" could
# not take it (other changes waited, or offline); a platform without the rows route never answers.
REFETCH_ROUNDS = 3
TONE_ICONS = {
    "ok": "ok",
    "busy": "syncing",
    "offline": "offline",
    "error": "error",
    "neutral": "offline",
    "online": "online",
}
# While the platform does not answer, it is asked again after these many seconds (then every last one):
# the embedded demo server answers a few seconds after the window shows.
PROBE_DELAYS_S = (1, 2, 3, 5, 10, 15)


# --- the controller -------------------------------------------------------------------------------


class SyncController(QObject):
    """Owns the entered tenant's sync engine; says the station's sync state in one voice."""

    changed = Signal()  # text, tone, counts or connection changed
    connection_changed = Signal(str)  # "online", "offline", "local"

    def __init__(
        self, ops: OpRunner, platform_url: Callable[[], str], *, offline: bool = False, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.ops = ops
        self._platform_url = platform_url
        self.offline = offline  # started with --offline: no engine, no probe
        self.session: StationSession | None = None
        self.engine: SyncEngine | None = None
        self.status: SyncStatus | None = None
        self.pending: int | None = None  # the outbox count (fresher than the engine's where read since)
        self.issue_count = 0
        self.connection = "local"
        self.connection_detail = ""
        self.interval = 15.0
        self._hook: Callable[[CommitInfo], None] | None = None
        self.stops: set[asyncio.Future[None]] = set()
        self._refetch: set[str] = set()  # records whose platform version could not be taken yet
        self._refetch_rounds = 0
        self._probes = 0
        self._probe_timer = QTimer(self)
        self._probe_timer.setSingleShot(True)
        self._probe_timer.timeout.connect(self.check_platform)

    # --- what is shown -----------------------------------------------------------------------------
    @property
    def platform_url(self) -> str:
        return "" if self.offline else self._platform_url()

    @property
    def waiting(self) -> int:
        if self.pending is not None:
            return self.pending
        return self.status.pending if self.status is not None else 0

    def words(self) -> tuple[str, str]:
        """The state in words and its tone: the engine's where one runs; else nothing is sent yet,
        and the probe says whether the platform answers (the sign-in card says the same)."""
        if self.status is not None:
            return status_text(self.status, self.pending)
        if not self.offline and self.connection == "online":
            return reachable_text(self.waiting), "online"  # the neutral pill with the online icon
        return offline_text(self.waiting), "offline"

    @property
    def text(self) -> str:
        return self.words()[0]

    @property
    def tone(self) -> str:
        return self.words()[1]

    @property
    def summary(self) -> str:
        n = self.issue_count
        return self.text + (f" · {issues_text(n)}" if n else "")

    @property
    def icon_name(self) -> str:
        return TONE_ICONS[self.tone]

    @property
    def sent_ever(self) -> bool:
        """The platform answered a round of this station (so "it accepted every change" can be true)."""
        return self.status is not None and self.status.last_sync_at is not None

    def offline_reason(self) -> str:
        """Why nothing is sent now, in words (empty when sync runs and reaches the platform)."""
        url = self.platform_url
        if self.offline:
            return self.tr("This station was started offline: changes are kept here and sent when it runs online.")
        if not url:
            return self.tr("No platform URL is set (Settings): changes are kept on this station.")
        if self.status is not None and self.status.state not in ("offline",):
            return ""
        if self.engine is None and self.connection == "online":
            return self.tr("Sync does not run in this window: changes are kept here and sent by the station app.")
        return self.tr("The platform at {url} does not answer: changes are kept here and sent when it is back.").format(
            url=url
        )

    def _emit(self) -> None:
        self.changed.emit()

    # --- reachability ------------------------------------------------------------------------------
    def check_platform(self) -> None:
        self._probe_timer.stop()
        url = self.platform_url
        if not url:
            self.set_connection("local", "")
            return
        from services.core import platform_client  # httpx: imported off the start-up path

        def answered(h: platform_client.Health) -> None:
            if url == self.platform_url:
                self.set_connection("online" if h.ok else "offline", h.detail)
                if h.ok and self.status is not None and self.status.state == "offline":
                    self.wake()  # the platform is back: do not wait for the engine's back-off

        self.ops.run_async(
            lambda: platform_client.health(url),
            on_success=answered,
            on_failure=lambda e: self.set_connection("offline", type(e).__name__),
        )

    def set_connection(self, state: str, detail: str) -> None:
        self.connection, self.connection_detail = state, detail
        if state == "offline" and self.engine is None:
            # Nobody else asks (no engine yet: the sign-in screen): ask again soon, then less often.
            delay = PROBE_DELAYS_S[min(self._probes, len(PROBE_DELAYS_S) - 1)]
            self._probes += 1
            self._probe_timer.start(delay * 1000)
        elif state != "offline":
            self._probes = 0
        self._emit()
        self.connection_changed.emit(state)

    # --- counts ------------------------------------------------------------------------------------
    def refresh_outbox(self) -> None:
        session = self.session
        if session is None:
            return

        from services.core.station import outbox_status  # the service layer: loaded after start-up

        def done(status: OutboxStatus) -> None:
            if self.session is session:
                self.pending = int(status.pending)
                self._emit()

        self.ops.run(session.call(outbox_status), on_success=done, on_failure=lambda e: None)

    def set_issue_count(self, n: int) -> None:
        """The Sync panel read the issues: the indicator says the same number at once."""
        if n != self.issue_count:
            self.issue_count = n
            self._emit()

    # --- the engine --------------------------------------------------------------------------------
    def start(self, session: StationSession) -> None:
        """One engine for the entered tenant, on the app's asyncio loop; none without a loop (tests, shots)."""
        self.stop()
        self.session = session
        loop = self.ops.loop
        if loop is None or not loop.is_running() or self.offline:
            self._emit()
            return
        from services.sync.engine import SyncEngine

        rt, tenant_id = session.runtime, session.tenant.id
        engine = SyncEngine(rt, tenant_id, interval=self.interval)
        engine.on_status = lambda status: self._engine_status(engine, status)

        def committed(info: CommitInfo) -> None:
            # Worker threads: the engine lives on the loop, so wake it through the loop.
            if info.commands and info.tenant_id == tenant_id and not loop.is_closed():
                loop.call_soon_threadsafe(engine.wake)

        rt.after_commit.append(committed)
        self.engine, self._hook = engine, committed
        self._probe_timer.stop()  # the engine's rounds say whether the platform answers now
        engine.start()

    def stop(self) -> None:
        engine, hook = self.engine, self._hook
        self.engine, self._hook, self.session = None, None, None
        self.status, self.issue_count, self.pending = None, 0, None
        self._refetch.clear()
        self._refetch_rounds = 0
        if hook is not None and engine is not None and hook in engine.rt.after_commit:
            engine.rt.after_commit.remove(hook)
        loop = self.ops.loop
        if engine is not None and loop is not None and not loop.is_closed():
            task = loop.create_task(engine.stop())
            self.stops.add(task)
            task.add_done_callback(self.stops.discard)
        self._emit()

    async def stopped(self) -> None:
        """Until every stopped engine has closed its connections (the app awaits this before exit)."""
        import asyncio

        if self.stops:
            await asyncio.gather(*list(self.stops), return_exceptions=True)

    def wake(self) -> None:
        if self.engine is not None:
            self.engine.wake()

    def _engine_status(self, engine: SyncEngine, status: SyncStatus) -> None:
        if engine is not self.engine:
            return  # a stopped engine's last words
        before = self.status
        self.status = status
        # The engine's counts where it read them anew (they changed, or a round just ended: it counts
        # right before "idle"); a mere state change carries older ones, and refresh_outbox may know
        # of a change committed since.
        ended = before is not None and status.state == "idle" and before.state != "idle"
        if before is None or ended or status.pending != before.pending:
            self.pending = status.pending
        if before is None or ended or status.issues != before.issues:
            self.issue_count = status.issues
        # The engine's round is the freshest word on reachability: the indicator never says
        # "synced" beside a stale "does not answer".
        if status.state in ("idle", "syncing", "error") and self.connection != "online" and self.platform_url:
            self.set_connection("online", "")
        elif status.state == "offline" and self.connection == "online" and status.last_sync_at is not None:
            self.set_connection("offline", status.message)
        else:
            self._emit()
        # The platform's rows a pull wrote are announced by the pull's own commit (views reload there).
        round_ended = status.state == "idle" and (before is None or before.state != "idle")
        if round_ended and self._refetch and self._refetch_rounds < REFETCH_ROUNDS:
            self._refetch_rounds += 1
            ids, self._refetch = sorted(self._refetch), set()
            self.fetch_theirs(ids, self._refetched)

    def _refetched(self, ok: bool) -> None:
        if ok:
            self._refetch_rounds = 0  # the rows taken were announced by their own commit

    def fetch_theirs(self, ids: list[str], on_done: Callable[[bool], None]) -> None:
        """Take the platform's version of these records (after "keep theirs" / "discard").

        Not possible while other changes wait to be sent, or offline: then after the next good round.
        """
        session = self.session
        if session is None:
            return
        engine = self.engine
        rt, tenant_id = session.runtime, session.tenant.id

        async def fetch() -> bool:
            if engine is not None:
                return await engine.fetch_rows(ids)
            from services.sync.engine import SyncEngine

            once = SyncEngine(rt, tenant_id)  # no engine runs in this window (no loop): a one-off client
            try:
                return await once.fetch_rows(ids)
            finally:
                await once.stop()

        def done(ok: bool) -> None:
            if not ok:
                self._refetch.update(ids)
            on_done(ok)

        def failed(exc: BaseException) -> None:
            log.info("taking the platform's records failed: %s", error_message(exc))
            self._refetch.update(ids)
            on_done(False)

        self.ops.run_async(fetch, on_success=done, on_failure=failed)

    def resync(
        self,
        on_done: Callable[[object], None],
        on_failure: Callable[[BaseException], None],
        parent: QWidget | None = None,
    ) -> bool:
        """A person's full re-download through the running engine (its progress comes as its status:
        nothing is cleared first). False when no engine runs (not signed in, not registered)."""
        engine = self.engine
        if engine is None:
            return False
        self.ops.run_async(engine.resync, on_success=on_done, on_failure=on_failure, parent=parent)
        return True

    def resolve(
        self,
        entry_id: str,
        choice: Choice,
        on_done: Callable[[bool], None],
        on_failure: Callable[[BaseException], None],
        parent: QWidget | None = None,
    ) -> None:
        """A person's decision on one sync issue; after keep theirs / discard, the platform's records."""
        session = self.session
        if session is None:
            return
        engine = self.engine
        if engine is not None:
            # Through the engine: no sync round runs between the decision and taking theirs.
            self.ops.run_async(
                lambda: engine.resolve(session.ctx(), entry_id, choice),
                on_success=lambda ok: on_done(bool(ok)),
                on_failure=on_failure,
                parent=parent,
            )
            return

        def work() -> list[str]:
            from services.sync import station as st

            return st.resolve_issue(session.ctx(), entry_id, choice)

        def resolved(ids: list[str]) -> None:
            if choice in ("keep_theirs", "discard") and ids:
                self.fetch_theirs(ids, on_done)
            else:
                on_done(True)

        self.ops.run(work, on_success=resolved, on_failure=on_failure, parent=parent)
