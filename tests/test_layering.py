"""services/ and local_db/ never import the front doors; views/ and api/ never open sessions."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRONT_DOORS = {"PySide6", "fastapi", "starlette", "qasync", "uvicorn", "views", "api", "app"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_service_layer_and_db_do_not_import_front_doors() -> None:
    offenders = []
    for folder in ("services", "local_db"):
        for path in (ROOT / folder).rglob("*.py"):
            bad = _imports(path) & FRONT_DOORS
            if bad:
                offenders.append(f"{path.relative_to(ROOT)}: {sorted(bad)}")
    assert offenders == []


def test_importing_every_service_pulls_in_neither_qt_nor_fastapi() -> None:
    code = (
        "import sys, app.wiring as w; w.load_modules(); import local_db.models; "
        "bad=[m for m in ('PySide6','fastapi','starlette','qasync') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    # app.wiring itself is a composition root; it must not drag front doors in either.
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_views_and_api_do_not_open_database_sessions() -> None:
    needles = (".reading(", ".transaction(", "db.session(", "sessionmaker(", "create_engine(")
    offenders = []
    for folder in ("views", "api"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in needles if n in text]
    assert offenders == []


def test_the_sync_panel_and_the_window_do_not_import_each_other() -> None:
    """The sync controller owns the engine; the window and the Sync panel only display it."""
    shell = ROOT / "views" / "shell"

    def imported(name: str) -> set[str]:
        tree = ast.parse((shell / name).read_text())
        return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}

    assert "views.shell.window" not in imported("sync_panel.py")
    assert "views.shell.window" not in imported("sync_controller.py")
    assert "views.shell.sync_panel" not in imported("sync_controller.py")
    window = (shell / "window.py").read_text()
    assert "SyncEngine(" not in window and "after_commit" not in window  # the engine is the controller's
