"""Workspaces are found from their packages: a new one is a new folder, not lines in the shell."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import views
from views.shell.catalog import landing, placeholder
from views.workspaces import all_workspaces, workspace_packages

NEW_WORKSPACE = """
from views.base import Workspace


class FloorWorkspace(Workspace):
    name = "floor"
    title = "Shop floor"
    modules = frozenset({"mes"})
    position = 15
    landing = {"operator": 0}


WORKSPACE = FloorWorkspace
"""


@pytest.fixture
def extra_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A workspace package ``views/floor/`` that lives outside the repository for this test."""
    (tmp_path / "floor").mkdir()
    (tmp_path / "floor" / "workspace.py").write_text(NEW_WORKSPACE)
    monkeypatch.setattr(views, "__path__", [*views.__path__, str(tmp_path)])
    yield "floor"
    for mod in ("views.floor.workspace", "views.floor"):
        sys.modules.pop(mod, None)


SHIPPED = ["warehouse", "inspection", "helpdesk", "admin"]


def test_the_shipped_workspaces_in_switcher_order() -> None:
    found = all_workspaces()
    assert [n for n in found if n in SHIPPED] == SHIPPED
    assert [cls.position for cls in found.values()] == sorted(cls.position for cls in found.values())
    assert set(workspace_packages()) == set(all_workspaces())  # found without importing Qt, same names


def test_a_new_package_is_a_new_workspace(extra_package: str) -> None:
    assert extra_package in workspace_packages()
    found = all_workspaces()
    names = list(found)
    assert names.index("warehouse") < names.index("floor") < names.index("inspection")  # by position
    # It claims operators with a lower rank than inspection: they land there now.
    assert landing("operator", list(found), None) == "floor"
    stand_in = placeholder("floor")
    assert (stand_in.title, stand_in.modules, stand_in.position) == ("Shop floor", frozenset({"mes"}), 15)


def test_landing_follows_what_workspaces_claim() -> None:
    every = list(all_workspaces())
    assert landing("operator", every, None) == "inspection"
    assert landing("operator", ["warehouse", "helpdesk"], None) == "helpdesk"
    assert landing("warehouse-device", ["warehouse"], None) == "warehouse"
    assert landing("owner", every, None) == "admin"
    assert landing("owner", every, "helpdesk") == "helpdesk"  # where they were last
    assert landing("operator", [], None) is None
