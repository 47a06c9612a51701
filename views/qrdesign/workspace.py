"""QR designer: edit a code's content or destination and style, see it redrawn as you type, know
whether it still reads, print it or save it, and see its scans.

Every keystroke restarts a short timer (debounce); when it fires, the preview is drawn and read back
by zxing-cpp on a worker thread through the op runner, so typing never waits for a drawing. Results
of an older drawing that come back late are dropped (a generation number). The verdict is shown in
large type: green when the drawing reads back to exactly what it should carry, amber when it reads
but a choice is risky (low contrast, a logo without error correction H), red when it does not read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QLocale, QMarginsF, QRect, Qt, QTimer
from PySide6.QtGui import (
    QFont,
    QImage,
    QKeySequence,
    QPageLayout,
    QPageSize,
    QPainter,
    QPixmap,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.pagination import ListQuery, Page
from services.core.roles import STAFF
from services.qr import render
from services.qr.codes import (
    change_destination,
    code_analytics,
    create_code,
    list_codes,
    preview,
    update_code,
    upload_logo,
)
from services.qr.schemas import (
    AnalyticsOut,
    AnalyticsQuery,
    DestinationUpdate,
    LogoOut,
    PreviewQuery,
    QrCreate,
    QrOut,
    QrQuery,
    QrUpdate,
    TemplateOut,
)
from services.qr.templates import list_templates
from views.base import StationSession, Workspace, shown_title
from views.ops import error_message
from views.qrdesign.chart import ScanChart
from views.qrdesign.kinds import kind_word
from views.shell.forms import buddied, wrapping

STYLE = """
#workspace-qrdesign { font-size: 16pt; }
#workspace-qrdesign QLineEdit, #workspace-qrdesign QComboBox { font-size: 18pt; padding: 6px; }
#contentInput { font-size: 20pt; border: 2px solid #90a4ae; border-radius: 8px; }
#contentInput:focus { border: 3px solid #1565c0; }
#verdict { font-size: 22pt; font-weight: bold; padding: 14px; border-radius: 8px; }
#preview { background: #eceff1; border-radius: 8px; }
"""
# Background and text colour of each verdict: readable, risky, unreadable, plain information.
TONES = {
    "ok": ("#2e7d32", "#ffffff"),
    "warn": ("#ffb300", "#000000"),
    "error": ("#d32f2f", "#ffffff"),
    "info": ("#e3f2fd", "#0d47a1"),
}
DEBOUNCE_MS = 250
PREVIEW_PX = 512
LOW_CONTRAST = 3.0
CHART_DAYS = 30


class QrDesignWorkspace(Workspace):
    name = "qrdesign"
    title = "QR designer"
    modules = frozenset({"qr"})
    shows = frozenset({"qr.*"})
    roles = STAFF
    position = 40
    keys = (("Ctrl+N", "new code"), ("Ctrl+S", "save"), ("Ctrl+P", "print"), ("Ctrl+E", "save as SVG or PDF"))

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setStyleSheet(STYLE)
        self.codes: list[QrOut] = []
        self.templates: list[TemplateOut] = []
        self.code: QrOut | None = None  # the code being edited; None while designing a new one
        self.generation = 0  # of the latest drawing asked for; older answers are dropped
        self.image: QImage | None = None  # the drawing shown, printed by Ctrl+P
        self.data = ""  # what the drawing must read back as
        self.decoded: list[str] = []
        self.tone = "info"
        self._filling = False
        self.redraw_timer = QTimer(self)
        self.redraw_timer.setSingleShot(True)
        self.redraw_timer.setInterval(DEBOUNCE_MS)
        self.redraw_timer.timeout.connect(self.redraw)
        self._build()
        for seq, slot in (
            ("Ctrl+N", self.new_code),
            ("Ctrl+S", self.save),
            ("Ctrl+P", self.print_dialog),
            ("Ctrl+E", self.export_dialog),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        self.say(self.tr("Pick a code on the left, or Ctrl+N for a new one"), "info")
        self.load()

    # --- layout ------------------------------------------------------------------------------

    def _build(self) -> None:
        root = QVBoxLayout(self)
        heading = QLabel(shown_title(type(self)))
        heading.setStyleSheet("font-size: 20pt; font-weight: bold;")
        root.addWidget(heading)
        body = QHBoxLayout()
        root.addLayout(body, 1)

        left = QVBoxLayout()
        left.addWidget(QLabel(self.tr("Codes")))
        self.code_list = QListWidget()
        self.code_list.setStyleSheet("font-size: 15pt;")
        wrapping(self.code_list)
        self.code_list.currentItemChanged.connect(lambda cur, _prev: self._picked(cur))
        left.addWidget(self.code_list, 1)
        new = QPushButton(self.tr("New code (Ctrl+N)"))
        new.clicked.connect(self.new_code)
        left.addWidget(new)
        body.addLayout(left, 3)

        mid = QVBoxLayout()
        form = QFormLayout()
        self.name_input = QLineEdit()
        self.name_input.setObjectName("nameInput")
        self.name_input.setMaxLength(200)
        form.addRow(self.tr("&Name"), self.name_input)
        self.content_input = QLineEdit()
        self.content_input.setObjectName("contentInput")
        self.content_input.setMaxLength(2000)
        self.content_label = buddied(self.tr("&Destination"), self.content_input)
        form.addRow(self.content_label, self.content_input)
        self.dynamic_box = QCheckBox(self.tr("D&ynamic: the destination can change after printing"))
        self.dynamic_box.setChecked(True)
        form.addRow("", self.dynamic_box)
        self.template_box = QComboBox()
        form.addRow(self.tr("&Template"), self.template_box)
        self.fg_input = QLineEdit("#000000")
        self.fg_input.setObjectName("fgInput")
        self.bg_input = QLineEdit("#ffffff")
        self.bg_input.setObjectName("bgInput")
        colours = QHBoxLayout()
        colours.addWidget(self.fg_input)
        colours.addWidget(QLabel(self.tr("on")))
        colours.addWidget(self.bg_input)
        form.addRow(buddied(self.tr("&Colours"), self.fg_input), colours)
        self.ec_box = QComboBox()
        for level, what in (("L", "L · 7%"), ("M", "M · 15%"), ("Q", "Q · 25%"), ("H", self.tr("H · 30%, for a logo"))):
            self.ec_box.addItem(what, level)
        form.addRow(self.tr("&Error correction"), self.ec_box)
        logo_row = QHBoxLayout()
        self.logo_label = QLabel(self.tr("No logo"))
        pick = QPushButton(self.tr("Logo…"))
        pick.clicked.connect(self.pick_logo)
        drop = QPushButton(self.tr("No logo"))
        drop.clicked.connect(lambda: self.set_logo_id(None))
        logo_row.addWidget(self.logo_label, 1)
        logo_row.addWidget(pick)
        logo_row.addWidget(drop)
        form.addRow(buddied(self.tr("&Logo"), pick), logo_row)
        mid.addLayout(form)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        mid.addWidget(self.verdict)
        buttons = QHBoxLayout()
        for text, slot in (
            (self.tr("Save (Ctrl+S)"), self.save),
            (self.tr("Print (Ctrl+P)"), self.print_dialog),
            (self.tr("SVG / PDF (Ctrl+E)"), self.export_dialog),
        ):
            b = QPushButton(text)
            b.setMinimumHeight(48)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        mid.addLayout(buttons)
        mid.addStretch(1)
        body.addLayout(mid, 5)

        right = QVBoxLayout()
        self.preview = QLabel()
        self.preview.setObjectName("preview")
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(260, 260)
        right.addWidget(self.preview, 3)
        self.carries = QLabel("")
        self.carries.setWordWrap(True)
        self.carries.setStyleSheet("font-size: 13pt;")
        right.addWidget(self.carries)
        right.addWidget(QLabel(self.tr("Scans, last 30 days")))
        self.chart = ScanChart()
        right.addWidget(self.chart, 2)
        self.totals = QLabel("")
        self.totals.setWordWrap(True)
        right.addWidget(self.totals)
        body.addLayout(right, 4)

        self.logo_file_id: str | None = None
        for edit in (self.name_input, self.content_input, self.fg_input, self.bg_input):
            edit.textEdited.connect(self.schedule_redraw)
        self.ec_box.currentIndexChanged.connect(self.schedule_redraw)
        self.dynamic_box.toggled.connect(self._dynamic_toggled)
        self.template_box.activated.connect(self.apply_template)

    # --- shell hooks ---------------------------------------------------------------------------

    def focus_primary(self) -> None:
        self.content_input.setFocus()

    def on_changed(self, change: CommitInfo) -> None:
        self.load(quiet=True)

    # --- feedback ------------------------------------------------------------------------------

    def say(self, message: str, tone: str) -> None:
        bg, fg = TONES[tone]
        self.tone = tone
        self.verdict.setText(message)
        self.verdict.setProperty("tone", tone)
        self.verdict.setStyleSheet(f"background: {bg}; color: {fg};")

    def _failed(self, what: str) -> Callable[[BaseException], None]:
        def fail(exc: BaseException) -> None:
            given = {"fg": self.fg_input.text(), "bg": self.bg_input.text(), "name": self.name_input.text()}
            given["destination_url" if self.dynamic_box.isChecked() else "content"] = self.content_input.text()
            msg = error_message(exc, given)
            self.say(f"✗ {what}: {msg}", "error")
            self.session.notify(False, msg)

        return fail

    # --- loading ---------------------------------------------------------------------------------

    def load(self, quiet: bool = False) -> None:
        call = self.session.call
        opening = not quiet and self.code is None and not self.codes

        def got_codes(page: Page[QrOut]) -> None:
            self.codes = list(page.items)
            keep = self.code.id if self.code is not None else None
            self.code_list.blockSignals(True)
            self.code_list.clear()
            for c in self.codes:
                kind = self.tr("dynamic") if c.dynamic else kind_word(c.type)
                row = QListWidgetItem(
                    f"{c.name}\n" + self.tr("{kind} · {scans} scans").format(kind=kind, scans=c.scans)
                )
                row.setData(Qt.ItemDataRole.UserRole, c.id)
                self.code_list.addItem(row)
                if c.id == keep:
                    self.code_list.setCurrentItem(row)
            self.code_list.blockSignals(False)
            if keep is not None:
                self.code = next((c for c in self.codes if c.id == keep), self.code)
                self.load_scans()
            elif opening and self.codes:
                self.code_list.setCurrentRow(0)  # opens on the most scanned code

        def got_templates(page: Page[TemplateOut]) -> None:
            self.templates = list(page.items)
            current = self.template_box.currentData()
            self.template_box.clear()
            self.template_box.addItem(self.tr("(own style)"), None)
            for t in self.templates:
                self.template_box.addItem(t.name, t.id)
            if self.code is not None:
                current = self.code.template_id
            if current is not None:
                self.template_box.setCurrentIndex(max(0, self.template_box.findData(current)))

        self.session.ops.run(call(list_codes, query=QrQuery(limit=100, sort="-scans")), on_success=got_codes)
        self.session.ops.run(call(list_templates, query=ListQuery(limit=100)), on_success=got_templates)

    def _picked(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        cid = item.data(Qt.ItemDataRole.UserRole)
        code = next((c for c in self.codes if c.id == cid), None)
        if code is not None:
            self.edit(code)

    def edit(self, code: QrOut) -> None:
        """Fill the form from a stored code, draw it, show its scans."""
        self.code = code
        self._filling = True
        self.name_input.setText(code.name)
        self.dynamic_box.setChecked(code.dynamic)
        self.dynamic_box.setEnabled(False)  # a printed code keeps its kind
        self.content_input.setText(code.destination_url or "" if code.dynamic else code.content)
        self._fill_style(code.style)
        self.template_box.setCurrentIndex(max(0, self.template_box.findData(code.template_id)))
        self._filling = False
        self._dynamic_toggled(code.dynamic)
        self._mark_clean()
        self.redraw()
        self.load_scans()

    def _fill_style(self, style: Mapping[str, object]) -> None:
        self.fg_input.setText(str(style.get("fg", "#000000")))
        self.bg_input.setText(str(style.get("bg", "#ffffff")))
        self.ec_box.setCurrentIndex(max(0, self.ec_box.findData(style.get("error_correction", "M"))))
        self.border = int(str(style.get("border", 4)))
        logo = style.get("logo_file_id")
        self.set_logo_id(str(logo) if logo else None, redraw=False)

    def _form_state(self) -> tuple[object, ...]:
        """What the person can change in the form (compared with what was loaded or saved)."""
        return (
            self.name_input.text(),
            self.content_input.text(),
            self.dynamic_box.isChecked(),
            self.fg_input.text(),
            self.bg_input.text(),
            self.ec_box.currentData(),
        )  # not the template box: its list arrives later and would read as an edit

    def _mark_clean(self) -> None:
        self._clean = self._form_state()

    def unsaved(self) -> bool:
        return self._form_state() != getattr(self, "_clean", self._form_state())

    def new_code(self) -> None:
        """Ctrl+N: a blank form; unsaved edits are not thrown away without asking (issue 32, 12)."""
        if self.unsaved():
            what = self.name_input.text().strip() or self.tr("this code")
            answer = QMessageBox.question(
                self,
                self.tr("Discard the changes?"),
                self.tr("The changes to {code} are not saved. Discard them and start a new code?").format(code=what),
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Discard:
                self.say(self.tr("Not discarded: Ctrl+S saves the changes"), "info")
                return
        self.code = None
        self.code_list.clearSelection()
        self.code_list.setCurrentRow(-1)
        self._filling = True
        self.name_input.setText("")
        self.content_input.setText("https://")
        self.dynamic_box.setEnabled(True)
        self.dynamic_box.setChecked(True)
        self._fill_style({})
        self.template_box.setCurrentIndex(0)
        self._filling = False
        self._dynamic_toggled(True)
        self.chart.set_days([])
        self.totals.setText("")
        self._mark_clean()
        self.name_input.setFocus()
        self.say(self.tr("New code: give it a name and a destination, then Ctrl+S"), "info")
        self.schedule_redraw()

    def _dynamic_toggled(self, dynamic: bool) -> None:
        self.content_label.setText(self.tr("&Destination") if dynamic else self.tr("C&ontent"))
        self.content_input.setPlaceholderText(
            self.tr("https://… where a scan goes") if dynamic else self.tr("Text, a URL, mailto:, tel:, WIFI:…")
        )
        if not self._filling:
            self.schedule_redraw()

    def apply_template(self, index: int) -> None:
        tid = self.template_box.itemData(index)
        template = next((t for t in self.templates if t.id == tid), None)
        if template is not None:
            self._fill_style(template.style)
        self.schedule_redraw()

    # --- style and logo ---------------------------------------------------------------------------

    border = 4

    def form_style(self) -> dict[str, object]:
        return {
            "fg": self.fg_input.text().strip(),
            "bg": self.bg_input.text().strip(),
            "error_correction": self.ec_box.currentData(),
            "border": self.border,
            "logo_file_id": self.logo_file_id,
        }

    def set_logo_id(self, file_id: str | None, redraw: bool = True) -> None:
        self.logo_file_id = file_id
        self.logo_label.setText(self.tr("Logo set") if file_id else self.tr("No logo"))
        if redraw:
            self.schedule_redraw()

    def pick_logo(self) -> None:
        dialog = QFileDialog(self, self.tr("A logo for the code"), "", self.tr("Images (*.png *.jpg *.jpeg)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: self.upload_logo(Path(path)))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.show()  # no nested event loop: the shell keeps running

    def upload_logo(self, path: Path) -> None:
        """Store the logo through the module's upload (off the UI thread), then redraw with it."""
        call = self.session.call

        def upload() -> LogoOut:
            from services.core.files import Upload

            kind = "image/png" if path.suffix.lower() == ".png" else "image/jpeg"
            upload = Upload(filename=path.name, content_type=kind, content=path.read_bytes())
            return call(upload_logo, upload=upload)()

        self.session.ops.run(
            upload, on_success=lambda out: self.set_logo_id(out.file_id), on_failure=self._failed(self.tr("Logo"))
        )

    # --- the drawing as you type -------------------------------------------------------------------

    def schedule_redraw(self, *_args: object) -> None:
        """Restart the debounce timer: the drawing is made once typing pauses."""
        if not self._filling:
            self.redraw_timer.start()

    def _body(self, *, for_drawing: bool) -> dict[str, object]:
        dynamic = self.dynamic_box.isChecked()
        body: dict[str, object] = {"name": self.name_input.text().strip() or "Untitled", "style": self.form_style()}
        if dynamic and self.code is not None and for_drawing:
            # A stored dynamic code carries its scan address: draw exactly that.
            body.update(dynamic=False, content=self.code.content)
        elif dynamic:
            body.update(dynamic=True, destination_url=self.content_input.text().strip())
            if for_drawing:  # the drawing carries the scan address, not the destination being typed
                body["destination_url"] = "https://example.com/"
        else:
            # A static code is read as its type says (a Wi-Fi or vCard payload is no web address);
            # a new one is a URL when it looks like one, text otherwise.
            content = self.content_input.text()
            known = self.code.type if self.code is not None and not self.code.dynamic else None
            looks_like_url = content.strip().lower().startswith(("http://", "https://"))
            body.update(dynamic=False, content=content, type=known or ("url" if looks_like_url else "text"))
        return body

    def redraw(self) -> None:
        self.redraw_timer.stop()
        self.generation += 1
        gen = self.generation
        body = self._body(for_drawing=True)
        call, typed = self.session.call, self.session.typed

        def draw() -> tuple[bytes, list[str]]:
            png = call(preview, body=typed(QrCreate, body), query=PreviewQuery(format="png", size=PREVIEW_PX))()
            return png.content, render.read_back(png.content)

        def drawn(result: tuple[bytes, list[str]]) -> None:
            if gen != self.generation:
                return  # typing went on: a newer drawing is on its way
            png, decoded = result
            self.show_drawing(png, decoded)

        def failed(exc: BaseException) -> None:
            if gen == self.generation:
                self._failed(self.tr("Cannot draw this"))(exc)

        self.session.ops.run(draw, on_success=drawn, on_failure=failed, parent=self.preview)

    def _fit_preview(self) -> None:
        if self.image is None:
            return
        side = max(64, min(self.preview.width(), self.preview.height()) - 16)
        # Whole-module scaling (fast transformation): square, sharp modules on screen.
        pix = QPixmap.fromImage(self.image).scaled(
            side, side, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.FastTransformation
        )
        self.preview.setPixmap(pix)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_preview()

    def expected(self) -> str:
        if self.dynamic_box.isChecked():
            if self.code is not None:
                return str(self.code.content)
            return "the scan address (made when you save)"
        return self.content_input.text()

    def show_drawing(self, png: bytes, decoded: list[str]) -> None:
        self.image = QImage.fromData(png)
        self._fit_preview()
        self.decoded = decoded
        style = self.form_style()
        new_dynamic = self.dynamic_box.isChecked() and self.code is None
        want = self.expected()
        reads = bool(decoded) and (new_dynamic or decoded[0] == want)
        self.data = decoded[0] if decoded else ""
        self.carries.setText(self.tr("Carries: {data}").format(data=self.data) if decoded else "")
        ratio = render.contrast(str(style["fg"]), str(style["bg"]))
        if not reads:
            why = []
            if ratio < LOW_CONTRAST:
                why.append(
                    self.tr("colours too close (contrast {ratio}:1)").format(ratio=QLocale().toString(ratio, "f", 1))
                )
            if self.logo_file_id:
                why.append(
                    self.tr("the logo hides too much")
                    if style["error_correction"] == "H"
                    else self.tr("the logo hides too much: use H")
                )
            self.say(self.tr("✗ Phones will not read this code") + (": " + ", ".join(why) if why else ""), "error")
        elif ratio < LOW_CONTRAST:
            low = self.tr("⚠ Reads here, but the contrast is low ({ratio}:1): darker on lighter is safer")
            self.say(low.format(ratio=QLocale().toString(ratio, "f", 1)), "warn")
        elif self.logo_file_id and style["error_correction"] != "H":
            self.say(self.tr("⚠ Reads here, but a logo needs error correction H to be safe"), "warn")
        else:
            self.say(self.tr("✓ Reads back correctly"), "ok")

    # --- saving -------------------------------------------------------------------------------------

    def save(self) -> None:
        body = self._body(for_drawing=False)
        call = self.session.call
        if self.code is None:

            def created(out: QrOut) -> None:
                self.code = out
                self._mark_clean()
                self.dynamic_box.setEnabled(False)
                self.say(self.tr("✓ Saved {name}").format(name=out.name), "ok")
                self.redraw()  # now it carries its own scan address
                self.load(quiet=True)

            new = self.session.request(QrCreate, body, self._failed(self.tr("Not saved")))
            if new is not None:
                self.session.ops.run(
                    call(create_code, body=new), on_success=created, on_failure=self._failed(self.tr("Not saved"))
                )
            return
        code = self.code
        change: dict[str, object] = {"name": body["name"], "style": body["style"]}
        tid = self.template_box.currentData()
        if tid:
            change["template_id"] = tid
        if not code.dynamic:
            change["content"] = body["content"]
        destination = self.content_input.text().strip()

        def updated(out: QrOut) -> None:
            if code.dynamic and destination != (code.destination_url or ""):
                moved = self.session.request(
                    DestinationUpdate, {"destination_url": destination}, self._failed(self.tr("Destination not saved"))
                )
                if moved is not None:
                    self.session.ops.run(
                        call(change_destination, id=code.id, body=moved),
                        on_success=done,
                        on_failure=self._failed(self.tr("Destination not saved")),
                    )
            else:
                done(out)

        def done(out: QrOut) -> None:
            self.code = out
            self._mark_clean()
            self.say(self.tr("✓ Saved {name}").format(name=out.name), "ok")

        update = self.session.request(QrUpdate, change, self._failed(self.tr("Not saved")))
        if update is not None:
            self.session.ops.run(
                call(update_code, id=code.id, body=update),
                on_success=updated,
                on_failure=self._failed(self.tr("Not saved")),
            )

    # --- printing and files -----------------------------------------------------------------------

    def print_dialog(self) -> None:
        if self.image is None:
            self.say(self.tr("Nothing to print yet: pick or design a code"), "error")
            return
        self.printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        self.printer.setDocName(self.name_input.text() or "QR code")
        dialog = QPrintDialog(self.printer, self)
        dialog.accepted.connect(lambda: self.print_to(self.printer))
        self.print_window = dialog
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.show()  # window-modal, not a nested event loop: the station keeps running

    def print_to(self, printer: QPrinter, width_mm: float = 60.0) -> None:
        """The code ``width_mm`` wide, centred on the page, its name under it; modules stay square."""
        if self.image is None:
            return
        printer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
        if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat:
            printer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        p = QPainter(printer)
        page = printer.pageRect(QPrinter.Unit.DevicePixel).toRect()
        px = int(width_mm / 25.4 * printer.resolution())
        x = (page.width() - px) // 2
        p.drawImage(QRect(x, 0, px, px), self.image)  # no smoothing: square module edges
        font = QFont(self.font())
        font.setPointSize(14)
        p.setFont(font)
        p.drawText(
            QRect(0, px + 20, page.width(), 400),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
            self.name_input.text(),
        )
        p.end()
        sent = self.tr("✓ Sent {code} to {printer}")
        code, where = self.name_input.text() or self.tr("the code"), printer.printerName() or self.tr("the printer")
        self.say(sent.format(code=code, printer=where), "ok")

    def export_dialog(self) -> None:
        dialog = QFileDialog(self, self.tr("Save the code"), "", "SVG (*.svg);;PDF (*.pdf)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda path: self.save_file(Path(path)))
        self.export_window = dialog
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.show()

    def save_file(self, path: Path) -> None:
        """SVG or PDF (by the file's ending; SVG when it has none), drawn by the module's writers."""
        fmt = "pdf" if path.suffix.lower() == ".pdf" else "svg"
        if path.suffix.lower() not in (".svg", ".pdf"):
            path = path.with_suffix(".svg")
        body = self._body(for_drawing=True)  # what is on screen, saved or not
        call, typed = self.session.call, self.session.typed

        def write() -> Path:
            out = call(preview, body=typed(QrCreate, body), query=PreviewQuery(format=fmt, size=1024))()
            path.write_bytes(out.content)
            return path

        self.session.ops.run(
            write,
            on_success=lambda p: self.say(self.tr("✓ Saved {name}").format(name=p.name), "ok"),
            on_failure=self._failed(self.tr("Not saved")),
        )

    # --- scans ---------------------------------------------------------------------------------------

    def load_scans(self) -> None:
        code = self.code
        if code is None:
            return
        end = self.session.runtime.clock.now().date()
        start = end - timedelta(days=CHART_DAYS - 1)

        def got(out: AnalyticsOut) -> None:
            if self.code is None or self.code.id != code.id:
                return
            per = {d.day: d for d in out.by_day}
            days = [start + timedelta(days=i) for i in range(CHART_DAYS)]
            self.chart.set_days([(d, per[d].scans if d in per else 0, per[d].bots if d in per else 0) for d in days])
            totals = self.tr("{scans} scans · {unique} unique · {bots} bots (not counted)")
            self.totals.setText(totals.format(scans=out.scans, unique=out.unique, bots=out.bots))

        query = AnalyticsQuery.model_validate({"from": start, "to": end})
        self.session.ops.run(
            self.session.call(code_analytics, id=code.id, query=query),
            on_success=got,
            on_failure=self._failed(self.tr("Scans")),
        )


WORKSPACE = QrDesignWorkspace
