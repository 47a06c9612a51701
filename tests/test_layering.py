"""The layering rules of docs/ARCHITECTURE.md.

The import rules are declared contracts (``[tool.importlinter]`` in pyproject.toml) run by
import-linter here and in ``make lint``. Two rules are not about static imports, so they stay
as checks of their own: a module imports only the modules its manifest declares
(scripts/check_module_imports.py, also in make lint), the modules the composition root loads by name (importlib) pull in
no front door, and views/api never open a database session (a call, not an import).
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
from collections import namedtuple
from pathlib import Path
from typing import Any

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


def _module_imports() -> Any:
    spec = importlib.util.spec_from_file_location("check_module_imports", ROOT / "scripts" / "check_module_imports.py")
    assert spec is not None and spec.loader is not None
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    return checker


def test_modules_import_only_what_their_manifests_declare() -> None:
    r = subprocess.run(
        [sys.executable, "scripts/check_module_imports.py"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert " 0 broken" in r.stdout, r.stdout


def test_an_undeclared_or_private_import_of_another_module_is_named(tmp_path: Path, monkeypatch: Any) -> None:
    """The checker on a small tree: one import of each kind, allowed and not."""
    files = {
        "fakesvc/__init__.py": "",
        "fakesvc/core/__init__.py": "",
        "fakesvc/parts/__init__.py": "",  # a platform part, not a module
        "fakesvc/a/__init__.py": "",
        "fakesvc/a/codes.py": "",
        "fakesvc/a/inner.py": "",
        "fakesvc/b/__init__.py": "import fakesvc.core\nimport fakesvc.parts\nimport fakesvc.a\n",
        "fakesvc/b/work.py": "from fakesvc.a import codes\n\n\ndef f():\n    import fakesvc.a.inner\n",
        "fakesvc/c/__init__.py": "import fakesvc.b\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    Manifest = namedtuple("Manifest", "depends public")
    manifests = {"a": Manifest((), ("codes",)), "b": Manifest(("a",), ()), "c": Manifest((), ())}
    found = _module_imports().violations("fakesvc", manifests)
    assert found == [
        "fakesvc.b.work:5: fakesvc.a.inner is not public (a's manifest names ('codes',))",
        "fakesvc.c:1: c imports b, which its manifest does not name in depends",
    ]
