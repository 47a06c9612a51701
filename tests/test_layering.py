"""The layering rules of docs/ARCHITECTURE.md.

The import rules are declared contracts (``[tool.importlinter]`` in pyproject.toml) run by
import-linter here and in ``make lint``. Two rules are not about static imports, so they stay
as checks of their own: the modules the composition root loads by name (importlib) pull in
no front door, and views/api never open a database session (a call, not an import).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    r = subprocess.run([exe, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout, r.stdout


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
    # import-linter sees imports, not calls: views may import services.core.context (for Runtime),
    # so "no session" is checked on the calls that open one.
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
