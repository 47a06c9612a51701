"""A record's actions follow its state, from the transitions its use cases are linked to: one button
per action its state machine has, greyed out where the record's state does not allow it, a question
first where the transition cannot be taken back; never a raw "{action}" in a button."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtWidgets import QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.workspaces import workspace_factory
from views.records.workspace import ActionDialog, RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _open_claim(qtbot: QtBot, ws: RecordsWorkspace, key: str) -> dict[str, QPushButton]:
    ws.show_resource("aftersale:/claims")
    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy, timeout=30_000)
    claim = demo_id("aftersale-claim", key)
    ws.open_record(claim)
    qtbot.waitUntil(lambda: ws.record is not None and ws.record.id == claim, timeout=30_000)

    def shown() -> dict[str, QPushButton]:
        buttons = [b for b in ws.findChildren(QPushButton) if b.objectName() == "action-aftersale.claims.act"]
        return {b.text(): b for b in buttons if b.isVisibleTo(ws)}

    qtbot.waitUntil(lambda: len(shown()) == 3, timeout=30_000)  # laid out when the event loop turns
    return shown()


def _dialog(qtbot: QtBot, ws: RecordsWorkspace, title: str) -> ActionDialog:
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(ActionDialog)), timeout=30_000)
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    assert dialog.windowTitle() == title
    return dialog


def test_a_cancelled_claim_offers_no_start_and_an_open_one_asks_before_cancelling(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = open_ws()
    cancelled = _open_claim(qtbot, ws, "c4")
    # One button per action of the claim's table (its body may carry a resolution: a form first).
    assert set(cancelled) == {"Start claim…", "Close claim…", "Cancel claim…"}
    assert not any(b.isEnabled() for b in cancelled.values())
    assert "cancelled" in cancelled["Start claim…"].toolTip()
    every = [b.text() for b in ws.findChildren(QPushButton) if b.isVisibleTo(ws)]
    assert not [t for t in every if "{" in t], every

    opened = _open_claim(qtbot, ws, "c1")
    assert {t: b.isEnabled() for t, b in opened.items()} == {
        "Start claim…": True,
        "Close claim…": False,
        "Cancel claim…": True,
    }
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    opened["Cancel claim…"].click()
    dialog = _dialog(qtbot, ws, "Cancel claim")
    assert dialog.form.value()["action"] == "cancel"  # the form comes with the action picked
    dialog.submit()
    assert asked == ["Cancel claim? This cannot be undone."]
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    assert ws.record.status == "open"  # the question was answered No: nothing ran
    dialog.reject()

    opened["Start claim…"].click()
    _dialog(qtbot, ws, "Start claim").submit()  # reversible: no question
    assert len(asked) == 1
    claim = demo_id("aftersale-claim", "c1")
    qtbot.waitUntil(
        lambda: ws.record is not None and ws.record.id == claim and ws.record.status == "in_progress", timeout=8000
    )

    def buttons() -> dict[str, bool]:
        return {
            b.text(): b.isEnabled()
            for b in ws.findChildren(QPushButton)
            if b.objectName() == "action-aftersale.claims.act" and b.isVisibleTo(ws)
        }

    # The record is read again after the change: its buttons follow its new state.
    want = {"Start claim…": False, "Close claim…": True, "Cancel claim…": True}
    qtbot.waitUntil(lambda: buttons() == want, timeout=30_000)


def test_a_single_click_on_another_row_shows_that_record(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    """Issue 32, defect 1: after a single click on another row the panel kept the previous record,
    and its action ran on a cancelled claim. The panel follows the click (and the arrow keys)."""
    from PySide6.QtCore import Qt

    ws = open_ws()
    _open_claim(qtbot, ws, "c1")
    model = ws.model
    assert model is not None
    ids = [ws._id_of(model.record_at(r)) for r in range(model.rowCount())]
    cancelled = ids.index(demo_id("aftersale-claim", "c4"))
    rect = ws.table.visualRect(model.index(cancelled, 0))
    qtbot.mouseClick(ws.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: ws.record is not None and ws.record.id == ids[cancelled], timeout=30_000)
    buttons = [b for b in ws.findChildren(QPushButton) if b.objectName() == "action-aftersale.claims.act"]
    qtbot.waitUntil(lambda: all(not b.isEnabled() for b in buttons if b.isVisibleTo(ws)), timeout=30_000)
    # The arrow key moves on: the panel shows the next row, not the cancelled claim.
    other = cancelled + 1 if cancelled + 1 < len(ids) else cancelled - 1
    qtbot.keyClick(ws.table, Qt.Key.Key_Down if other > cancelled else Qt.Key.Key_Up)
    qtbot.waitUntil(lambda: ws.record is not None and ws.record.id == ids[other], timeout=30_000)


@pytest.mark.parametrize(
    ("title", "one"),
    [("Doc categories", "Doc category"), ("Claims", "Claim"), ("Addresses", "Address"), ("Boxes", "Box"),
     ("Batches", "Batch"), ("Access", "Access"), ("Tax", "Tax")],
)  # fmt: skip
def test_a_record_is_named_in_the_singular(title: str, one: str) -> None:
    """Issue 32, defect 2: a document category's panel was titled "Doc categorie"."""
    from views.records.workspace import singular

    assert singular(title) == one


def test_states_read_as_words_in_the_list_and_an_empty_photo_list_says_so(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    """Seen in the screenshots: the list's Status cell read "in_progr…" (the stored value) where the
    panel and the warehouse say it in words, and a claim without photos showed a bare "Photos"."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFormLayout, QLabel

    ws = open_ws()
    _open_claim(qtbot, ws, "c1")
    assert ws.model is not None
    col = ws.model.columns.index("status")
    shown = {ws.model.index(r, col).data() for r in range(ws.model.rowCount())}
    stored = {ws.model.index(r, col).data(Qt.ItemDataRole.UserRole).status for r in range(ws.model.rowCount())}
    assert "in_progress" in stored and "in progress" in shown and not [s for s in shown if "_" in s], shown
    in_progress = next(
        r
        for r in range(ws.model.rowCount())
        if ws.model.index(r, col).data(Qt.ItemDataRole.UserRole).status == "in_progress"
    )
    assert ws.model.index(in_progress, col).data(Qt.ItemDataRole.ToolTipRole) == "in progress\nin_progress"

    form = ws.detail_form
    rows = {}
    for i in range(form.rowCount()):
        label, field = form.itemAt(i, QFormLayout.ItemRole.LabelRole), form.itemAt(i, QFormLayout.ItemRole.FieldRole)
        if label is not None and field is not None and isinstance(label.widget(), QLabel):
            rows[label.widget().text().replace("&", "")] = field.widget()
    photos = rows["Photos"]
    assert isinstance(photos, QLabel) and photos.text() == "—", photos.text()
