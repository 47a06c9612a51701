"""Issue 32 part 5: the station's label printer, label format and document printer, chosen in
Settings and kept in station.ini, and every label and slip printed on them: the PDF a print makes
has the chosen page size, and its barcode still reads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas

from services.core.context import Runtime
from services.core.demo import demo_id
from services.core.files import FileResult
from services.core.labels import label_image
from tests.barcodes import decode_code128
from tests.views.german import app_language
from tests.views.workspaces import session_for, settle, workspace_factory
from views.records.files import FileViewer
from views.shell.prefs import StationPrefs
from views.shell.printing import SAVE_AS_PDF, PrintSetup, label_size, print_pages
from views.shell.settings_dialog import SettingsDialog
from views.stockcount.workspace import WORKSPACE

MM = 72 / 25.4  # PDF points per millimetre


def _page_sizes_mm(pdf: Path) -> list[tuple[float, float]]:
    """Each page's size to the half millimetre: Qt's PDF writer rounds a page to whole points."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return [(round(p.get_width() / MM * 2) / 2, round(p.get_height() / MM * 2) / 2) for p in doc]
    finally:
        doc.close()


def _first_page(pdf: Path, dpi: int = 300) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return doc[0].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        doc.close()


def _label_qimage(value: str = "TRK-4711", fmt: str = "4x6in") -> QImage:
    buf = io.BytesIO()
    label_image("Ship to", ["Ada Lovelace", "1 Analytical Way"], value, label_size(fmt)).save(buf, "PNG")
    return QImage.fromData(buf.getvalue())


