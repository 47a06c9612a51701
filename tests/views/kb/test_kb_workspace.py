"""The knowledge-base reader with real widgets: published articles listed, a search typed, an article read."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.workspaces import workspace_factory
from views.kb.workspace import KnowledgeBaseWorkspace


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., KnowledgeBaseWorkspace]]:
    yield from workspace_factory(runtime, qtbot, KnowledgeBaseWorkspace, "admin@demo.test", (1100, 700))


def test_search_and_read(make: Callable[..., KnowledgeBaseWorkspace], qtbot: QtBot) -> None:
    ws = make()
    qtbot.waitUntil(lambda: ws.results.count() == 7 and ws.category.count() > 1)  # published, none trashed
    assert "7 articles" in ws.status.text()
    qtbot.keyClicks(ws.search, "efun")  # inside "refund"
    qtbot.waitUntil(lambda: "found" in ws.status.text() and ws.results.count() >= 1, timeout=30_000)
    assert ws.results.item(0).text().startswith("Refunds: when the money arrives")
    qtbot.keyClick(ws.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "5 business days" in ws.reader.toPlainText(), timeout=30_000)
    ws.search.clear()
    qtbot.keyClicks(ws.search, "zzzqqq")
    qtbot.waitUntil(lambda: ws.status.text() == "0 articles found", timeout=30_000)
