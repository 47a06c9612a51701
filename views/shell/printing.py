"""The station's printers and label format, and the one print path labels and slips go through.

They are the station's own settings (``station.ini`` through ``StationPrefs``), not the platform's:
the printer is a device on this desk. Settings offers the system's printers (``QPrinterInfo``),
"save as PDF file" and the system default. Every label and slip of the desktop (the warehouse's
shipping label, the stock count's transfer slip, a packing slip or label opened in Records) is
printed by ``print_pages``: a label page goes to the label printer on a page of the chosen label
format, any other page to the document printer on A4. The PDF file is written by the same
``QPrinter``, so a saved label has exactly the page size a printer would get.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QCoreApplication, QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter

from views.i18n import QT_TRANSLATE_NOOP

SYSTEM_DEFAULT = ""  # the system's default printer; a PDF file when the system has none
SAVE_AS_PDF = "pdf"  # never a printer: a PDF file in the data dir

# name -> (what Settings shows, the label size drawn: services.core.labels.LABEL_SIZES). The label
# is drawn for its page (layout scaled, bars in whole printer dots); an A4 sheet holds a 4x6 in label
# at its real size, to be cut out.
LABEL_FORMATS: dict[str, tuple[str, str]] = {
    "4x6in": (QT_TRANSLATE_NOOP("Printing", "4 × 6 in (shipping label)"), "4x6in"),
    "100x150mm": (QT_TRANSLATE_NOOP("Printing", "100 × 150 mm"), "100x150mm"),
    "62mm": (QT_TRANSLATE_NOOP("Printing", "62 mm roll"), "62mm"),
    "a4": (QT_TRANSLATE_NOOP("Printing", "A4 sheet"), "4x6in"),
}
DEFAULT_FORMAT = "4x6in"
_A4_MM = (210.0, 297.0)
_A4_MARGIN_MM = 10.0
Kind = Literal["label", "document"]


@dataclass(frozen=True)
class PrintSetup:
    """What Settings chose: each printer is SYSTEM_DEFAULT, SAVE_AS_PDF or a system printer's name."""

    label_printer: str = SYSTEM_DEFAULT
    label_format: str = DEFAULT_FORMAT
    document_printer: str = SYSTEM_DEFAULT

    @classmethod
    def of(cls, prefs: Mapping[str, object]) -> PrintSetup:
        fmt = str(prefs.get("label_format") or DEFAULT_FORMAT)
        return cls(
            label_printer=str(prefs.get("label_printer") or SYSTEM_DEFAULT),
            label_format=fmt if fmt in LABEL_FORMATS else DEFAULT_FORMAT,
            document_printer=str(prefs.get("document_printer") or SYSTEM_DEFAULT),
        )


@dataclass(frozen=True)
class Printed:
    """Where pages went: ``how`` is a sentence start ("Printed on"), ``where`` a printer or a file."""

    how: str
    where: str
    file: Path | None = None  # the PDF written, when no printer took the pages


def system_printers() -> list[str]:
    from PySide6.QtPrintSupport import QPrinterInfo  # QtPrintSupport is loaded when printing

    return list(QPrinterInfo.availablePrinterNames())


def is_label_page(img: QImage) -> bool:
    """A 2:3 page (4x6 in, 100x150 mm) is a label; A4 (1:1.414) and the rest are documents."""
    return img.width() > 0 and 1.45 <= img.height() / img.width() <= 1.55


def label_size(fmt: str) -> str:
    """The label size to draw for a label format (an A4 sheet holds a 4x6 in label)."""
    return LABEL_FORMATS.get(fmt, LABEL_FORMATS[DEFAULT_FORMAT])[1]


def label_mm(fmt: str) -> tuple[float, float]:
    from services.core.labels import LABEL_SIZES

    w, h, _dpi = LABEL_SIZES[label_size(fmt)]
    return w, h


def label_page_mm(fmt: str) -> tuple[float, float]:
    return _A4_MM if fmt == "a4" else label_mm(fmt)


def format_name(fmt: str) -> str:
    """A label format as Settings shows it, in the station's language."""
    return _tr(LABEL_FORMATS[fmt][0])


def _tr(text: str) -> str:
    return QCoreApplication.translate("Printing", text)


