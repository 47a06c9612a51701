"""The one-folder build (`make dist`) on a real X server: the binary starts with ``--demo`` without Python
on its path, a person signs in by keyboard, a wedge scanner (xdotool typing a code in a burst, then
Enter) scans an order's pick barcode and one of its items, the pick reaches the station's database,
and Ctrl+Q quits.

Run by `make dist-test` (after `make dist`), not by `make test`: the build takes minutes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("PLATFORM_DIST_BINARY", ROOT / "dist" / "platform-station" / "platform-station"))

pytestmark = [
    pytest.mark.xvfb,
    pytest.mark.skipif(
        not os.environ.get("PLATFORM_DIST_TEST"), reason="make dist-test runs it (PLATFORM_DIST_TEST=1)"
    ),
]


def wait_for(what: str, check: Callable[[], object], timeout: float = 120) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed (scripts/system-deps.sh)")
    n = next(n for n in range(120, 220) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    wait_for("Xvfb", lambda: Path(f"/tmp/.X11-unix/X{n}").exists(), 20)
    yield f":{n}"
    proc.terminate()
    proc.wait(timeout=10)


def test_the_built_station_signs_in_scans_an_order_and_quits(display: str, tmp_path: Path) -> None:
    assert BINARY.exists(), f"{BINARY} is not built: make dist"
    data = tmp_path / "station"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", XDG_RUNTIME_DIR=str(tmp_path), HOME=str(tmp_path))
    log = (tmp_path / "station.log").open("w")
    app = subprocess.Popen([str(BINARY), "--demo", "--data-dir", str(data)], env=env, stdout=log, stderr=log,
                           cwd=tmp_path)  # fmt: skip

    def x(*args: str) -> str:
        return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=60).stdout

    def alive() -> None:
        assert app.poll() is None, (tmp_path / "station.log").read_text()[-3000:]

    try:
        window = str(wait_for("the sign-in window", lambda: x("search", "--onlyvisible", "--name", "Platform Station")))
        window = window.split()[0]
        db = data / "data.db"

        def pending_order() -> tuple[str, str, str] | None:
            # The demo's first pending order with a barcoded line (the station seeds it in the background).
            if not db.exists():
                return None
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
                    return c.execute(
                        "SELECT o.pick_barcode, l.barcode, l.id FROM fulfillment_orders o "
                        "JOIN fulfillment_order_lines l ON l.order_id = o.id JOIN tenants t ON t.id = o.tenant_id "
                        "WHERE t.slug = 'demo' AND o.status = 'pending' AND l.barcode IS NOT NULL "
                        "AND l.picked_quantity = 0 ORDER BY o.created_at, l.id LIMIT 1"
                    ).fetchone()
            except sqlite3.OperationalError:  # the tables are being made
                return None

        order, item, line = wait_for("the demo data", pending_order)  # type: ignore[misc]
        alive()
        x("windowfocus", "--sync", window)
        # A person types (70 ms a key: not a scanner burst) into the e-mail field, then the password.
        x("type", "--delay", "70", "device@demo.test")
        x("key", "Tab")
        x("type", "--delay", "70", "demo-password")
        x("key", "Return")
        wait_for("the warehouse", lambda: "Platform Station —" in x("getwindowname", window), 60)
        alive()
        time.sleep(1)  # the workspace takes the scan field's focus after it is shown
        # The wedge scanner: the code in a burst (8 ms a key), then its Enter suffix.
        x("type", "--delay", "8", order)
        x("key", "Return")
        time.sleep(2)  # the order opens (a read)
        x("type", "--delay", "8", item)
        x("key", "Return")

        def picked() -> int:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
                return int(c.execute("SELECT picked_quantity FROM fulfillment_order_lines WHERE id = ?", (line,))
                           .fetchone()[0])  # fmt: skip

        assert wait_for("the scanned item to be picked", picked, 60) == 1
        alive()
        x("key", "ctrl+q")
        assert app.wait(timeout=60) == 0, (tmp_path / "station.log").read_text()[-3000:]
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
        log.close()
