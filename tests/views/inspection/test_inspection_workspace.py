"""The inspection bench driven like an inspector does: scan, grade with the keyboard, complete, revise."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget
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


def answer_all_passing(ws: InspectionWorkspace) -> None:
    for box in (ws.power_on, ws.functions, ws.account_lock, ws.data_wiped, ws.accessories):
        box.set_answer(True)
    ws.screen_combo.setCurrentIndex(1)  # flawless
    ws.body_combo.setCurrentIndex(1)
    ws.battery.setValue(95)


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
    said: list[tuple[bool, str]] = []
    ws.session.feedback = lambda ok, message: said.append((ok, message))
    scan(qtbot, ws, "KIT-DEMO000008")
    answer_all_passing(ws)
    ws.account_lock.set_answer(False)
    ws.data_wiped.set_answer(False)
    # Lock and wipe answered no: the bench says why it cannot complete.
    assert ws.preview.property("tone") == "error" and "locked" in ws.preview.text()
    ws.account_lock.setFocus()
    qtbot.keyClick(ws.account_lock, Qt.Key.Key_Space)
    qtbot.keyClick(ws.data_wiped, Qt.Key.Key_Space)
    assert ws.preview.property("tone") == "ok" and "credit $300.00" in ws.preview.text()
    # Deep scratches: suggested fair, 60 % of 300.00, below the accepted offer.
    ws.screen_combo.setFocus()
    qtbot.keyClick(ws.screen_combo, Qt.Key.Key_Down)
    qtbot.keyClick(ws.screen_combo, Qt.Key.Key_Down)
    assert "Graded: fair (suggested fair)" in ws.graded.text() and "180.00" in ws.graded.text()
    assert ws.preview.property("tone") == "warn" and "Revised offer of $180.00" in ws.preview.text()
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
    assert "Revised offer of $240.00" in ws.banner.text()
    # The status line says the banner's words, never the outcome code ("revised_offer").
    assert said[-1] == (True, ws.banner.text())
    offer = ws.sub.current_offer
    assert offer.kind == "revised" and float(offer.amount) == 240.0 and offer.photos == ws.sub.inspection.photos
    assert "inspector graded good (checklist suggested fair)" in offer.reasons
    # The customer accepted by phone: recorded at the bench (a second press confirms), the credit is issued.
    assert ws.accept_btn.isVisibleTo(ws)
    qtbot.mouseClick(ws.accept_btn, Qt.MouseButton.LeftButton)
    assert ws.sub.status == "inspected" and "Press &again" in ws.accept_btn.text()
    qtbot.mouseClick(ws.accept_btn, Qt.MouseButton.LeftButton)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert ws.sub.status == "completed" and float(ws.sub.credit) == 240.0
    assert ws.banner.property("tone") == "ok"
    assert execute(staff(station), "upgrade.admin.scan", code="KIT-DEMO000008").status == "completed"


def test_complete_at_the_offer_issues_the_credit(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000008")
    answer_all_passing(ws)
    qtbot.mouseClick(ws.complete_btn, Qt.MouseButton.LeftButton)
    _settle(qtbot, ws)
    assert ws.sub.status == "completed" and "credit $300.00" in ws.banner.text()
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


def test_the_checklist_starts_unanswered_and_completing_needs_every_answer(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000008")
    assert all(v is None for v in ws.checklist().values())  # nothing assumed to pass
    assert ws.battery.text() == "not measured" and ws.screen_combo.currentText() == "— not checked —"
    assert "Graded: not yet" in ws.graded.text() and "8 of 8 items to check" in ws.graded.text()
    assert ws.preview.property("tone") == "warn" and ws.preview.text().startswith("To check: powers on")
    answer_all_passing(ws)
    ws.accessories.set_answer(None)
    qtbot.keyClick(ws, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    assert ws.sub.status == "received" and "Check every item first: accessories" in ws.banner.text()


def test_the_inspection_flow_by_keyboard_as_the_readme_tells_it(
    qtbot: QtBot, make_ws: MakeWs, station: Runtime
) -> None:
    """F2, scan KIT-DEMO000008, tick lock removed and wiped, screen deep scratches: Ctrl+Enter sends a
    revised offer; "Customer accepted" (Alt+A, twice) completes with the credit. Real key events only."""
    ws = make_ws()
    ws.activateWindow()
    qtbot.waitUntil(ws.isActiveWindow)
    qtbot.keyClick(ws, Qt.Key.Key_F2)
    assert ws.scan_input.hasFocus()
    qtbot.keyClicks(ws.scan_input, "KIT-DEMO000008")
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    alt = Qt.KeyboardModifier.AltModifier
    items = {Qt.Key.Key_O: ws.power_on, Qt.Key.Key_F: ws.functions, Qt.Key.Key_L: ws.account_lock,
             Qt.Key.Key_W: ws.data_wiped, Qt.Key.Key_C: ws.accessories}  # fmt: skip
    for key, box in items.items():  # each answered yes (a mnemonic clicks its box a moment later)
        qtbot.keyClick(ws, key, alt)
        qtbot.waitUntil(lambda box=box: box.answer() is True, timeout=30_000)
    qtbot.keyClick(ws, Qt.Key.Key_S, alt)  # screen: not checked -> flawless -> light -> deep scratches
    for _ in range(3):
        qtbot.keyClick(ws.screen_combo, Qt.Key.Key_Down)
    qtbot.keyClick(ws, Qt.Key.Key_B, alt)  # body: flawless
    qtbot.keyClick(ws.body_combo, Qt.Key.Key_Down)
    qtbot.keyClick(ws, Qt.Key.Key_Y, alt)  # battery: 92 %
    qtbot.keyClicks(ws.battery, "92")
    assert ws.checklist() == {"power_on": True, "screen": "deep_scratches", "body": "flawless", "functions": True,
                              "battery_health": 92, "account_lock_removed": True, "data_wiped": True,
                              "accessories": True}  # fmt: skip
    assert "Revised offer of $180.00" in ws.preview.text()
    qtbot.keyClick(ws, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    _settle(qtbot, ws)
    assert ws.sub.status == "inspected" and "Revised offer of $180.00" in ws.banner.text()
    qtbot.keyClick(ws, Qt.Key.Key_A, alt)
    qtbot.waitUntil(lambda: "Press again to issue the credit" in ws.banner.text(), timeout=30_000)
    assert ws.sub.status == "inspected"
    qtbot.keyClick(ws, Qt.Key.Key_A, alt)
    qtbot.waitUntil(lambda: ws.sub.status == "completed", timeout=30_000)
    _settle(qtbot, ws)
    _settle(qtbot, ws)
    assert ws.sub.status == "completed" and float(ws.sub.credit) == 180.0


def test_a_device_only_shipped_shows_no_grade(qtbot: QtBot, make_ws: MakeWs) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000006")  # in transit
    assert ws.sub.status == "shipped"
    assert "Graded: excellent" not in ws.graded.text() and ws.graded.text().startswith("Not graded yet")
    assert "USD" not in ws.graded.text()


def test_a_photo_opens_large_with_enter_and_without_a_camera_there_is_no_take_photo(
    qtbot: QtBot, make_ws: MakeWs
) -> None:
    ws = make_ws()
    scan(qtbot, ws, "KIT-DEMO000008")
    assert not ws.has_camera and not ws.camera_btn.isVisibleTo(ws)  # no Qt Multimedia / camera here
    ws.take_photo()  # does nothing
    assert ws.viewer is None
    ws.photos.setFocus()
    ws.photos.setCurrentRow(0)
    qtbot.keyClick(ws.photos, Qt.Key.Key_Return)
    _settle(qtbot, ws)
    viewer = ws.viewer
    assert viewer is not None and viewer.isVisible()
    pm = viewer.image.pixmap()
    assert not pm.isNull() and pm.width() > ws.photos.iconSize().width()  # larger than the thumbnail
    qtbot.keyClick(viewer, Qt.Key.Key_Escape)
    assert not viewer.isVisible()


def test_on_a_short_window_a_mnemonic_brings_its_checklist_row_into_sight(qtbot: QtBot, make_ws: MakeWs) -> None:
    """At 1024x480 the trade-in scrolls (the verdict and the actions stay below it): Alt+C, the
    last checklist row, out of sight at first, scrolls to it."""
    ws = make_ws()
    ws.resize(1024, 480)
    ws.activateWindow()
    qtbot.waitUntil(ws.isActiveWindow)
    scan(qtbot, ws, "KIT-DEMO000008")
    _settle(qtbot, ws)
    area = ws.detail_scroll

    def in_sight(w: QWidget) -> bool:
        top = w.mapTo(area.viewport(), w.rect().topLeft()).y()
        return top >= 0 and top + w.height() <= area.viewport().height()

    bar = area.verticalScrollBar()
    assert bar.maximum() > 0  # it does scroll at this size
    assert ws.preview.isVisible() and ws.complete_btn.isVisible()
    bar.setValue(0)
    assert not in_sight(ws.accessories)
    qtbot.keyClick(ws, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: in_sight(ws.accessories), timeout=30_000)
    assert bar.value() > 0


@pytest.mark.parametrize("lang", ["en", "de"])
def test_states_and_the_waiting_offer_are_said_in_words(qtbot: QtBot, make_ws: MakeWs, lang: str) -> None:
    """The bench said "Not graded yet / shipped" and "(revised offer …, pending, until …)": the
    service's values, untranslated in German; now words, the offer's kind in the sentence."""
    from contextlib import nullcontext

    from services.upgrade.schemas import SubmissionDetail
    from tests.views.german import german
    from views.i18n import fmt_date

    with german("inspection", "records") if lang == "de" else nullcontext():
        ws = make_ws()
        scan(qtbot, ws, "KIT-DEMO000006")  # shipped
        assert ws.graded.text().endswith("\nshipped" if lang == "en" else "\nversendet"), ws.graded.text()
        scan(qtbot, ws, "KIT-DEMO000009")  # inspected, a revised offer waits
        sub = ws.sub
        assert isinstance(sub, SubmissionDetail) and sub.current_offer is not None
        text = ws.preview.text()
        day = fmt_date(sub.current_offer.expires_at)
        assert "pending" not in text and "revised," not in text and day in text, text
        if lang == "de":
            assert "Angebot" in text and "Waiting" not in text, text
        else:
            assert text.startswith("Waiting for the customer: revised offer of "), text
