"""Starting the Qt desktop (and rendering screenshots off screen).

The sign-in window is shown before the service layer is imported: the
station's runtime (SQLAlchemy, migrations, every module) loads on a worker
thread meanwhile, so the window appears about as fast as a bare Qt window.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.paths import default_data_dir

# Diagnostics for the start-up benchmark and the Xvfb test (tests/bench/bench_startup.py):
# print "shown <seconds>" once the window is on screen; with a path, also grab the screen
# into that PNG; then quit.
ENV_QUIT_WHEN_SHOWN = "PLATFORM_STATION_QUIT_WHEN_SHOWN"
ENV_SHOT = "PLATFORM_STATION_SHOT"

DEMO_USER_FOR = {
    "warehouse": "device@demo.test",
    "inspection": "operator@demo.test",
    "helpdesk": "operator@demo.test",
    "admin": "owner@demo.test",
}


def _demo_dir(data_dir: Path | None) -> Path:
    return data_dir or default_data_dir() / "demo"


def _load_station(data_dir: Path, demo: bool) -> object:
    from app.station import open_station, seed_data_dir

    if demo and not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    return open_station(data_dir)


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

        embedded = EmbeddedServer(Settings(data_dir=data_dir / "platform", demo=True))
        platform_url = embedded.start()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Platform Station")
    win = ShellWindow(
        data_dir,
        runtime_loader=lambda: _load_station(data_dir, args.demo),  # type: ignore[arg-type,return-value]
        kiosk=args.kiosk,
        platform_url=platform_url,
        offline=args.offline,
    )
    win.show_for_mode()

    if os.environ.get(ENV_QUIT_WHEN_SHOWN) or os.environ.get(ENV_SHOT):
        _probe_when_shown(win)

    # asyncio on the Qt loop (qasync): the sync engine's coroutines run here.
    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    win.ops.set_loop(loop)  # network coroutines (views.ops.OpRunner.run_async) run here
    with loop:
        loop.run_forever()
    win.ops.wait(10_000)
    rt = win.runtime
    if rt is not None:
        rt.db.dispose()
    if embedded is not None:
        embedded.stop()
    return 0


def _probe_when_shown(win: Any) -> None:
    """Start-up probe: report once the window is exposed (mapped and painted), optionally grab the screen."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    timer = QTimer(win)
    timer.setInterval(2)

    def check() -> None:
        handle = win.windowHandle()
        if handle is None or not handle.isExposed():
            return
        timer.stop()
        print(f"shown {time.perf_counter():.4f}", flush=True)
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


def screenshot(workspace: str, out: Path, data_dir: Path | None, size: tuple[int, int], theme: str | None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.station import open_station, seed_data_dir
    from views.shell.window import ShellWindow

    tmp = None
    if data_dir is None:
        tmp = tempfile.TemporaryDirectory()
        data_dir = Path(tmp.name)
    if not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    rt = open_station(data_dir)
    # Screenshot preferences of their own: never the person's geometry, theme or last workspace.
    prefs_dir = Path(tempfile.mkdtemp(prefix="shot-prefs-"))
    win = ShellWindow(prefs_dir, runtime=rt, offline=True)
    if theme:
        win.prefs.set("theme", theme)
        win.apply_theme()
    win.resize(*size)
    win.show()
    from PySide6.QtGui import QCursor

    QCursor.setPos(win.mapToGlobal(win.rect().bottomRight()) * 2)  # no hover highlight in the picture
    ok_sign_in = True
    if workspace != "login":
        ok_sign_in = sign_in_for_screenshot(win, app, DEMO_USER_FOR[workspace], workspace)
    _settle(win, app)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = ok_sign_in and win.grab().save(str(out))
    win.close()
    rt.db.dispose()
    if tmp:
        tmp.cleanup()
    print(f"wrote {out}" if ok else f"could not write {out}")
    return 0 if ok else 1


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
