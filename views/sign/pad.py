"""Signing in person at a station: a signature pad, full screen, readable at arm's length.

The inspector hands the station to the customer, who signs with a finger, a stylus or the mouse
(Qt turns touch and tablet input it is not asked to handle into mouse events, so the pad reads all
three the same way). The signature goes through ``sign.documents.sign_in_person``, a staff call: no
signing link exists for an in-person signer, and none is ever shown.
Reused by the inspection workspace (the trade-in agreement) and the records workspace (any document).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QShortcut,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from services.sign.documents import get_document, sign_in_person
from services.sign.schemas import DocumentOut, FieldOut, InPersonSign, SignerOut, SignResult
from services.sign.signers import list_fields, list_signers
from views.base import StationSession
from views.ops import error_message
from views.wording import state_word

STYLE = """
#sign-pad-dialog { background: #fafafa; }
#sign-pad-dialog QLabel, #sign-pad-dialog QCheckBox, #sign-pad-dialog QLineEdit { font-size: 22pt; }
#sign-title { font-size: 30pt; font-weight: bold; }
#sign-status { font-size: 22pt; font-weight: bold; padding: 10px; border-radius: 8px; }
#sign-pad-dialog QPushButton { font-size: 22pt; padding: 14px 28px; }
#sign-submit { background: #2e7d32; color: white; font-weight: bold; }
#sign-submit:disabled { background: #a5d6a7; color: #eeeeee; }
#sign-pad-dialog QCheckBox::indicator { width: 36px; height: 36px; }
"""
INK = QColor("#0d2a6b")
CLOSE_AFTER_MS = 2500


class SignaturePad(QWidget):
    """Strokes drawn with a finger, stylus or mouse; exported as a transparent PNG."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sign-pad")
        self.setAccessibleName(self.tr("Signature pad: sign here"))
        self.setMinimumSize(600, 260)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.strokes: list[list[QPointF]] = []

    def is_empty(self) -> bool:
        return not any(len(s) > 1 for s in self.strokes)

    def clear(self) -> None:
        self.strokes = []
        self.update()
        self.changed.emit()

    def stroke(self, points: list[tuple[float, float]]) -> None:
        """Add one stroke (tests and replays)."""
        self.strokes.append([QPointF(x, y) for x, y in points])
        self.update()
        self.changed.emit()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self.strokes.append([event.position()])
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.buttons() & Qt.MouseButton.LeftButton and self.strokes:
            self.strokes[-1].append(event.position())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton and self.strokes:
            self.strokes[-1].append(event.position())
            self.update()
            self.changed.emit()

    def _path(self, scale: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> QPainterPath:
        path = QPainterPath()
        for s in self.strokes:
            if not s:
                continue
            path.moveTo((s[0].x() - dx) * scale, (s[0].y() - dy) * scale)
            for p in s[1:]:
                path.lineTo((p.x() - dx) * scale, (p.y() - dy) * scale)
        return path

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("white"))
        p.setPen(QPen(QColor("#90a4ae"), 3))
        p.drawRect(self.rect().adjusted(1, 1, -2, -2))
        base = self.height() * 0.75
        p.setPen(QPen(QColor("#b0bec5"), 2, Qt.PenStyle.DashLine))
        p.drawLine(30, int(base), self.width() - 30, int(base))
        if self.is_empty():
            p.setPen(QColor("#90a4ae"))
            f = p.font()
            f.setPointSize(24)
            p.setFont(f)
            p.drawText(QRectF(0, 0, self.width(), base - 10), Qt.AlignmentFlag.AlignCenter, self.tr("Sign here ✍"))
        p.setPen(QPen(INK, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.drawPath(self._path())
        p.end()

    def to_png(self, width: int = 900) -> bytes:
        """The strokes on a transparent image, cropped to what was drawn."""
        if self.is_empty():
            return b""
        box = self._path().boundingRect().adjusted(-8, -8, 8, 8)
        scale = width / box.width() if box.width() > width else 1.0
        img = QImage(max(1, int(box.width() * scale)), max(1, int(box.height() * scale)), QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(
            QPen(INK, max(2.0, 4 * scale), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
        )
        p.drawPath(self._path(scale, box.x(), box.y()))
        p.end()
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; PySide6 takes str
        return bytes(data.data())


class SignDialog(QDialog):
    """The customer's screen: the document, their fields, consent, the pad, and one big Sign button."""

    signed = Signal(object)

    def __init__(
        self,
        session: StationSession,
        document: DocumentOut,
        signer: SignerOut,
        fields: list[FieldOut],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session, self.document, self.signer = session, document, signer
        self.setObjectName("sign-pad-dialog")
        self.setWindowTitle(self.tr("Sign: {document}").format(document=document.title))
        self.setStyleSheet(STYLE)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(40, 30, 40, 30)
        lay.setSpacing(16)
        title = QLabel(document.title)
        title.setObjectName("sign-title")
        title.setWordWrap(True)
        lay.addWidget(title)
        pages = self.tr("%n page(s)", "", document.pages)
        who = QLabel(
            self.tr("Signing as <b>{name}</b> · {pages} · the staff member beside you witnesses it").format(
                name=html.escape(signer.name), pages=pages
            )
        )
        who.setWordWrap(True)
        lay.addWidget(who)
        self.inputs: dict[str, QLineEdit | QCheckBox] = {}
        for f in fields:
            if f.signer_id != signer.id or f.type in ("signature", "initials", "date", "name", "email"):
                continue
            if f.type == "checkbox":
                words = (
                    self.tr("I accept the terms above (page {page})")
                    if f.required
                    else self.tr("Optional box (page {page})")
                )
                box = QCheckBox(words.format(page=f.page))
                box.setObjectName(f"sign-field-{f.id}")
                box.toggled.connect(self._update)
                self.inputs[f.id] = box
                lay.addWidget(box)
            else:
                hint = self.tr("Required text, page {page}") if f.required else self.tr("Optional text, page {page}")
                edit = QLineEdit(placeholderText=hint.format(page=f.page))
                edit.setObjectName(f"sign-field-{f.id}")
                edit.textChanged.connect(self._update)
                self.inputs[f.id] = edit
                lay.addWidget(edit)
        self.required = {f.id for f in fields if f.signer_id == signer.id and f.required and f.id in self.inputs}
        self.consent = QCheckBox(
            self.tr("I agree to sign this document electronically; my signature here is as binding as on paper.")
        )
        self.consent.setObjectName("sign-consent")
        self.consent.toggled.connect(self._update)
        lay.addWidget(self.consent)
        self.pad = SignaturePad(self)
        self.pad.changed.connect(self._update)
        lay.addWidget(self.pad, 1)
        self.status = QLabel("")
        self.status.setObjectName("sign-status")
        self.status.setWordWrap(True)
        self.status.hide()
        lay.addWidget(self.status)
        row = QHBoxLayout()
        self.clear_btn = QPushButton(self.tr("&Clear"))
        self.clear_btn.setObjectName("sign-clear")
        self.clear_btn.clicked.connect(self.pad.clear)
        self.cancel_btn = QPushButton(self.tr("Cancel"))
        self.cancel_btn.setObjectName("sign-cancel")
        self.cancel_btn.clicked.connect(self.reject)
        self.submit_btn = QPushButton(self.tr("&Sign"))
        self.submit_btn.setObjectName("sign-submit")
        self.submit_btn.clicked.connect(self.submit)
        row.addWidget(self.clear_btn)
        row.addWidget(self.cancel_btn)
        row.addStretch(1)
        row.addWidget(self.submit_btn)
        lay.addLayout(row)
        QShortcut(QKeySequence("Ctrl+Return"), self).activated.connect(self.submit)
        self._update()

    def missing(self) -> list[str]:
        out = []
        for fid in self.required:
            w = self.inputs[fid]
            if (isinstance(w, QCheckBox) and not w.isChecked()) or (isinstance(w, QLineEdit) and not w.text().strip()):
                out.append(fid)
        return out

    def _update(self) -> None:
        self.submit_btn.setEnabled(self.consent.isChecked() and not self.pad.is_empty() and not self.missing())

    def say(self, text: str, ok: bool) -> None:
        bg, fg = ("#2e7d32", "#ffffff") if ok else ("#c62828", "#ffffff")
        self.status.setStyleSheet(f"background: {bg}; color: {fg};")
        self.status.setText(text)
        self.status.show()

    def body(self) -> dict[str, object]:
        import base64

        values: dict[str, object] = {}
        for fid, w in self.inputs.items():
            values[fid] = w.isChecked() if isinstance(w, QCheckBox) else w.text().strip()
        return {
            "signer_id": self.signer.id,
            "values": values,
            "signature": {"type": "drawn", "image": base64.b64encode(self.pad.to_png()).decode()},
            "consent": self.consent.isChecked(),
        }

    def submit(self) -> None:
        if not self.submit_btn.isEnabled():
            return
        self.submit_btn.setEnabled(False)

        def ok(result: SignResult) -> None:
            done = result.document_status == "completed"
            self.say(
                self.tr("Signed. Thank you!") + (self.tr(" The document is complete and sealed.") if done else ""), True
            )
            self.signed.emit(result)
            self.session.notify(True, self.tr("Signed"))
            self.pad.setEnabled(False)
            # Long enough to read the green answer before the screen goes back to staff.
            QTimer.singleShot(CLOSE_AFTER_MS, self.accept)

        def failed(error: BaseException) -> None:
            self.say(error_message(error), False)
            self.session.notify(False, self.tr("Not signed"))
            self._update()

        body = self.session.request(InPersonSign, self.body(), failed)
        if body is None:
            return
        self.session.ops.run(
            self.session.call(sign_in_person, id=self.document.id, body=body),
            on_success=ok,
            on_failure=failed,
            parent=self,
        )


def sign_at_station(parent: QWidget, session: StationSession, document_id: str, *, full_screen: bool = True) -> None:
    """Load the document, its in-person signer still to sign and their fields; open the pad."""

    def load() -> tuple[DocumentOut, SignerOut | None, list[FieldOut]]:
        doc = session.call(get_document, id=document_id)()
        signers = session.call(list_signers, id=document_id)().items
        fields = session.call(list_fields, id=document_id)().items
        waiting = [g for g in signers if g.in_person and g.status not in ("signed", "declined")]
        return doc, (waiting[0] if waiting else None), fields

    def show(found: tuple[DocumentOut, SignerOut | None, list[FieldOut]]) -> None:
        doc, signer, fields = found
        if signer is None or doc.status != "sent":
            QMessageBox.information(parent, QCoreApplication.translate("sign", "Sign in person"), why_not(doc))
            return
        dlg = SignDialog(session, doc, signer, fields, parent)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if full_screen:
            dlg.showFullScreen()
        else:
            dlg.show()
        parent.setProperty("signDialog", dlg)

    def failed(error: BaseException) -> None:
        QMessageBox.warning(parent, QCoreApplication.translate("sign", "Sign in person"), error_message(error))

    session.ops.run(load, on_success=show, on_failure=failed, parent=parent)


def why_not(doc: DocumentOut) -> str:
    """Why nobody signs ``doc`` at this desk now, and what to do: the walk of issue 32 read only
    "No one signs this document in person now." on a sent document whose one signer signs by mail."""
    if doc.status == "draft":
        return QCoreApplication.translate(
            "sign", "“{title}” is a draft: send it for signature first, then its in-person signer signs here."
        ).format(title=doc.title)
    if doc.status != "sent":
        return QCoreApplication.translate("sign", "“{title}” is {state}: nobody signs it any more.").format(
            title=doc.title, state=state_word(doc.status)
        )
    return QCoreApplication.translate(
        "sign",
        "No signer of “{title}” signs in person: they sign from the mail. To sign here, add a signer with Add signer… and tick In person.",
    ).format(title=doc.title)


def open_for_record(parent: QWidget, session: StationSession, record_id: str) -> None:
    """The records workspace's "Sign in person" on a document."""
    sign_at_station(parent, session, record_id)
