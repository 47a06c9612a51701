"""Starting the Qt desktop (and rendering screenshots off screen).

The sign-in window is shown before the service layer is imported: the
station's runtime (SQLAlchemy, migrations, every module) loads on a worker
thread meanwhile, so the window appears about as fast as a bare Qt window.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.paths import default_data_dir

if TYPE_CHECKING:
    from services.core.context import Runtime
    from services.core.local_signin import LocalSignIn

log = logging.getLogger("app.desktop")

# Diagnostics for the start-up benchmark and the Xvfb test (tests/bench/bench_startup.py):
# print "shown <seconds> <CPU seconds>" once the window is on screen; with a path, also grab the screen
# into that PNG; then quit.
ENV_QUIT_WHEN_SHOWN = "PLATFORM_STATION_QUIT_WHEN_SHOWN"
ENV_SHOT = "PLATFORM_STATION_SHOT"
# With "EMAIL PASSWORD": once shown, sign in at once (as a person faster than any typist) and
# print "accepted <seconds>" when the password is accepted (start → a sign-in that works) and
# "signed-in <seconds>" when the first workspace is entered (start → a usable workspace), then quit.
ENV_SIGN_IN = "PLATFORM_STATION_SIGN_IN"

# Who the screenshot of a workspace signs in as; any other workspace: the demo owner.
DEMO_USER_FOR = {
    "warehouse": "device@demo.test",
    "inspection": "operator@demo.test",
    "helpdesk": "operator@demo.test",
    "admin": "owner@demo.test",
    "stockcount": "operator@demo.test",
}
# --demo registers the station with its embedded platform for each demo tenant, as its owner.
DEMO_TENANTS = (("demo", "owner@demo.test"), ("other", "owner@other.test"))


def _demo_dir(data_dir: Path | None) -> Path:
    return data_dir or default_data_dir() / "demo"


class _ImportsWait:
    """A finder on ``sys.meta_path`` that makes the loader thread's imports wait while a sign-in check
    runs (``free`` cleared); it finds nothing itself.

    On two cores the loader's imports (seconds of CPU) would take a core and half of the Python
    time from the check, whose argon2 uses both cores (issue 38: a sign-in that works within 1 s).
    Each import of the loader thread passes here first, so it pauses within a module or two.
    The check's own modules are imported before this is installed (an import paused while holding
    a module's lock must not be one the check needs); the wait has a limit all the same."""

    def __init__(self, free: threading.Event) -> None:
        self.free = free
        self.thread = threading.get_ident()

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if threading.get_ident() == self.thread:
            self.free.wait(10)
        return None  # found by the finders after this one


def _load_station(data_dir: Path, demo: bool, free: threading.Event | None = None) -> object:
    """The station's runtime; ``free``: cleared while a sign-in check runs (the imports wait for it)."""
    wait = None
    if free is not None:
        import services.core.local_signin  # noqa: F401 - the check's modules, before imports may wait

        wait = _ImportsWait(free)
        sys.meta_path.insert(0, wait)
    try:
        return _open_station(data_dir, demo)
    finally:
        if wait is not None:
            sys.meta_path.remove(wait)


def _open_station(data_dir: Path, demo: bool) -> object:
    from app.station import open_station, seed_data_dir
    from services.core.jobs import JobWorker
    from services.core.scheduler import Scheduler

    if demo and not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    rt = open_station(data_dir)
    JobWorker(rt).start()  # long work (generations, imports) runs on its own thread
    Scheduler(rt).start()  # the periodic jobs declared for a station (on=("station",))
    # Warm-up while the person types: SQLAlchemy configures every mapper on the first ORM query
    # (~0.3 s here), which would otherwise land on the first sign-in.
    from sqlalchemy.orm import configure_mappers

    configure_mappers()
    return rt


def _check_locally(
    data_dir: Path, email: str, password: str, free: threading.Event | None = None
) -> LocalSignIn | None:
    """The sign-in check on the station's own file, before the service layer has loaded (issue 38).

    Only for the station's own SQLite file: a station configured with another database
    (PLATFORM_DATABASE_URL) signs in through the service layer. ``free`` is cleared meanwhile:
    the loader's imports wait (``_load_station``)."""
    if os.environ.get("PLATFORM_DATABASE_URL"):
        return None
    from services.core.local_signin import check

    if free is not None:
        free.clear()
    try:
        return check(data_dir / "data.db", email, password)
    finally:
        if free is not None:
            free.set()


