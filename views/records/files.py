"""Files in Records: one a service answered (a label, a document, a photo), shown in place to save
or print; the file a create starts from (a PDF to sign); a list written out as CSV."""

from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from services.core.commands import Operation
from services.core.files import FileResult
from views.base import StationSession
from views.records.model import RecordsModel, plain_of
from views.shell.printing import Printed, PrintSetup, print_file_pages

PDF_DPI = 110
PRINT_DPI = 300


def pages_of(f: FileResult, dpi: int = PDF_DPI) -> list[QImage]:
    """The file as page images: every page of a PDF (pdfium), or the image itself."""
    if f.media_type == "application/pdf":
        import pypdfium2 as pdfium  # loaded when a PDF is opened

        doc = pdfium.PdfDocument(f.content)
        try:
            out = []
            for page in doc:
                pil = page.render(scale=dpi / 72).to_pil().convert("RGB")
                data = pil.tobytes("raw", "RGB")
                img = QImage(data, pil.width, pil.height, pil.width * 3, QImage.Format.Format_RGB888)
                out.append(img.copy())  # own the pixels: ``data`` goes away
            return out
        finally:
            doc.close()
    if f.media_type.startswith("image/"):
        img = QImage.fromData(f.content)
        return [] if img.isNull() else [img]
    return []


class FileViewer(QDialog):
    """``station``: the signed-in session, for its printing settings; Print then sends label pages to the
    label printer in the label format and the others to the document printer (a packing slip: A4,
    then its label), with no dialog. Print to… asks for a printer as before."""

    def __init__(
        self,
        f: FileResult,
        parent: QWidget | None = None,
        *,
        station: StationSession | None = None,
    ) -> None:
        super().__init__(parent)
        self.file = f
        self.station = station
        self.printed: list[Printed] = []
        self.setWindowTitle(f.filename or f.media_type)
        self.pages = pages_of(f)
        body = QWidget()
        col = QVBoxLayout(body)
        if self.pages:
            for img in self.pages:
                lab = QLabel()
                lab.setPixmap(QPixmap.fromImage(img))
                lab.setAlignment(Qt.AlignmentFlag.AlignHCenter)
                col.addWidget(lab)
        else:
            text = QPlainTextEdit(f.content.decode("utf-8", "replace"))
            text.setReadOnly(True)
            col.addWidget(text)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        save = QPushButton(self.tr("Save…"))
        save.clicked.connect(self.save)
        print_ = QPushButton(self.tr("Print to…"))
        print_.setEnabled(bool(self.pages))
        print_.clicked.connect(lambda: self.print_())
        self.print_here = QPushButton(self.tr("&Print"))
        self.print_here.setObjectName("print-station")
        self.print_here.setToolTip(self.tr("On this station's printers (Settings → Printing)"))
        self.print_here.setEnabled(bool(self.pages) and station is not None)
        self.print_here.clicked.connect(self.print_station)
        self.print_status = QLabel("")
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.accept)
        bar = QHBoxLayout()
        bar.addWidget(self.print_status, 1)
        for b in (save, self.print_here, print_, close):
            bar.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addWidget(scroll, 1)
        lay.addLayout(bar)
        self.resize(720, 820)

    def save(self, path: str | None = None) -> None:
        if not path:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Save"), self.file.filename or "file")
        if path:
            with open(path, "wb") as fh:
                fh.write(self.file.content)

    def print_station(self) -> None:
        if self.station is None:
            return
        stem = Path(self.file.filename or "file").stem
        setup, folder = PrintSetup.of(self.station.prefs), self.station.runtime.data_dir / "prints"
        try:
            # Drawn again at a printer's resolution: the pages shown are at screen resolution.
            done = print_file_pages(pages_of(self.file, PRINT_DPI), setup, folder, stem)
        except OSError as exc:
            self.print_status.setText(self.tr("Could not save: {exc.strerror}").format(exc=exc))
            return
        self.printed += done
        self.print_status.setText(" · ".join(f"{p.how} {p.where}" for p in done))

    def print_(self, printer: QPrinter | None = None) -> None:
        if printer is None:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            if QPrintDialog(printer, self).exec() != QDialog.DialogCode.Accepted:
                return
        painter = QPainter(printer)
        try:
            for i, img in enumerate(self.pages):
                if i:
                    printer.newPage()
                area = painter.viewport()
                scaled = img.size().scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio)
                painter.drawImage(0, 0, img.scaled(scaled))
        finally:
            painter.end()


class Nothing(BaseModel):
    """The form of an upload that takes nothing beside its file."""


def file_filter(op: Operation) -> str:
    """The file dialog's filter from the use case's name: PDFs to sign, CSV tables, mails."""
    words = f"{op.name} {op.summary}".lower()
    for key, filt in (("pdf", "PDF (*.pdf)"), ("csv", "CSV (*.csv)"), ("mail", "Mail (*.eml)")):
        if key in words:
            return f"{filt};;{_all_files()}"
    return _all_files()


def _all_files() -> str:
    return QCoreApplication.translate("records", "All files (*)")


def write_csv(model: RecordsModel, path: Path) -> int:
    """Every row of ``model``'s list as it is filtered, page by page (on the calling thread)."""
    columns = model.columns
    n, offset = 0, 0
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(columns)
        if model.pinned:  # the rows shown (a dashboard's bar), not the whole list
            out.writerows([plain_of(getattr(row, c, None)) for c in columns] for row in model.rows)
            return len(model.rows)
        while True:
            page = model.fetch_page(offset, 100)
            for row in page.items:
                out.writerow([plain_of(getattr(row, c, None)) for c in columns])
            n += len(page.items)
            offset += len(page.items)
            if not page.items or offset >= page.total:
                return n
