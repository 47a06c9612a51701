"""The packing station's labels: the preview, printing (ZPL to the printer path, PDF to a system
printer or a file) and printing again. A part of ``WarehouseWorkspace``, kept in a file of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel

from services.core.files import FileResult
from services.fulfillment.labels import get_label
from services.fulfillment.schemas import LabelQuery
from views.shell.printing import PrintSetup, label_size, print_pages

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
        """ZPL raw to the configured printer path; otherwise the station's label printer in its label format
        (Settings → Printing), or a PDF file of that format when there is no printer."""
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

        setup = PrintSetup.of(self.session.prefs)

        def pdf(f: FileResult) -> None:
            # The station's label printer and format (Settings); the platform's device setting names a
            # printer too, used while the station leaves its choice on the system default.
            try:
                done = print_pages(
                    [QImage.fromData(f.content)],
                    "label",
                    setup,
                    out_dir / f"label-{tracking}.pdf",
                    preferred=printer,
                )
            except OSError as exc:
                self.error(
                    QCoreApplication.translate("LabelPrinting", "Could not save the label: {exc.strerror}").format(
                        exc=exc
                    )
                )
                return
            self._printed(done.where, done.how, again)

        if fmt == "zpl":
            self.session.ops.run(
                self.session.call(get_label, id=label_id, query=LabelQuery(format="zpl")),
                on_success=zpl,
                on_failure=self._failed(tracking, "print"),
            )
        else:
            self.session.ops.run(
                self.session.call(
                    get_label, id=label_id, query=LabelQuery(format="png", size=label_size(setup.label_format))
                ),
                on_success=pdf,
                on_failure=self._failed(tracking, "print"),
            )

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