def run_desktop(args: argparse.Namespace) -> int:
    from PySide6.QtWidgets import QApplication

    from views.shell.window import ShellWindow

    data_dir: Path = args.data_dir or (_demo_dir(None) if args.demo else default_data_dir())
    embedded = None
    platform_url = args.platform_url
    if args.demo and not args.offline and not platform_url:
        # --demo: a platform server of its own on a free loopback port, so sync works out of the box.
        from app.server import EmbeddedServer
        from app.settings import Settings

        embedded = EmbeddedServer(Settings(data_dir=data_dir / "platform", demo=True), port=_demo_port(data_dir))
        platform_url = embedded.start()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Platform Station")
    from views.i18n import install as install_language
    from views.shell.prefs import StationPrefs

    # Before the first widget: texts are taken when a widget is made (Settings -> Language).
    install_language(app, str(StationPrefs(data_dir).get("language")))
    free = threading.Event()  # no sign-in check runs: the loader may import
    free.set()
    win = ShellWindow(
        data_dir,
        runtime_loader=lambda: _load_station(data_dir, args.demo, free),  # type: ignore[arg-type,return-value]
        local_check=lambda email, password: _check_locally(data_dir, email, password, free),
        kiosk=args.kiosk,
        platform_url=platform_url,
        offline=args.offline,
    )
    if embedded is not None:
        url = embedded.url

        def link(rt: Runtime) -> None:
            # In the background on the app's loop: the window never waits for the embedded server.
            win.ops.run_async(
                lambda: link_demo_stations(rt, url),
                on_success=lambda slugs: win.sync.wake() if slugs else None,
                on_failure=lambda e: log.warning("demo station registration failed: %s", e),
            )

        win.runtime_ready.connect(link)
    win.show_for_mode()

    probe = _probe_when_shown(win) if os.environ.get(ENV_QUIT_WHEN_SHOWN) or os.environ.get(ENV_SHOT) else None
    _first_frame(app, win)
    if probe is not None:
        probe()

    # asyncio on the Qt loop (qasync): the sync engine's coroutines run here. Imported after the
    # window is on screen (asyncio costs ~40 ms of CPU, a fifth of a bare Qt window's start).
    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    win.ops.set_loop(loop)  # network coroutines (views.ops.OpRunner.run_async) run here
    with loop:
        loop.run_forever()
        # The window closed: let the sync engine close its connections (its database work finishes first).
        try:
            loop.run_until_complete(asyncio.wait_for(win.sync.stopped(), 10))
        except TimeoutError:
            log.warning("the sync engine did not stop within 10 s")
    win.ops.wait(10_000)
    rt = win.runtime
    if rt is not None:
        rt.db.dispose()
    if embedded is not None:
        embedded.stop()
    return 0


def _first_frame(app: Any, win: Any, limit: float = 1.0) -> None:
    """Let Qt put the window on screen (its expose events) before anything else is imported.

    Waits for events, never spins; at most ``limit`` seconds (a window that is not exposed, e.g.
    on a locked screen, only delays what follows)."""
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + limit
    QTimer.singleShot(int(limit * 1000), lambda: None)  # wakes the wait below at the latest
    while time.monotonic() < deadline:
        handle = win.windowHandle()
        if handle is not None and handle.isExposed():
            app.processEvents()  # the first paint, posted when it was exposed
            return
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


def _demo_port(data_dir: Path) -> int:
    """The embedded platform's port of the last run when it is free: the station's link keeps its URL."""
    from app.server import free_port

    path = data_dir / "platform" / "port"
    try:
        port = int(path.read_text().strip())
        import socket  # here, not at the top: ~4 ms of start-up for the --demo path only

        with socket.socket() as s:
            s.bind(("127.0.0.1", port))
    except (OSError, ValueError):
        port = free_port()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(port))
    return port


