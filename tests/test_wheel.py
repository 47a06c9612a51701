"""Issue 37, part 5: the server as a wheel. It builds, holds every file the code reads at run time (the
migrations, the pages' templates and catalogues, the themes, the tax sample rates) and the two console
scripts, and installed on its own (as pipx does, into a prefix of its own) both commands run from it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "views", "api", "services", "local_db", "resources")


def _source_files() -> set[str]:
    out = set()
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                out.add(path.relative_to(ROOT).as_posix())
    return out


def test_the_wheel_holds_every_file_and_both_commands_run_from_it(tmp_path: Path) -> None:
    # A copy of the sources: setuptools writes build/ beside them, and a stale build/ could hide a gap.
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    for top in PACKAGES:
        shutil.copytree(ROOT / top, src / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(tmp_path / "dist")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = (tmp_path / "dist").glob("platform_station-*-py3-none-any.whl")

    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_points = z.read(info).decode()
    assert "platform-server = app.__main__:server_main" in entry_points
    assert "platform-station = app.__main__:main" in entry_points
    missing = sorted(_source_files() - names)
    assert not missing, f"files the wheel leaves out (pyproject.toml package-data): {missing[:20]}"

    # Installed without the project's checkout on the path; its dependencies are this interpreter's.
    prefix = tmp_path / "installed"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--prefix", str(prefix), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    site = sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)})
    env = {**os.environ, "PYTHONPATH": site, "QT_QPA_PLATFORM": "offscreen"}

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    where = run(sys.executable, "-c", "import app; print(app.__file__)")
    assert where.stdout.strip().startswith(site), where  # the wheel's code, not the checkout's
    version = run(str(prefix / "bin" / "platform-station"), "--version")
    assert version.returncode == 0 and version.stdout.startswith("platform-station "), version
    server = run(str(prefix / "bin" / "platform-server"), "--help")
    assert server.returncode == 0 and "--workers" in server.stdout and "--tls-cert" in server.stdout, server
