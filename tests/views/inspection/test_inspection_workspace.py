"""The inspection bench driven like an inspector does: scan, grade with the keyboard, complete, revise."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.services.upgrade.upgrade_helpers import png, staff
from tests.views.workspaces import settle, workspace_factory
from views.base import Workspace
from views.inspection.workspace import WORKSPACE, InspectionWorkspace

MakeWs = Callable[[], InspectionWorkspace]


_settle = settle


@pytest.fixture
def make_ws(station: Runtime, qtbot: QtBot) -> Iterator[MakeWs]:
    yield from workspace_factory(station, qtbot, WORKSPACE, "operator@demo.test", (1400, 950))


def scan(qtbot: QtBot, ws: InspectionWorkspace, code: str) -> None:
    qtbot.keyClicks(ws.scan_input, code)
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)
    _settle(qtbot, ws)
    _settle(qtbot, ws)  # the thumbnails load after the details


def test_workspace_contract(make_ws: MakeWs) -> None:
    ws = make_ws()
    assert issubclass(WORKSPACE, Workspace)
    assert (WORKSPACE.name, WORKSPACE.title, WORKSPACE.modules) == ("inspection", "Trade-in inspection",
                                                                    frozenset({"upgrade"}))  # fmt: skip
    assert WORKSPACE.available_to(ws.session)
    assert ws.queue.count() == 1  # "To review": the demo's submitted trade-in


def test_scan_opens_with_photos_and_declared_condition(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    scan(qtbot, ws, "kit-demo000008")
    assert ws.sub is not None and ws.sub.status == "received" and ws.sub.serial_number == "IP13DEMO0008"
    assert ws.photos.count() == 2 and not ws.photos.item(0).icon().isNull()
    assert "Declared: excellent" in ws.declared.text() and "300.00" in ws.declared.text()
    assert ws.complete_btn.isVisibleTo(ws) and not ws.receive_btn.isVisibleTo(ws)
    assert not ws.offer_box.isVisibleTo(ws)
    scan(qtbot, ws, "KIT-UNKNOWN")
    assert ws.banner.property("tone") == "error" and "KIT-UNKNOWN" in ws.banner.text()


def test_grade_and_value_update_live_and_the_revised_offer_path(qtbot: QtBot, make_ws: MakeWs, station: Runtime,
                                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000008")
    # Lock and wipe still unchecked: the bench says why it cannot complete.
    assert ws.preview.property("tone") == "error" and "locked" in ws.preview.text()
    ws.account_lock.setFocus()
    qtbot.keyClick(ws.account_lock, Qt.Key.Key_Space)
    qtbot.keyClick(ws.data_wiped, Qt.Key.Key_Space)
    assert ws.preview.property("tone") == "ok" and "credit 300.00" in ws.preview.text()
    # Deep scratches: suggested fair, 60 % of 300.00, below the accepted offer.
    ws.screen_combo.setFocus()
    qtbot.keyClick(ws.screen_combo, Qt.Key.Key_Down)
    qtbot.keyClick(ws.screen_combo, Qt.Key.Key_Down)
    assert "Graded: fair (suggested fair)" in ws.graded.text() and "180.00" in ws.graded.text()
    assert ws.preview.property("tone") == "warn" and "Revised offer of 180.00" in ws.preview.text()
    assert "screen: deep scratches (fair)" in ws.reasons.text()
    # The inspector overrides to good (240.00), attaches a photo from disk and completes with Ctrl+Enter.
    ws.override.setCurrentIndex(2)
    assert "Graded: good (suggested fair)" in ws.graded.text() and "240.00" in ws.graded.text()
    photo = tmp_path / "scratch.png"
    photo.write_bytes(png((320, 240)))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(photo)], ""))
    qtbot.keyClick(ws, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert len(ws.new_photos) == 1 and ws.photos.count() == 3
    ws.notes.setText("deep scratch across the screen")
    qtbot.keyClick(ws.notes, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    assert ws.sub.status == "inspected" and ws.banner.property("tone") == "warn"
    assert "Revised offer of 240.00" in ws.banner.text()
    offer = ws.sub.current_offer
    assert offer.kind == "revised" and float(offer.amount) == 240.0 and offer.photos == ws.sub.inspection.photos
    assert "inspector graded good (checklist suggested fair)" in offer.reasons
    # The customer accepted by phone: recorded at the bench, the credit is issued.
    assert ws.accept_btn.isVisibleTo(ws)
    qtbot.mouseClick(ws.accept_btn, Qt.MouseButton.LeftButton)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert ws.sub.status == "completed" and float(ws.sub.credit) == 240.0
    assert ws.banner.property("tone") == "ok"
    assert execute(staff(station), "upgrade.admin.scan", code="KIT-DEMO000008").status == "completed"


def test_complete_at_the_offer_issues_the_credit(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000008")
    ws.account_lock.setChecked(True)
    ws.data_wiped.setChecked(True)
    qtbot.mouseClick(ws.complete_btn, Qt.MouseButton.LeftButton)
    _settle(qtbot, ws)
    assert ws.sub.status == "completed" and "credit 300.00" in ws.banner.text()
    assert ws.banner.property("tone") == "ok" and not ws.complete_btn.isVisibleTo(ws)


def test_receive_and_review_queue(qtbot: QtBot, make_ws: MakeWs, station: Runtime) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000006")
    assert ws.sub.status == "shipped" and ws.receive_btn.isVisibleTo(ws)
    qtbot.keyClick(ws, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    assert ws.sub.status == "received" and ws.banner.property("tone") == "ok"
    # To review: open the submitted one, send an offer with Ctrl+O.
    ws.queue_kind.setCurrentIndex(0)
    _settle(qtbot, ws)
    qtbot.mouseClick(
        ws.queue.viewport(), Qt.MouseButton.LeftButton, pos=ws.queue.visualItemRect(ws.queue.item(0)).center()
    )
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert ws.sub.status == "submitted" and ws.offer_box.isVisibleTo(ws)
    assert ws.offer_amount.value() == 240.0  # the computed value: 300.00 x 80 % (declared good)
    qtbot.keyClick(ws, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert ws.sub.status == "offered" and float(ws.sub.current_offer.amount) == 240.0
    assert ws.queue.count() == 0  # the review queue refreshed after the write
    ws.queue_kind.setCurrentIndex(3)
    _settle(qtbot, ws)
    assert ws.queue.count() == 3  # waiting for the customer: the demo's offered and inspected ones, and this one


def test_refusals_are_shown_in_red(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    ws.open(demo_id("upgrade", "demo", "submission", "2"))  # submitted, IPH13-128: base value 300.00
    _settle(qtbot, ws)
    ws.offer_amount.setValue(999)
    qtbot.keyClick(ws, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    assert ws.banner.property("tone") == "error" and "above the product's base value" in ws.banner.text()
    assert ws.sub.status == "submitted"
    qtbot.mouseClick(ws.reject_btn, Qt.MouseButton.LeftButton)  # no reason given
    assert ws.banner.property("tone") == "error" and ws.sub.status == "submitted"