async def link_demo_stations(
    rt: Runtime, platform_url: str, *, attempts: int = 20, delay: float = 0.5, max_delay: float = 3.0
) -> list[str]:
    """--demo: register this station with the (embedded) platform for each demo tenant without a link.

    Signs in there as the tenant's owner, registers, keeps the secret (``save_link``). The embedded
    server may still be starting (seeding its data on the first run): unreachable means try again
    a little later. Answers the tenants linked now; a failure is logged, never raised.
    """
    import asyncio

    from services.core import auth
    from services.sync import station as st
    from services.sync.client import SyncError, take_leases

    url = platform_url.rstrip("/")
    linked: list[str] = []
    for slug, email in DEMO_TENANTS:
        try:
            tenant = await asyncio.to_thread(auth.load_tenant, rt.db, slug)
        except Exception as exc:  # noqa: BLE001 - a station without this demo tenant: nothing to link
            log.info("demo tenant %s not on this station: %s", slug, exc)
            continue
        link = await asyncio.to_thread(st.link_for, rt, tenant.id)
        if link is not None:
            if link.platform_url != url:
                # The embedded server moved to another port (its old one was taken): same platform, new URL.
                await asyncio.to_thread(st.save_link, rt, tenant.id, url, link.station_id, link.secret)
                linked.append(slug)
            continue
        secret = await _register_demo(url, slug, email, rt.station_id, attempts, delay, max_delay)
        if secret is not None:
            await asyncio.to_thread(st.save_link, rt, tenant.id, url, rt.station_id, secret)
            try:
                await take_leases(rt, tenant.id)  # numbers at registration, as every linked station
            except SyncError as exc:
                log.info("demo: first lease of numbers failed (the first sync takes it): %s", exc.message)
            linked.append(slug)
            log.info("demo: station %s registered with %s for %s", rt.station_id, url, slug)
    return linked


async def _register_demo(
    url: str, slug: str, email: str, station_id: str, attempts: int, delay: float, max_delay: float
) -> str | None:
    import asyncio

    import httpx

    from services.core import platform_client
    from services.core.demo import DEMO_PASSWORD
    from services.sync.client import SyncError, register_station

    for attempt in range(1, attempts + 1):
        try:
            signed = await platform_client.sign_in(url, email, DEMO_PASSWORD)
            if signed.token is None:
                retry = signed.status >= 500 or signed.status == 429
                why = f"sign-in answered HTTP {signed.status}"
            else:
                return await register_station(url, slug, station_id, f"Demo station {station_id}", token=signed.token)
        except httpx.HTTPError as exc:
            retry, why = True, type(exc).__name__
        except SyncError as exc:
            retry, why = exc.retry or (exc.status or 0) >= 500, exc.message
        if not retry or attempt == attempts:
            log.warning("demo: registering the station with %s for %s failed: %s", url, slug, why)
            return None
        await asyncio.sleep(min(max_delay, delay * 2 ** (attempt - 1)))  # the server is still starting
    return None