def print_pages(
    pages: Sequence[QImage], kind: Kind, setup: PrintSetup, pdf_target: Path, *, preferred: str = ""
) -> Printed:
    """Print ``pages`` on the printer ``kind`` is set to, or write them to ``pdf_target``.

    ``preferred``: a printer named elsewhere (the platform's device settings) used when the station
    leaves its choice on the system default. Raises OSError when the PDF cannot be written.
    """
    from PySide6.QtPrintSupport import QPrinter, QPrinterInfo

    choice = setup.label_printer if kind == "label" else setup.document_printer
    names = system_printers()
    if choice == SYSTEM_DEFAULT and preferred in names:
        choice = preferred
    if choice == SYSTEM_DEFAULT:
        choice = QPrinterInfo.defaultPrinterName()
        missing = _tr("No printer found: saved to") if not choice else ""
    elif choice == SAVE_AS_PDF:
        choice, missing = "", _tr("Saved as PDF to")
    elif choice not in names:
        missing = _tr("Printer {value} not found: saved to").format(value=choice)
        choice = ""
    else:
        missing = ""
    if choice:
        printer = QPrinter(QPrinterInfo.printerInfo(choice), QPrinter.PrinterMode.HighResolution)
    else:
        pdf_target.parent.mkdir(parents=True, exist_ok=True)
        if pdf_target.exists() and not pdf_target.is_file():
            raise IsADirectoryError(21, "not a file", str(pdf_target))
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(pdf_target))
    _paint(printer, pages, kind, setup.label_format)
    if choice:
        return Printed(_tr("Printed on"), choice)
    if not pdf_target.is_file():  # QPrinter says nothing when it could not open the file
        raise OSError(5, "the PDF could not be written", str(pdf_target))
    return Printed(missing, str(pdf_target), pdf_target)


def _paint(printer: object, pages: Sequence[QImage], kind: Kind, fmt: str) -> None:
    from PySide6.QtPrintSupport import QPrinter

    assert isinstance(printer, QPrinter)
    w_mm, h_mm = label_page_mm(fmt) if kind == "label" else _A4_MM
    printer.setPageLayout(
        QPageLayout(
            # Exact: never swapped for a nearby standard size. (Qt's PDF writes whole points, so a
            # saved 100x150 mm page is 99.8 x 149.9 mm; a printer gets the size itself.)
            QPageSize(QSizeF(w_mm, h_mm), QPageSize.Unit.Millimeter, "", QPageSize.SizeMatchPolicy.ExactMatch),
            QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
        )
    )
    painter = QPainter(printer)
    try:
        dots = printer.resolution() / 25.4  # device pixels per millimetre
        for i, img in enumerate(pages):
            if i:
                printer.newPage()
            if kind == "label" and fmt == "a4":
                # A label on a sheet keeps its own size, top left, to be cut out (or a sheet of labels).
                lw, lh = label_mm(fmt)
                box = QRectF(_A4_MARGIN_MM * dots, _A4_MARGIN_MM * dots, lw * dots, lh * dots)
            else:
                box = _fit(img, QRectF(0, 0, w_mm * dots, h_mm * dots))
            painter.drawImage(box, img)
    finally:
        painter.end()


def _fit(img: QImage, page: QRectF) -> QRectF:
    """The largest rectangle of the image's shape on the page, centred (labels are never stretched)."""
    if img.width() <= 0 or img.height() <= 0:
        return page
    scale = min(page.width() / img.width(), page.height() / img.height())
    w, h = img.width() * scale, img.height() * scale
    return QRectF(page.x() + (page.width() - w) / 2, page.y() + (page.height() - h) / 2, w, h)


def print_file_pages(pages: Sequence[QImage], setup: PrintSetup, pdf_dir: Path, stem: str) -> list[Printed]:
    """A file's pages (a packing slip: A4 then its label): the label pages to the label printer,
    the others to the document printer, each set in one job."""
    labels = [p for p in pages if is_label_page(p)]
    docs = [p for p in pages if not is_label_page(p)]
    out = []
    if docs:
        out.append(print_pages(docs, "document", setup, pdf_dir / f"{stem}.pdf"))
    if labels:
        out.append(print_pages(labels, "label", setup, pdf_dir / f"{stem}-label.pdf"))
    return out
