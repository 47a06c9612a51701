"""The QR designer driven with real keys: the drawing follows the typing (debounced, off the UI
thread), the real decoder's verdict turns red/amber/green, saves, prints to a PDF, SVG/PDF files,
and the scans chart."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.barcodes import pdf_to_image
from tests.qr_decode import decode
from tests.services.fulfillment.fulfillment_helpers import ctx_for
from tests.views.workspaces import session_for, settle, workspace_factory
from views.qrdesign.workspace import WORKSPACE, QrDesignWorkspace

MENU = demo_id("qr", "demoMNU")
WIFI = demo_id("qr", "demoWIF")


@pytest.fixture
def make_ws(station: Runtime, qtbot: QtBot) -> Iterator[object]:
    yield from workspace_factory(station, qtbot, WORKSPACE, "owner@demo.test", (1400, 900))


def pick(qtbot: QtBot, ws: QrDesignWorkspace, code_id: str) -> None:
    for row in range(ws.code_list.count()):
        if ws.code_list.item(row).data(Qt.ItemDataRole.UserRole) == code_id:
            ws.code_list.setCurrentRow(row)
            break
    else:
        raise AssertionError(f"{code_id} not listed")
    drawn(qtbot, ws)


def drawn(qtbot: QtBot, ws: QrDesignWorkspace) -> None:
    """The debounce has fired and the drawing (with its read-back) is back."""
    qtbot.waitUntil(lambda: not ws.redraw_timer.isActive(), timeout=30_000)
    settle(qtbot, ws)


def retype(qtbot: QtBot, widget: object, text: str) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # type: ignore[arg-type]
    qtbot.keyClicks(widget, text)  # type: ignore[arg-type]


def test_offered_to_people_with_the_qr_module(station: Runtime) -> None:
    assert WORKSPACE.name == "qrdesign" and WORKSPACE.modules == frozenset({"qr"})
    assert WORKSPACE.available_to(session_for(station, "owner@demo.test"))
    assert WORKSPACE.available_to(session_for(station, "admin@demo.test"))
    assert not WORKSPACE.available_to(session_for(station, "operator@demo.test"))  # not given qr
    assert not WORKSPACE.available_to(session_for(station, "device@demo.test"))


def test_redrawn_as_you_type_with_the_readers_verdict(make_ws: object, qtbot: QtBot, tmp_path: Path) -> None:
    ws = make_ws()  # type: ignore[operator]
    pick(qtbot, ws, MENU)
    assert ws.tone == "ok" and ws.decoded == [ws.code.content] and ws.code.content.endswith("/demo/qr/r/demoMNU")
    # The scans chart: 30 days, the demo's week of scans in it.
    assert len(ws.chart.days) == 30 and sum(d[1] for d in ws.chart.days) == ws.code.scans > 0
    assert "scans" in ws.totals.text() and not ws.chart.grab().isNull()
    # Typing a colour key by key: the timer restarts on each key, one drawing once typing pauses.
    before = ws.generation
    retype(qtbot, ws.fg_input, "#eeeeee")
    assert ws.redraw_timer.isActive() and ws.generation == before  # nothing drawn while typing
    drawn(qtbot, ws)
    assert ws.generation == before + 1
    assert ws.tone == "error" and "will not read" in ws.verdict.text() and "contrast" in ws.verdict.text()
    retype(qtbot, ws.fg_input, "#cccccc")  # readable by a good reader, risky on paper
    drawn(qtbot, ws)
    assert ws.tone == "warn" and "contrast is low" in ws.verdict.text()
    retype(qtbot, ws.fg_input, "#12")  # not a colour: said, nothing crashes
    drawn(qtbot, ws)
    assert ws.tone == "error" and "fg" in ws.verdict.text()
    retype(qtbot, ws.fg_input, "#1d3b8f")
    drawn(qtbot, ws)
    assert ws.tone == "ok"
    logo = tmp_path / "logo.png"
    Image.new("RGB", (300, 300), (20, 20, 20)).save(logo)
    ws.upload_logo(logo)  # what the file dialog hands over
    settle(qtbot, ws)
    drawn(qtbot, ws)
    # The menu's template is at Q: it reads, with a warning; at M it no longer reads; H restores it.
    assert ws.logo_file_id and ws.tone == "warn" and "error correction H" in ws.verdict.text()
    ws.ec_box.setFocus()
    qtbot.keyClick(ws.ec_box, Qt.Key.Key_M)
    drawn(qtbot, ws)
    assert ws.tone == "error" and "logo hides too much" in ws.verdict.text()
    qtbot.keyClick(ws.ec_box, Qt.Key.Key_Down)  # the next level, then the next: H
    qtbot.keyClick(ws.ec_box, Qt.Key.Key_Down)
    drawn(qtbot, ws)
    assert ws.ec_box.currentData() == "H" and ws.tone == "ok"
    # A new destination and Ctrl+S: stored; the printed code (its scan address) is unchanged.
    retype(qtbot, ws.content_input, "https://example.com/summer-menu")
    qtbot.keyClick(ws.content_input, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.code.destination_url == "https://example.com/summer-menu", timeout=30_000)
    stored = execute(ctx_for(ws.session.runtime, "owner@demo.test"), "qr.codes.get", id=MENU)
    assert stored.destination_url == "https://example.com/summer-menu"
    assert stored.style["error_correction"] == "H" and stored.style["logo_file_id"] == ws.logo_file_id
    assert "Saved" in ws.verdict.text()


def test_print_to_pdf_and_save_svg_and_pdf_read_back(make_ws: object, qtbot: QtBot, tmp_path: Path) -> None:
    ws = make_ws()  # type: ignore[operator]
    pick(qtbot, ws, WIFI)
    assert ws.content_label.text() == "C&ontent"
    retype(qtbot, ws.content_input, "WIFI:T:WPA;S:Shop;P:new-pass;;")
    drawn(qtbot, ws)
    assert ws.tone == "ok" and ws.decoded == ["WIFI:T:WPA;S:Shop;P:new-pass;;"]
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    ws.print_to(printer)
    assert [r for r in _read_pdf((tmp_path / "printed.pdf").read_bytes())] == ["WIFI:T:WPA;S:Shop;P:new-pass;;"]
    for name in ("code.svg", "code.pdf"):
        ws.save_file(tmp_path / name)
        settle(qtbot, ws)
        content = (tmp_path / name).read_bytes()
        assert decode(content, name[-3:]) == ["WIFI:T:WPA;S:Shop;P:new-pass;;"], name
    # Ctrl+P opens the print dialog without blocking the station; Esc closes it.
    qtbot.keyClick(ws.content_input, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: getattr(ws, "print_window", None) is not None and ws.print_window.isVisible())
    ws.print_window.reject()


def _read_pdf(pdf: bytes) -> list[str]:
    import zxingcpp

    img = pdf_to_image(pdf, dpi=100)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return [r.text for r in zxingcpp.read_barcodes(img)]


def test_new_code_typed_and_saved(make_ws: object, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    qtbot.keyClick(ws.content_input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert ws.code is None and ws.name_input.hasFocus()
    qtbot.keyClicks(ws.name_input, "Poster May")
    retype(qtbot, ws.content_input, "https://example.com/may")
    drawn(qtbot, ws)
    assert ws.tone == "ok"
    qtbot.keyClick(ws.content_input, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.code is not None, timeout=30_000)
    drawn(qtbot, ws)
    assert ws.decoded == [ws.code.content] and ws.code.destination_url == "https://example.com/may"
    qtbot.waitUntil(lambda: any("Poster May" in ws.code_list.item(i).text() for i in range(ws.code_list.count())))
    # A bad destination is refused in words, and nothing more is stored.
    qtbot.keyClick(ws.content_input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ws.name_input, "Broken")
    retype(qtbot, ws.content_input, "not a url")
    qtbot.keyClick(ws.content_input, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, ws)
    assert ws.tone == "error" and "Not saved" in ws.verdict.text() and ws.code is None


def test_ctrl_n_asks_before_throwing_away_unsaved_edits(
    make_ws: object, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, defect 12: Ctrl+N threw away unsaved edits silently."""
    from PySide6.QtWidgets import QMessageBox

    ws = make_ws()  # type: ignore[operator]
    qtbot.waitUntil(lambda: ws.code is not None, timeout=30_000)
    drawn(qtbot, ws)
    stored = ws.code
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.Cancel]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or answer[0])
    retype(qtbot, ws.name_input, "Renamed poster")
    qtbot.keyClick(ws.content_input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert asked and "Renamed poster" in asked[0] and "not saved" in asked[0]
    assert ws.code is stored and ws.name_input.text() == "Renamed poster"  # kept
    answer[0] = QMessageBox.StandardButton.Discard
    qtbot.keyClick(ws.content_input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert ws.code is None and ws.name_input.text() == "" and len(asked) == 2
    # A blank form left as it is: Ctrl+N again asks nothing.
    qtbot.keyClick(ws.content_input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 2


def test_a_code_without_scans_says_so_and_only_the_focused_field_looks_focused(make_ws: object, qtbot: QtBot) -> None:
    """The walk of issue 32: a code with no scans read "0 scans · busiest 29 Oct: 0", and the
    destination kept a blue focus-like frame while the person typed in another field."""
    ws = make_ws()  # type: ignore[operator]
    qtbot.waitUntil(lambda: ws.code is not None, timeout=30_000)
    drawn(qtbot, ws)
    assert ws.chart.caption().startswith(f"{ws.code.scans} scans · busiest")  # the menu's scans
    pick(qtbot, ws, WIFI)
    qtbot.waitUntil(lambda: len(ws.chart.days) == 30, timeout=30_000)
    assert sum(d[1] for d in ws.chart.days) == 0 and ws.chart.caption() == "No scans in these 30 days"

    blue = QColor("#1565c0")

    def frame_is_blue() -> bool:
        image = ws.content_input.grab().toImage()
        return image.pixelColor(1, image.height() // 2) == blue

    ws.window().activateWindow()
    ws.name_input.setFocus()
    qtbot.waitUntil(lambda: ws.name_input.hasFocus())
    assert not frame_is_blue()
    ws.content_input.setFocus()
    qtbot.waitUntil(lambda: ws.content_input.hasFocus())
    assert frame_is_blue()


def test_each_field_has_an_alt_letter_that_reaches_it(make_ws: object, qtbot: QtBot) -> None:
    """Seen in the walk: the designer's form had no Alt letters, so its fields were reached only by
    Tab through the whole window."""
    ws: QrDesignWorkspace = make_ws()  # type: ignore[operator]
    settle(qtbot, ws)
    ws.window().activateWindow()
    qtbot.waitUntil(ws.window().isActiveWindow, timeout=30_000)
    for letter, target in (
        (Qt.Key.Key_N, ws.name_input),
        (Qt.Key.Key_D, ws.content_input),
        (Qt.Key.Key_T, ws.template_box),
        (Qt.Key.Key_C, ws.fg_input),
        (Qt.Key.Key_E, ws.ec_box),
    ):
        start = QApplication.focusWidget() or ws
        qtbot.keyClick(start, letter, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(target.hasFocus, timeout=30_000)
    # A check box's letter ticks it, as Qt's buttons do (a new code's: a saved one keeps its kind).
    ws.new_code()
    settle(qtbot, ws)
    assert ws.dynamic_box.isEnabled()
    was = ws.dynamic_box.isChecked()
    qtbot.keyClick(QApplication.focusWidget() or ws, Qt.Key.Key_Y, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: ws.dynamic_box.isChecked() != was, timeout=30_000)
