"""Records in German: the words made from the declarations (module names, lists, columns, fields,
actions) are all listed for lupdate and translated, and the workspace shows them in German."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import english_left, entries, german
from tests.views.workspaces import workspace_factory
from views.records import catalogue
from views.records.workspace import RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def test_every_declared_word_is_listed_for_lupdate_and_translated(station: Runtime) -> None:
    # A manifest that gains a field or an action fails here until the catalogue is made again
    # (python -m views.records.catalogue), lupdate run and the German written.
    missing = catalogue.words() - catalogue.listed()
    assert not missing, f"run python -m views.records.catalogue, then lupdate: {sorted(missing)[:20]}"
    messages = entries("records")
    sources = {src for _c, src, _forms, _done in messages}
    assert catalogue.listed() <= sources, sorted(catalogue.listed() - sources)[:20]
    unfinished = [src for _c, src, _forms, done in messages if not done]
    assert unfinished == [], unfinished[:20]
    assert len(messages) > 500  # the walk saw the manifests


def test_records_reads_in_german(open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot) -> None:
    with german("records"):
        ws = open_ws()
        tree = [ws.tree.topLevelItem(i).text(0) for i in range(ws.tree.topLevelItemCount())]  # type: ignore[union-attr]
        assert "Versand" in tree and "Fulfillment" not in tree
        assert ws.new_button.text() == "Neu…" and ws.export_button.text() == "CSV exportieren…"
        ws.show_resource("fulfillment:/orders")
        qtbot.waitUntil(lambda: ws.record is not None and ws.session.ops.active == 0, timeout=30_000)
        assert ws.heading.text() == "Versand · Aufträge"
        assert ws.count.text().endswith("Datensätze"), ws.count.text()
        assert ws.model is not None
        headers = [str(ws.model.headerData(c, Qt.Orientation.Horizontal)) for c in range(ws.model.columnCount())]
        assert "Auftragsnummer" in headers, headers
        panel = ws.detail_scroll.widget()
        shown = [w.text() for w in panel.findChildren(QLabel) + panel.findChildren(QPushButton) if w.isVisibleTo(ws)]
        shown += headers + tree
        assert english_left(shown, "records") == []
        buttons = [b.text() for b in ws.actions_row.findChildren(QPushButton)]
        assert any(b.startswith("Auftrag ") for b in buttons), buttons  # "Auftrag packen", "… stornieren"