def _probe_when_shown(win: Any) -> Callable[[], None]:
    """Start-up probe: report once the window is exposed (mapped and painted), optionally grab the screen.

    Answers its check: the check runs on a timer, and ``run_desktop`` runs it once ``_first_frame``
    has the window on screen, before the event loop (and asyncio's import) starts."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    timer = QTimer(win)
    timer.setInterval(2)
    reported: list[bool] = []

    def check() -> None:
        handle = win.windowHandle()
        if reported or handle is None or not handle.isExposed():
            return
        reported.append(True)
        timer.stop()
        print(f"shown {time.perf_counter():.4f} {time.process_time():.4f}", flush=True)
        if os.environ.get(ENV_SIGN_IN):
            _sign_in_and_quit(win, os.environ[ENV_SIGN_IN])
            return
        shot = os.environ.get(ENV_SHOT)
        if shot:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:  # let the X server receive the first frames
                QApplication.processEvents()
                time.sleep(0.02)
            win.screen().grabWindow(0).save(shot)  # the real screen, as the X server shows it
        win.ops.wait(60_000)  # let the runtime finish loading before exit
        os._exit(0)  # the probe measures start-up only; skip teardown

    timer.timeout.connect(check)
    timer.start()
    return check


def _sign_in_and_quit(win: Any, credentials: str) -> None:
    """Start-up probe: press Sign in the moment the window shows (the service layer may still be
    loading: the sign-in waits for it), report when the workspace is entered, then quit."""
    email, _, password = credentials.partition(" ")

    def accepted(_email: str) -> None:
        print(f"accepted {time.perf_counter():.4f} {time.process_time():.4f}", flush=True)

    def entered(_workspace: str) -> None:
        print(f"signed-in {time.perf_counter():.4f}", flush=True)
        os._exit(0)

    def failed() -> None:
        if not win.signin.button.isEnabled():
            return  # still signing in
        print(f"sign-in failed: {win.signin.message.text()}", flush=True)
        os._exit(1)

    win.credentials_accepted.connect(accepted)
    win.signed_in.connect(entered)
    win.signin.set_device_mode(False)
    win.signin.email.setText(email)
    win.signin.password.setText(password)
    win.signin.submit()
    # The button comes back enabled only when signing in ended without entering a workspace.
    from PySide6.QtCore import QTimer

    watch = QTimer(win)
    watch.setInterval(50)
    watch.timeout.connect(failed)
    watch.start()


def screenshot(workspace: str, out: Path, data_dir: Path | None, size: tuple[int, int], theme: str | None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.station import open_station, seed_data_dir

    tmp = None
    if data_dir is None:
        tmp = tempfile.TemporaryDirectory()
        data_dir = Path(tmp.name)
    if not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    rt = open_station(data_dir)
    win = _shot_window(rt, size, theme)
    from PySide6.QtGui import QCursor

    QCursor.setPos(win.mapToGlobal(win.rect().bottomRight()) * 2)  # no hover highlight in the picture
    ok_sign_in = True
    if workspace != "login":
        name, _, module = workspace.partition(":")
        ok_sign_in = sign_in_for_screenshot(win, app, DEMO_USER_FOR.get(name, "owner@demo.test"), name)
        shown = win.workspaces.get(name)
        if module and hasattr(shown, "show_resource"):
            shown.show_resource(module)  # records:<module>: that module's first list
        # A workspace may name the scans that show it at work (e.g. a count in progress).
        for code in getattr(shown, "SCREENSHOT_SCANS", ()):
            _settle(win, app)
            shown.handle_scan(code, "scanner")  # type: ignore[union-attr]
    _settle(win, app)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = ok_sign_in and win.grab().save(str(out))
    win.close()
    rt.db.dispose()
    if tmp:
        tmp.cleanup()
    print(f"wrote {out}" if ok else f"could not write {out}")
    return 0 if ok else 1


def sync_screenshot(out: Path, size: tuple[int, int] = (1280, 860), theme: str | None = None) -> int:
    """The Sync panel over the helpdesk, with two sync issues and the status bar (docs/screenshots/sync.png).

    The issues are real outbox entries answered as the platform answers a conflict; the engine's
    status is set as it reports it offline (no platform runs for a screenshot).
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from datetime import timedelta

    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QPainter
    from PySide6.QtWidgets import QApplication
    from sqlalchemy import select

    from app.station import open_station, seed_data_dir
    from local_db.models.support import SupportTicket
    from services.core import auth
    from services.core.commands import execute
    from services.core.context import Ctx
    from services.core.demo import demo_id
    from services.sync import station as st
    from services.sync.engine import SyncStatus
    from services.sync.schemas import EntryAnswer

    tmp = tempfile.TemporaryDirectory()
    data_dir = Path(tmp.name)
    seed_data_dir(data_dir)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    rt = open_station(data_dir)
    tenant = auth.load_tenant(rt.db, "demo")
    ctx = Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "admin@demo.test"), tenant))
    with rt.db.reading(tenant.id) as s:
        ticket = s.execute(select(SupportTicket).where(SupportTicket.state == "open")).scalars().first()
        assert ticket is not None
    order = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # SO-1021, packed in the demo data
    execute(ctx, "support.messages.create", body={"body": "Sorted, thanks!", "internal": False}, ticket_id=ticket.id)
    execute(ctx, "fulfillment.orders.operate", body={"operation": "ship"}, id=order)
    for i in range(3):
        execute(ctx, "support.messages.create", body={"body": f"note {i}", "internal": True}, ticket_id=ticket.id)
    st.save_link(rt, tenant.id, "https://platform.example.com", rt.station_id, "sst_screenshot")
    link = st.link_for(rt, tenant.id)
    assert link is not None
    reply, ship = st.next_batch(rt, link, 2).entries
    st.record_answers(
        rt,
        tenant.id,
        st.Batch([], {}),
        [
            EntryAnswer(
                seq=reply["seq"],
                status="conflict",
                error={
                    "code": "CONFLICT",
                    "error": "cannot reply to a ticket that is closed",
                    "details": {"current_state": "closed", "action": "reply to"},
                },
            ),
            EntryAnswer(
                seq=ship["seq"],
                status="conflict",
                error={
                    "code": "CONFLICT",
                    "error": "cannot ship an order that is shipped",
                    "details": {"current_state": "shipped", "action": "ship"},
                },
            ),
        ],
    )

    win = _shot_window(rt, size, theme)
    ok = sign_in_for_screenshot(win, app, "admin@demo.test", "helpdesk")
    _settle(win, app)
    last = rt.clock.now() - timedelta(minutes=12)
    win.sync.status = SyncStatus(
        "offline", pending=3, issues=2, last_sync_at=last, message="the platform cannot be reached (ConnectError)"
    )
    win.sync.pending, win.sync.issue_count = 3, 2
    win._show_sync()
    win.open_sync_panel()
    panel = win.sync_panel
    assert panel is not None
    panel.resize(min(size[0] - 80, 900), size[1] - 150)
    _settle(win, app)
    panel.sync_now_button.setEnabled(True)  # as in the app, where an engine runs (none does for a screenshot)
    app.processEvents()
    shot = win.grab()
    # The panel is a window of its own: drawn over the shell where it opens (centred, above the status bar).
    painter = QPainter(shot)
    at = QPoint((shot.width() - panel.width()) // 2, max(8, (shot.height() - panel.height()) // 2 - 30))
    painter.fillRect(shot.rect(), QColor(0, 0, 0, 60))
    painter.drawPixmap(at, panel.grab())
    painter.setPen(QColor("#9ca3af"))
    painter.drawRect(at.x() - 1, at.y() - 1, panel.width() + 1, panel.height() + 1)
    painter.end()
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = ok and shot.save(str(out))
    panel.close()
    win.close()
    rt.db.dispose()
    tmp.cleanup()
    print(f"wrote {out}" if ok else f"could not write {out}")
    return 0 if ok else 1


def _shot_window(rt: Any, size: tuple[int, int], theme: str | None) -> Any:
    """A shell window for a screenshot, shown off screen, on preferences of its own
    (never the person's geometry, theme or last workspace)."""
    from views.shell.window import ShellWindow

    win = ShellWindow(Path(tempfile.mkdtemp(prefix="shot-prefs-")), runtime=rt, offline=True)
    if theme:
        win.prefs.set("theme", theme)
        win.apply_theme()
    win.resize(*size)
    win.show()
    return win


def sign_in_for_screenshot(win: object, app: object, email: str, workspace: str) -> bool:
    from services.core.demo import DEMO_PASSWORD
    from views.shell.window import ShellWindow

    assert isinstance(win, ShellWindow)
    landed: list[str] = []
    win.signed_in.connect(landed.append)
    win.signin.email.setText(email)
    win.signin.password.setText(DEMO_PASSWORD)
    win.signin.submit()
    deadline = time.monotonic() + 30
    # The button comes back enabled when signing in ended either way.
    while not landed and not win.signin.button.isEnabled() and time.monotonic() < deadline:
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.01)
    if not landed:
        print(f"could not sign in as {email}: {win.signin.message.text()}", file=sys.stderr)
        return False
    if workspace in win.workspace_classes:
        win.show_workspace(workspace)
    return True


def _settle(win: object, app: object) -> None:
    """Let the workspace's first loads finish and paint (each load may start another)."""
    deadline = time.monotonic() + 15
    quiet = 0
    while time.monotonic() < deadline and quiet < 5:
        app.processEvents()  # type: ignore[attr-defined]
        busy = win.ops.active  # type: ignore[attr-defined]
        quiet = quiet + 1 if busy == 0 else 0
        time.sleep(0.02)
