"""The real app on a real X server (Xvfb, QT_QPA_PLATFORM=xcb): it starts, shows the sign-in window, grabs the screen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.xvfb


def _free_display() -> int:
    for n in range(90, 190):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number")


@pytest.fixture
def xvfb() -> Iterator[str]:
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (scripts/system-deps.sh installs it when run as root)")
    n = _free_display()
    proc = subprocess.Popen([exe, f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.skip(f"Xvfb did not start on :{n}")
        time.sleep(0.05)
    yield f":{n}"
    proc.terminate()
    proc.wait(timeout=10)


def test_real_app_under_xvfb_shows_the_sign_in_window(xvfb: str, tmp_path: Path) -> None:
    shot = tmp_path / "xvfb-signin.png"
    env = {
        **os.environ,
        "DISPLAY": xvfb,
        "QT_QPA_PLATFORM": "xcb",
        "PLATFORM_STATION_SHOT": str(shot),
        "XDG_RUNTIME_DIR": str(tmp_path),
    }
    r = subprocess.run(
        [sys.executable, "-m", "app", "--demo", "--offline", "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("shown "), r.stdout + r.stderr[-2000:]
    from PySide6.QtGui import QImage

    img = QImage(str(shot))
    assert (img.width(), img.height()) == (1280, 800)
    # Not a blank screen: the sign-in card (white) and the primary button (blue) are there.
    colours = {img.pixelColor(x, y).name() for x in range(0, 1280, 16) for y in range(0, 800, 16)}
    assert len(colours) > 3, colours
    assert "#2563eb" in colours  # the Sign in button
    # The runtime finished loading in the background: the demo data was seeded.
    assert (tmp_path / "data" / "data.db").exists()