def test_printers_and_label_format_round_trip_through_settings(qtbot: QtBot, tmp_path: Path) -> None:
    prefs = StationPrefs(tmp_path)
    prefs.set("document_printer", "Office-Laser")  # a printer this machine does not have (now)
    dlg = SettingsDialog(prefs)
    qtbot.addWidget(dlg)
    # The saved printer stays chosen and says it is missing, so saving keeps it.
    assert dlg.document_printer.currentData() == "Office-Laser"
    assert "not found" in dlg.document_printer.currentText()
    assert dlg.label_printer.currentData() == "" and dlg.label_format.currentData() == "4x6in"
    assert [dlg.label_format.itemData(i) for i in range(dlg.label_format.count())] == [
        "4x6in",
        "100x150mm",
        "62mm",
        "a4",
    ]
    dlg.show()
    # By keyboard: Alt+B to the label printer, Alt+F to the label format.
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow)
    qtbot.keyClick(dlg, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    assert dlg.label_printer.hasFocus()
    dlg.label_printer.setCurrentIndex(dlg.label_printer.findData(SAVE_AS_PDF))
    qtbot.keyClick(dlg, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    assert dlg.label_format.hasFocus()
    dlg.label_format.setCurrentIndex(dlg.label_format.findData("62mm"))
    dlg.save()
    assert dlg.saved is not None and not dlg.isVisible()
    again = StationPrefs(tmp_path)  # read back from station.ini
    assert (again.get("label_printer"), again.get("label_format"), again.get("document_printer")) == (
        "pdf",
        "62mm",
        "Office-Laser",
    )
    assert PrintSetup.of(again.as_dict()) == PrintSetup("pdf", "62mm", "Office-Laser")
    reopened = SettingsDialog(again)
    qtbot.addWidget(reopened)
    assert reopened.label_format.currentData() == "62mm" and reopened.label_printer.currentData() == "pdf"


def test_a_label_format_that_is_not_offered_is_refused_and_nothing_stored(qtbot: QtBot, tmp_path: Path) -> None:
    prefs = StationPrefs(tmp_path)
    dlg = SettingsDialog(prefs)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.label_format.addItem("Letter", "letter")  # what an edited ini or an old build could bring
    dlg.label_format.setCurrentIndex(dlg.label_format.count() - 1)
    dlg.station_name.setText("Dock 3")
    dlg.save()
    assert dlg.isVisible() and dlg.errors["label_format"].isVisible()
    assert prefs.get("label_format") == "4x6in" and prefs.get("station_name") == "Station"


@pytest.mark.parametrize(
    ("fmt", "size"),
    [("4x6in", (101.5, 152.5)), ("100x150mm", (100.0, 150.0)), ("62mm", (62.0, 93.0)), ("a4", (210.0, 297.0))],
)
def test_a_label_is_printed_on_the_chosen_format(fmt: str, size: tuple[float, float], tmp_path: Path) -> None:
    target = tmp_path / "label.pdf"
    done = print_pages([_label_qimage("TR-5F570155", fmt)], "label", PrintSetup(SAVE_AS_PDF, fmt), target)
    assert done.file == target and done.where == str(target) and "PDF" in done.how
    assert _page_sizes_mm(target) == [size]
    for dpi in (203, 300):  # read as a thermal printer of either resolution prints it
        assert decode_code128(_first_page(target, dpi)) == "TR-5F570155", dpi


def test_a_missing_printer_is_said_and_the_label_saved(tmp_path: Path) -> None:
    done = print_pages([_label_qimage()], "label", PrintSetup("Nowhere-Zebra"), tmp_path / "l.pdf")
    assert "Nowhere-Zebra not found" in done.how and done.file is not None and done.file.is_file()
    with pytest.raises(OSError):  # a folder where the file goes: an error, not a silent nothing
        (tmp_path / "dir.pdf").mkdir()
        print_pages([_label_qimage()], "label", PrintSetup(SAVE_AS_PDF), tmp_path / "dir.pdf")


def test_a_packing_slip_goes_a4_to_documents_and_its_label_to_the_label_format(
    qtbot: QtBot, station: Runtime, tmp_path: Path
) -> None:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4)
    c.drawString(72, 720, "Packing slip")
    c.showPage()
    c.setPageSize((4 * inch, 6 * inch))
    c.drawString(20, 400, "label")
    c.showPage()
    c.save()
    session = session_for(station, "owner@demo.test")
    session.prefs.update({"label_printer": SAVE_AS_PDF, "label_format": "100x150mm", "document_printer": "pdf"})
    viewer = FileViewer(FileResult(buf.getvalue(), "application/pdf", "packing-slip-1001.pdf"), station=session)
    qtbot.addWidget(viewer)
    assert viewer.print_here.isEnabled()
    viewer.print_station()
    prints = station.data_dir / "prints"
    assert _page_sizes_mm(prints / "packing-slip-1001.pdf") == [(210.0, 297.0)]
    assert _page_sizes_mm(prints / "packing-slip-1001-label.pdf") == [(100.0, 150.0)]
    assert "packing-slip-1001-label.pdf" in viewer.print_status.text()


def test_f8_prints_the_transfer_slip_on_the_stations_label_format(station: Runtime, qtbot: QtBot) -> None:
    from views.stockcount.slip import slip_code

    make = workspace_factory(station, qtbot, WORKSPACE, "operator@demo.test", (1400, 900))
    ws = next(make)()
    ws.session.prefs.update({"label_printer": SAVE_AS_PDF, "label_format": "62mm"})
    qtbot.keyClicks(ws.scan_input, "MAIN")
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)
    settle(qtbot, ws)
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_F8)
    settle(qtbot, ws)
    draft = demo_id("inventory-transfer", "demo", "2")
    assert len(ws.slips) == 1 and "saved to" in ws.banner.text()
    assert _page_sizes_mm(ws.slips[0]) == [(62.0, 93.0)]
    assert decode_code128(_first_page(ws.slips[0], 300)) == slip_code(draft)
    ws.session.ops.wait()


def test_the_label_pdf_maker_draws_each_size(tmp_path: Path) -> None:
    from services.core.labels import LABEL_SIZES, label_pdf

    for size, (w, h, _dpi) in LABEL_SIZES.items():
        pdf = tmp_path / f"{size}.pdf"
        pdf.write_bytes(label_pdf("Ship to", ["Ada Lovelace"], "LP0000000017", size))
        assert _page_sizes_mm(pdf) == [(round(w * 2) / 2, round(h * 2) / 2)], size
        assert decode_code128(_first_page(pdf, 203)) == "LP0000000017", size


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_new_pin_hint_fits_its_field(qtbot: QtBot, tmp_path: Path, qapp: object, lang: str) -> None:
    """The walk of issue 32 read "leave empty to keep the current …" in Settings' PIN field."""
    from PySide6.QtGui import QFontMetrics

    from views.shell.theme import theme_css

    with app_language(lang):
        dlg = SettingsDialog(StationPrefs(tmp_path))
        dlg.setStyleSheet(theme_css("light"))  # the app's sheet: its padding and type size
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        field = dlg.new_pin
        room = field.width() - 2 * 8 - 2 * 2 - 4  # the sheet's padding and border, Qt's text margin
        assert QFontMetrics(field.font()).horizontalAdvance(field.placeholderText()) <= room, field.placeholderText()
        assert field.toolTip() and len(field.toolTip()) >= len(field.placeholderText())
