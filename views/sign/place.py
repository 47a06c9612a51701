"""Placing signers' fields on a document's rendered pages with the mouse (Records → Sign →
Documents → *Place field…*).

The document's PDF is drawn page by page (pdfium, as Records shows files); the person picks a
signer and a kind of field, then clicks where it goes: the field is placed there at once
(``sign.fields.add``, its position and size as fractions of the page, as the service keeps them)
and drawn on the page in the signer's colour. A refusal (a document already sent) is said in the
window and nothing is drawn.
"""

from __future__ import annotations

import typing

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from services.core.files import FileResult
from services.sign.documents import download_document
from services.sign.schemas import FieldIn, FieldOut, FieldType, SignerOut
from services.sign.signers import add_field, list_fields, list_signers
from views.base import StationSession
from views.ops import error_message
from views.records.files import pages_of
from views.records.words import QT_TRANSLATE_NOOP
from views.shell.theme import set_role

# A field's kind as the person reads it (the combo's data stays the API's word).
KINDS = {
    "signature": QT_TRANSLATE_NOOP("FieldPlacer", "Signature"),
    "initials": QT_TRANSLATE_NOOP("FieldPlacer", "Initials"),
    "name": QT_TRANSLATE_NOOP("FieldPlacer", "Name"),
    "email": QT_TRANSLATE_NOOP("FieldPlacer", "Email"),
    "date": QT_TRANSLATE_NOOP("FieldPlacer", "Date"),
    "text": QT_TRANSLATE_NOOP("FieldPlacer", "Text"),
    "checkbox": QT_TRANSLATE_NOOP("FieldPlacer", "Checkbox"),
}
COLOURS = ["#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#c62828"]
# The size a click places (fractions of the page): a signature line; the service keeps it as given.
SIZES: dict[str, tuple[float, float]] = {"signature": (0.3, 0.06), "initials": (0.1, 0.05), "checkbox": (0.03, 0.02)}
DEFAULT_SIZE = (0.25, 0.04)


class PageView(QWidget):
    """One rendered page; a click asks for a field at that point (``clicked(page, x, y)``)."""

    clicked = Signal(int, float, float)

    def __init__(self, number: int, image: QImage, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.number = number
        self.image = image
        self.fields: list[tuple[FieldOut, QColor]] = []
        self.setFixedSize(image.size())
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setAccessibleName(self.tr("Page {number}").format(number=number))

    def point_of(self, x: float, y: float) -> QPointF:
        """Where a fraction of the page is on screen (the tests aim with it as a person does)."""
        return QPointF(x * self.width(), y * self.height())

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            p = event.position()
            self.clicked.emit(self.number, p.x() / self.width(), p.y() / self.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.drawImage(0, 0, self.image)
        for f, colour in self.fields:
            r = QRectF(f.x * self.width(), f.y * self.height(), f.width * self.width(), f.height * self.height())
            fill = QColor(colour)
            fill.setAlpha(50)
            p.fillRect(r, fill)
            p.setPen(QPen(colour, 2))
            p.drawRect(r)
            p.drawText(r.adjusted(3, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, f.type)
        p.end()


class FieldPlacer(QDialog):
    def __init__(self, session: StationSession, document_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.document_id = document_id
        self.setWindowTitle(self.tr("Place fields"))
        self.signers: list[SignerOut] = []
        self.pages: list[PageView] = []
        self.signer = QComboBox()
        self.signer.setAccessibleName(self.tr("Signer"))
        self.kind = QComboBox()
        self.kind.setAccessibleName(self.tr("Kind of field"))
        for k in typing.get_args(FieldType):
            self.kind.addItem(self.tr(KINDS.get(k, k)), k)
        self.hint = QLabel(self.tr("Choose a signer and a kind of field, then click where it goes on the page."))
        self.hint.setWordWrap(True)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        set_role(self.message, "message-error")
        self.message.hide()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Signer")))
        top.addWidget(self.signer, 1)
        top.addWidget(QLabel(self.tr("Field")))
        top.addWidget(self.kind)
        self.column = QVBoxLayout()
        holder = QWidget()
        holder.setLayout(self.column)
        scroll = QScrollArea()
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.hint)
        lay.addWidget(self.message)
        lay.addWidget(scroll, 1)
        self.resize(900, 720)
        s = session
        s.ops.run(s.call(list_signers, id=document_id), on_success=self._signers, on_failure=self.failed)
        s.ops.run(s.call(download_document, id=document_id), on_success=self._pdf, on_failure=self.failed)

    def _signers(self, page: object) -> None:
        self.signers = list(getattr(page, "items", []))
        for i, sg in enumerate(self.signers):
            self.signer.addItem(f"{sg.name} ({sg.role})", sg.id)
            self.signer.setItemData(i, QColor(COLOURS[i % len(COLOURS)]), Qt.ItemDataRole.DecorationRole)
        if not self.signers:
            self.failed(ValueError(self.tr("Add a signer first (Add signer…), then place their fields.")))
        s = self.session
        s.ops.run(s.call(list_fields, id=self.document_id), on_success=self._fields)

    def _colour(self, signer_id: str) -> QColor:
        ids = [sg.id for sg in self.signers]
        return QColor(COLOURS[ids.index(signer_id) % len(COLOURS)] if signer_id in ids else "#555")

    def _pdf(self, f: FileResult) -> None:
        for n, image in enumerate(pages_of(f, dpi=80), start=1):  # a page fits the window's width
            view = PageView(n, image)
            view.clicked.connect(self.place)
            self.column.addWidget(view, 0, Qt.AlignmentFlag.AlignHCenter)
            self.pages.append(view)

    def _fields(self, page: object) -> None:
        for f in getattr(page, "items", []):
            self._draw(f)

    def _draw(self, f: FieldOut) -> None:
        for view in self.pages:
            if view.number == f.page:
                view.fields.append((f, self._colour(f.signer_id or "")))
                view.update()

    def place(self, page: int, x: float, y: float) -> None:
        signer = self.signer.currentData()
        if not signer:
            self.failed(ValueError(self.tr("Add a signer first (Add signer…), then place their fields.")))
            return
        kind = str(self.kind.currentData())
        w, h = SIZES.get(kind, DEFAULT_SIZE)
        body = {
            "signer_id": str(signer),
            "type": kind,
            "page": page,
            "x": round(min(max(x, 0.0), 1 - w), 4),  # the field stays on the page
            "y": round(min(max(y, 0.0), 1 - h), 4),
            "width": w,
            "height": h,
        }
        s = self.session
        # The body as a person's input is checked like the HTTP door's (FieldIn): a refusal lands in failed.
        run = s.call(add_field, id=self.document_id, body=FieldIn.model_validate(body))
        s.ops.run(run, on_success=self._placed, on_failure=self.failed)

    def _placed(self, f: FieldOut) -> None:
        self.message.hide()
        self._draw(f)
        placed = self.tr("{kind} field placed on page {page}")
        self.session.notify(True, placed.format(kind=self.tr(KINDS.get(f.type, f.type)), page=f.page))

    def failed(self, error: BaseException) -> None:
        self.message.setText(str(error) if isinstance(error, ValueError) else error_message(error))
        self.message.show()


def open_for_record(parent: QWidget, session: StationSession, record_id: str) -> FieldPlacer:
    """The records workspace's "Place field…" on a document."""
    placer = FieldPlacer(session, record_id, parent)
    placer.open()
    return placer
