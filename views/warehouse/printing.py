"""The packing station's labels: the preview, printing (ZPL to the printer path, PDF to a system
printer or a file) and printing again. A part of ``WarehouseWorkspace``, kept in a file of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtWidgets import QLabel

from services.core.files import FileResult
from services.fulfillment.labels import get_label
from services.fulfillment.schemas import LabelQuery

if TYPE_CHECKING:  # the workspace these methods belong to (a mixin of it at run time)
    from views.base import Workspace as _Base
else:
    _Base = object


class LabelPrinting(_Base):
    """Label actions of the warehouse workspace; the attributes below are the workspace's."""

    settings: dict[str, object]
    last_label: tuple[str, str] | None
    printed: list[str]
    preview: QLabel
    print_status: QLabel
    say: Callable[..., None]
    error: Callable[[str], None]
    _log: Callable[[str, str, str], None]
    _failed: Callable[..., Callable[[BaseException], None]]

    def load_preview(self, label_id: str) -> None:
        def show(f: FileResult) -> None:
            pix = QPixmap()
            pix.loadFromData(f.content)
            self.preview.setPixmap(
                pix.scaled(
                    self.preview.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
            )

        self.session.ops.run(self.session.call(get_label, id=label_id, query=LabelQuery(format="png")), on_success=show)

    def print_again(self) -> None:
        if self.last_label is None:
            self.error(QCoreApplication.translate("LabelPrinting", "No label yet: ship an order first"))
            return
        self.say(
            QCoreApplication.translate("LabelPrinting", "Printing the label {value} again…").format(
                value=self.last_label[1]
            ),
            "info",
        )
        self.print_label(*self.last_label, again=True)

    def print_label(self, label_id: str, tracking: str, again: bool = False) -> None:
        """ZPL raw to the configured printer path; PDF to a system printer, or to a file when there is none."""
        fmt = self.settings.get("label_format", "pdf")
        printer = str(self.settings.get("printer") or "")
        out_dir = self.session.runtime.data_dir / "labels"

        def zpl(f: FileResult) -> None:
            target = Path(printer) if printer else out_dir / f"label-{tracking}.zpl"
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "ab" if printer else "wb") as fh:  # a device node is appended to, never truncated
                    fh.write(f.content)
            except OSError as exc:
                self.error(
                    QCoreApplication.translate(
                        "LabelPrinting", "Could not send the label to {target}: {exc.strerror}"
                    ).format(target=target, exc=exc)
                )
                return
            self._printed(str(target), "ZPL sent to" if printer else "No printer set: ZPL saved to", again)

        def pdf(f: FileResult) -> None:
            from PySide6.QtPrintSupport import QPrinterInfo

            names = QPrinterInfo.availablePrinterNames()
            name = printer if printer in names else QPrinterInfo.defaultPrinterName()
            if name:
                self._print_png(f.content, name)
                self._printed(name, "Printed on", again)
                return
            target = out_dir / f"label-{tracking}.pdf"
            target.parent.mkdir(parents=True, exist_ok=True)
            self.session.ops.run(
                self.session.call(get_label, id=label_id, query=LabelQuery()),
                on_success=lambda p: self._save(target, p.content, "No printer found: label saved to", again),
            )

        if fmt == "zpl":
            self.session.ops.run(
                self.session.call(get_label, id=label_id, query=LabelQuery(format="zpl")),
                on_success=zpl,
                on_failure=self._failed(tracking, "print"),
            )
        else:
            self.session.ops.run(
                self.session.call(get_label, id=label_id, query=LabelQuery(format="png")),
                on_success=pdf,
                on_failure=self._failed(tracking, "print"),
            )

    def _print_png(self, png: bytes, printer_name: str) -> None:
        from PySide6.QtCore import QMarginsF, QSizeF
        from PySide6.QtGui import QPageLayout, QPageSize
        from PySide6.QtPrintSupport import QPrinter, QPrinterInfo

        printer = QPrinter(QPrinterInfo.printerInfo(printer_name), QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(
            QPageLayout(
                QPageSize(QSizeF(4, 6), QPageSize.Unit.Inch), QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)
            )
        )
        img = QImage.fromData(png)
        painter = QPainter(printer)
        try:
            painter.drawImage(painter.viewport(), img)
        finally:
            painter.end()

    def _save(self, target: Path, content: bytes, how: str, again: bool = False) -> None:
        target.write_bytes(content)
        self._printed(str(target), how, again)

    def _printed(self, where: str, how: str, again: bool = False) -> None:
        self.printed.append(where)
        self.print_status.setText(f"{how} {where}")
        if again:
            self._log("CMD-PRINT", "key", f"{how} {where}")
            self.say(
                QCoreApplication.translate("LabelPrinting", "Label printed again — {how} {where}").format(
                    how=how, where=where
                ),
                "ok",
            )
