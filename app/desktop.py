"""Starting the Qt desktop (and rendering screenshots off screen)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from app.settings import default_data_dir


def _demo_dir(data_dir: Path | None) -> Path:
    return data_dir or default_data_dir() / "demo"


def run_desktop(args: argparse.Namespace) -> int:
    from PySide6.QtWidgets import QApplication

    from app.station import open_station, seed_data_dir
    from views.login import LoginWindow

    data_dir: Path = args.data_dir or (_demo_dir(None) if args.demo else default_data_dir())
    if args.demo and not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    rt = open_station(data_dir)
    win = LoginWindow(rt)
    win.show()
    code = app.exec()
    rt.db.dispose()
    return int(code)


def screenshot(workspace: str, out: Path, data_dir: Path | None, size: tuple[int, int], theme: str | None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.station import open_station, seed_data_dir
    from views.login import LoginWindow

    tmp = None
    if data_dir is None:
        tmp = tempfile.TemporaryDirectory()
        data_dir = Path(tmp.name)
    if not (data_dir / "data.db").exists():
        seed_data_dir(data_dir)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    rt = open_station(data_dir)
    win = LoginWindow(rt)
    win.resize(*size)
    win.show()
    app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = win.grab().save(str(out))
    win.close()
    rt.db.dispose()
    if tmp:
        tmp.cleanup()
    print(f"wrote {out}" if ok else f"could not write {out}")
    return 0 if ok else 1
