"""``python -m app new-module NAME``: the files of a module in the one shape, written once.

The generated package declares its use cases with ``services.core.commands.use_case``; these
tests judge the files themselves (which files, valid Python, ruff-clean, the migration branch,
the declarations), not a run of them.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from local_db.revise import CORE_HEAD
from services.core.modules import module_names
from tests.test_docs_links import broken

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

SHAPE = {
    "services/inventory/__init__.py",
    "services/inventory/schemas.py",
    "services/inventory/service.py",
    "services/inventory/states.py",
    "services/inventory/demo.py",
    "local_db/models/inventory.py",
    "tests/services/inventory/test_inventory_service.py",
    "tests/api/inventory/test_inventory_routes.py",
    "docs/inventory.md",
}
WORKSPACE = {
    "views/inventory/__init__.py",
    "views/inventory/workspace.py",
    "tests/views/inventory/test_inventory_workspace.py",
}


def new_module(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    cmd = [sys.executable, "-m", "app", "new-module", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


def written(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {"pyproject.toml"}


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """An empty checkout with the project's lint settings."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_writes_the_files_of_a_module(checkout: Path) -> None:
    r = new_module("inventory", "--workspace", "--root", str(checkout))
    assert r.returncode == 0, r.stderr
    files = written(checkout)
    migrations = [f for f in files if f.startswith("local_db/migrations/versions/")]
    assert files - set(migrations) == SHAPE | WORKSPACE
    assert migrations == ["local_db/migrations/versions/0100_inventory_inventory_tables.py"]
    assert set(r.stdout.split()) >= files

    for path in checkout.rglob("*.py"):
        ast.parse(path.read_text(), str(path))
    for check in (["check", "."], ["format", "--check", "."]):
        lint = subprocess.run([BIN / "ruff", *check], cwd=checkout, capture_output=True, text=True, timeout=60)
        assert lint.returncode == 0, lint.stdout + lint.stderr

    migration = (checkout / migrations[0]).read_text()
    assert "revision = '0100_inventory'" in migration and f"down_revision = '{CORE_HEAD}'" in migration
    assert "branch_labels = ('inventory',)" in migration and "'inventory_notes'" in migration

    service = ast.parse((checkout / "services/inventory/service.py").read_text())
    declared = {
        ast.literal_eval(deco.args[0]): ast.literal_eval(deco.args[1])
        for fn in service.body
        if isinstance(fn, ast.FunctionDef)
        for deco in fn.decorator_list
        if isinstance(deco, ast.Call) and getattr(deco.func, "id", "") == "use_case"
    }
    assert declared == {
        "inventory.notes.list": "GET /notes",
        "inventory.notes.get": "GET /notes/{id}",
        "inventory.notes.create": "POST /notes",
        "inventory.notes.archive": "POST /notes/{id}/archive",
    }
    init = (checkout / "services/inventory/__init__.py").read_text()
    assert "from services.inventory import demo, service" in init
    assert broken((checkout / "docs/inventory.md").read_text(), checkout / "docs", checkout) == [
        "DECISIONS.md#addresses (no such file)"  # docs/DECISIONS.md is not in this empty checkout
    ]


def test_without_workspace_no_views(checkout: Path) -> None:
    assert new_module("inventory", "--root", str(checkout)).returncode == 0
    assert not (checkout / "views").exists() and written(checkout) >= SHAPE


def test_run_twice_refuses_and_keeps_the_files(checkout: Path) -> None:
    assert new_module("inventory", "--root", str(checkout)).returncode == 0
    service = checkout / "services/inventory/service.py"
    service.write_text(service.read_text() + "# my work\n")
    before = written(checkout)
    again = new_module("inventory", "--workspace", "--root", str(checkout))
    assert again.returncode == 2
    assert len(again.stderr.strip().splitlines()) == 1 and "exists already" in again.stderr, again.stderr
    assert written(checkout) == before and service.read_text().endswith("# my work\n")


def test_an_existing_module_of_this_checkout_is_refused() -> None:
    r = new_module("fulfillment")
    assert r.returncode == 2 and "exists already" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["Bad-Name", "9lives", "class", "core", "sync", "a" * 31, ""])
def test_a_bad_name_is_one_line_and_exit_2(checkout: Path, name: str) -> None:
    r = new_module(name, "--root", str(checkout))
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert written(checkout) == set()


def test_a_new_name_makes_a_module_its_manifest_declares(checkout: Path) -> None:
    """Any free name is a module: the list of modules is derived from the manifests."""
    r = new_module("moon", "--root", str(checkout))
    assert r.returncode == 0, r.stderr
    assert module_names(checkout / "services") == ("moon",)
    init = (checkout / "services/moon/__init__.py").read_text()
    assert 'MODULE = Module(\n    name="moon",' in init and "seeders=(demo.seed_moon,)" in init
    service = (checkout / "services/moon/service.py").read_text()
    assert 'record_kind("moon.note", get="moon.notes.get", label="title")' in service
