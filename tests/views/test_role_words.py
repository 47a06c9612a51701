"""One map of role words (issue 32): Admin's user list said "operator" where the sign-in said
"Operator", from two maps under two contexts. Both now read views/shell/roles.py."""

from __future__ import annotations

import ast
from pathlib import Path

from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import german
from tests.views.workspaces import workspace_factory
from views.admin.users import role_words
from views.admin.workspace import AdminWorkspace
from views.shell.roles import ROLE_WORDS, role_label

VIEWS = Path(__file__).parents[2] / "views"


def test_no_second_map_of_role_words() -> None:
    """No dict in views/ but roles.py has the four roles as its keys."""
    roles = set(ROLE_WORDS)
    found = []
    for path in VIEWS.rglob("*.py"):
        if path == VIEWS / "shell" / "roles.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if roles <= keys:
                    found.append(f"{path.relative_to(VIEWS)}:{node.lineno}")
    assert found == []
    assert role_words is role_label


def test_admin_list_and_sign_in_say_the_same_words(station: Runtime, qtbot: QtBot) -> None:
    with german("shell", "admin"):
        assert [role_label(r) for r in ROLE_WORDS] == ["Inhaber", "Administrator", "Sachbearbeiter", "Lagergerät"]
        for make in workspace_factory(station, qtbot, AdminWorkspace, "owner@demo.test", (1280, 800)):
            ws = make()
            table = ws.users.table  # type: ignore[attr-defined]
            qtbot.waitUntil(lambda t=table: t.rowCount() > 0, timeout=30_000)
            col = next(c for c in range(table.columnCount()) if table.horizontalHeaderItem(c).text() == "Rolle")
            shown = {table.item(r, col).text() for r in range(table.rowCount())}
            assert shown and shown <= {role_label(r) for r in ROLE_WORDS}, shown
