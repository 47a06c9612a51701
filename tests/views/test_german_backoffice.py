"""The back-office workspaces in German (admin, knowledge base, review, QR designer): opened with
their committed translations, no visible label, button, box or tab is left in English, and the
German words fit (none cut) at 1280×800."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QTabWidget, QWidget
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import english_left, german
from tests.views.workspaces import settle, workspace_factory
from views.admin.workspace import AdminWorkspace
from views.base import Workspace
from views.kb.workspace import KnowledgeBaseWorkspace
from views.qrdesign.workspace import WORKSPACE as QrDesignWorkspace
from views.review.workspace import ReviewWorkspace

CASES = [
    (AdminWorkspace, "admin"),
    (KnowledgeBaseWorkspace, "kb"),
    (ReviewWorkspace, "review"),
    (QrDesignWorkspace, "qrdesign"),
]


def visible_texts(ws: QWidget) -> list[str]:
    """What a person reads: labels, buttons and boxes shown, group titles, every tab's title."""
    texts = [w.text() for w in ws.findChildren(QLabel) + ws.findChildren(QAbstractButton) if w.isVisibleTo(ws)]
    texts += [g.title() for g in ws.findChildren(QGroupBox) if g.isVisibleTo(ws)]
    for tabs in ws.findChildren(QTabWidget):
        texts += [tabs.tabText(i) for i in range(tabs.count())]
    return [t.replace("&", "") for t in texts if t.strip()]


def cut(ws: QWidget) -> list[str]:
    """Buttons whose words are wider than the button shows (German words are long)."""
    return [
        b.text()
        for b in ws.findChildren(QAbstractButton)
        if b.isVisibleTo(ws) and b.text() and b.width() < b.fontMetrics().horizontalAdvance(b.text().replace("&", ""))
    ]


@pytest.fixture
def german_on() -> Iterator[None]:
    with german("admin", "kb", "review", "qrdesign", "sign"):
        yield


@pytest.mark.parametrize(("cls", "package"), CASES, ids=[p for _c, p in CASES])
def test_workspace_reads_in_german_and_fits(
    cls: type[Workspace], package: str, station: Runtime, qtbot: QtBot, german_on: None
) -> None:
    for make in workspace_factory(station, qtbot, cls, "owner@demo.test", (1280, 800)):
        ws = make()
        settle(qtbot, ws)
        shown = visible_texts(ws)
        assert shown, package  # the walk saw the workspace
        left = english_left(shown, package) + [t for t in english_left(shown, "admin") if package == "admin"]
        assert left == [], f"{package}: still English: {left}"
        assert cut(ws) == [], f"{package}: cut in German: {cut(ws)}"
        if package == "admin":
            tabs = ws.findChild(QTabWidget)
            assert tabs is not None and tabs.tabText(0) == "&Benutzer"
