"""Review queue: staff work through what waits for a person, keyboard first.

Three queues: dealers' receipts (the image beside the numbers), dealers' registration
requests and warranty claims. Up/Down move in a queue, 1/2/3 switch queues, A approves (a
receipt with the points in the box; a claim moves on: start, then close), D declines with a
reason (a receipt or request) or cancels a claim, +/- zoom the receipt image and 0 fits it.
Every call runs through the op runner; a change anywhere refreshes the queue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TypeVar

from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication, QDate, QLocale, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from services.aftersale.claims import act_on_claim, list_claims
from services.aftersale.schemas import ClaimAction, ClaimOut, ClaimQuery
from services.core.context import CommitInfo
from services.core.files import FileResult
from services.core.roles import STAFF
from services.rewards.accounts import decide_register_request, list_register_requests
from services.rewards.files import get_file
from services.rewards.receipts import list_receipts, review_receipt
from services.rewards.schemas import AdminDealerOut, DealerQuery, DecideRequest, ReceiptOut, ReceiptQuery, ReviewIn
from views.base import StationSession, Workspace
from views.i18n import QT_TRANSLATE_NOOP, fmt_money, fmt_number
from views.ops import error_message
from views.records.words import value_word

STYLE = """
#workspace-review { font-size: 15pt; }
#banner { font-size: 18pt; font-weight: bold; padding: 10px; border-radius: 8px; }
#numbers { font-size: 17pt; }
#hint { color: #455a64; font-size: 13pt; }
QListWidget { font-size: 15pt; }
QListWidget::item { padding: 6px; }
QListWidget::item:selected { background: #1565c0; color: white; }
"""
TONES = {"info": ("#e3f2fd", "#0d47a1"), "ok": ("#2e7d32", "#ffffff"), "error": ("#c62828", "#ffffff")}
ZOOM_STEP = 1.25
# Receipts carry no currency of their own: the rewards programme counts points per dollar
# (docs/rewards.md, "points_per_dollar"), so a receipt's total is in US dollars.
RECEIPT_CURRENCY = "USD"

# A row of one of the three queues: a receipt, a dealer's request, a warranty claim.
Row = ReceiptOut | AdminDealerOut | ClaimOut
M = TypeVar("M", bound=BaseModel)


class QueueList(QListWidget):
    """A queue: arrows move; the workspace's keys act instead of the list's type-ahead search (where the
    shortcut does not fire first, e.g. a window not yet active)."""

    def __init__(self, on_key: Callable[[int, str], bool], name: str) -> None:
        super().__init__()
        self.on_key = on_key
        self.setAccessibleName(name)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if not self.on_key(e.key(), e.text()):
            super().keyPressEvent(e)


class ReasonDialog(QDialog):
    """Asks why (a decline or a cancel); Enter confirms, Escape goes back."""

    def __init__(self, parent: QWidget, title: str, label: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(label))
        self.reason = QLineEdit()
        self.reason.setAccessibleName(label)
        self.reason.setMinimumWidth(420)
        lay.addWidget(self.reason)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._ok)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _ok(self) -> None:
        if self.reason.text().strip():
            self.accept()
        else:
            self.reason.setPlaceholderText(self.tr("a reason is needed"))


class ReviewWorkspace(Workspace):
    name = "review"
    title = "Review queue"
    modules = frozenset({"rewards", "aftersale"})
    shows = frozenset({"rewards.*", "aftersale.*"})
    roles = STAFF
    position = 40
    # Up/Down move in a queue (the list's own keys).
    keys = (
        ("A", QT_TRANSLATE_NOOP("Keys", "approve")),
        ("D", QT_TRANSLATE_NOOP("Keys", "decline")),
        # "1 receipts · 3 claims" read as counts beside the tabs' "(2)": the queue keys say "go to".
        ("1", QT_TRANSLATE_NOOP("Keys", "go to receipts")),
        ("2", QT_TRANSLATE_NOOP("Keys", "go to dealer requests")),
        ("3", QT_TRANSLATE_NOOP("Keys", "go to claims")),
        ("+", QT_TRANSLATE_NOOP("Keys", "zoom in")),
        ("-", QT_TRANSLATE_NOOP("Keys", "zoom out")),
        ("0", QT_TRANSLATE_NOOP("Keys", "fit")),
    )

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setStyleSheet(STYLE)
        self.zoom = 1.0
        self.pixmap: QPixmap | None = None
        self.dialog: ReasonDialog | None = None
        self.rows: dict[str, Sequence[Row]] = {"receipts": [], "dealers": [], "claims": []}
        lay = QVBoxLayout(self)
        self.banner = QLabel("")
        self.banner.setObjectName("banner")
        self.banner.setAccessibleName(self.tr("Result"))
        self._say("info", self.tr("Pick an item; A approves, D declines"))
        lay.addWidget(self.banner)
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs, 1)
        hint = QLabel(self.key_hints())
        hint.setObjectName("hint")
        lay.addWidget(hint)

        # Receipts: the queue, the image (zoomable), the numbers and the points to award.
        self.receipts = QueueList(self._key, self.tr("Receipts to review"))
        self.receipts.currentRowChanged.connect(self._show_receipt)
        self.image = QLabel(self.tr("No image"))
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.image.setAccessibleName(self.tr("Receipt image"))
        self.viewer = QScrollArea()
        self.viewer.setWidget(self.image)
        self.viewer.setWidgetResizable(False)
        self.viewer.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.numbers = QLabel("")
        self.numbers.setObjectName("numbers")
        self.numbers.setWordWrap(True)
        self.points = QSpinBox()
        self.points.setRange(0, 10_000_000)
        self.points.setSingleStep(10)
        self.points.setAccessibleName(self.tr("Points to award"))
        side = QWidget()
        form = QFormLayout(side)
        form.addRow(self.numbers)
        form.addRow(self.tr("Points"), self.points)
        rec = QWidget()
        row = QHBoxLayout(rec)
        row.addWidget(self.receipts, 3)
        row.addWidget(self.viewer, 5)
        row.addWidget(side, 3)
        self.tabs.addTab(rec, self.tr("1 Receipts"))

        self.dealers = QueueList(self._key, self.tr("Dealer requests"))
        self.tabs.addTab(self.dealers, self.tr("2 Dealer requests"))
        self.claims = QueueList(self._key, self.tr("Warranty claims"))
        self.tabs.addTab(self.claims, self.tr("3 Warranty claims"))
        self.tabs.currentChanged.connect(lambda _i: self.current_list().setFocus())
        # The documented keys as shortcuts of the workspace; typing in the points box still types.
        actions = {
            "A": self.approve,
            "D": self.decline,
            "1": lambda: self.tabs.setCurrentIndex(0),
            "2": lambda: self.tabs.setCurrentIndex(1),
            "3": lambda: self.tabs.setCurrentIndex(2),
            "+": lambda: self.zoom_by(ZOOM_STEP),
            "-": lambda: self.zoom_by(1 / ZOOM_STEP),
            "0": self.fit,
        }
        for seq, _what in self.keys:
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(actions[seq])
        self.refresh()

    # --- queues ------------------------------------------------------------------------------

    def current_list(self) -> QueueList:
        return [self.receipts, self.dealers, self.claims][self.tabs.currentIndex()]

    def focus_primary(self) -> None:
        self.current_list().setFocus()

    def refresh(self) -> None:
        run, call = self.session.ops.run, self.session.call
        if self.session.may_use("rewards"):
            run(
                call(list_receipts, query=ReceiptQuery(status="pending", sort="created_at", order="asc", limit=100)),
                on_success=lambda p: self._fill("receipts", p.items),
                parent=self,
            )
            run(
                call(list_register_requests, query=DealerQuery(status="pending", limit=100)),
                on_success=lambda p: self._fill("dealers", p.items),
                parent=self,
            )
        if self.session.may_use("aftersale"):
            run(
                call(list_claims, query=ClaimQuery(sort="created_at", order="asc", limit=100)),
                on_success=lambda p: self._fill("claims", [c for c in p.items if c.status in ("open", "in_progress")]),
                parent=self,
            )

    def _fill(self, queue: str, items: Sequence[Row]) -> None:
        lst = {"receipts": self.receipts, "dealers": self.dealers, "claims": self.claims}[queue]
        keep = lst.currentRow()
        self.rows[queue] = list(items)
        lst.blockSignals(True)
        lst.clear()
        for it in items:
            QListWidgetItem(self._line(queue, it), lst)
        lst.blockSignals(False)
        if items:
            lst.setCurrentRow(min(max(keep, 0), len(items) - 1))
        if queue == "receipts":
            self._show_receipt(lst.currentRow())
        titles = {
            "receipts": self.tr("1 Receipts"),
            "dealers": self.tr("2 Dealer requests"),
            "claims": self.tr("3 Warranty claims"),
        }
        idx = ["receipts", "dealers", "claims"].index(queue)
        self.tabs.setTabText(idx, f"{titles[queue]} ({len(items)})")

    @staticmethod
    def _line(queue: str, it: Row) -> str:
        if isinstance(it, ReceiptOut):
            flag = "  ⚠ " + QCoreApplication.translate("ReviewWorkspace", "duplicate?") if it.duplicate_of else ""
            dealer = it.dealer_name or QCoreApplication.translate("ReviewWorkspace", "dealer")
            return f"{dealer}\n{it.retailer} · {fmt_money(Decimal(it.total), RECEIPT_CURRENCY)}{flag}"
        if isinstance(it, AdminDealerOut):
            return f"{it.company}\n{it.name} <{it.email}>"
        return f"{it.serial_number} · {value_word(it.status)}\n{it.description[:60]}"

    def current(self, queue: str) -> Row | None:
        lst = {"receipts": self.receipts, "dealers": self.dealers, "claims": self.claims}[queue]
        row = lst.currentRow()
        items = self.rows[queue]
        return items[row] if 0 <= row < len(items) else None

    # --- the receipt shown ---------------------------------------------------------------------

    def _show_receipt(self, row: int) -> None:
        r = self.rows["receipts"][row] if 0 <= row < len(self.rows["receipts"]) else None
        if not isinstance(r, ReceiptOut):
            self.numbers.setText(self.tr("Nothing to review"))
            self.points.setValue(0)  # the last receipt's points stayed beside "Nothing to review"
            self.pixmap = None
            self.image.setText(self.tr("No image"))
            self.image.adjustSize()
            return
        dup = "\n" + self.tr("⚠ Same image or same numbers as another receipt") if r.duplicate_of else ""
        day = QLocale().toString(QDate(r.purchase_date.year, r.purchase_date.month, r.purchase_date.day), "dd MMM yyyy")
        facts = self.tr("Total {total}\nSuggested {points} points").format(
            total=fmt_money(Decimal(r.total), RECEIPT_CURRENCY), points=fmt_number(r.suggested_points)
        )
        self.numbers.setText(f"{r.dealer_name or ''}\n{r.retailer}\n{day}\n{facts}{dup}")
        self.points.setValue(r.suggested_points)
        rid = r.id

        def shown(f: FileResult) -> None:
            self._image(rid, f.content)

        def missing(_e: BaseException) -> None:
            self._image(rid, b"")

        self.session.ops.run(
            self.session.call(get_file, id=r.file_id), on_success=shown, on_failure=missing, parent=self
        )

    def _image(self, receipt_id: str, content: bytes) -> None:
        cur = self.current("receipts")
        if cur is None or cur.id != receipt_id:
            return  # the person moved on while the image loaded
        pm = QPixmap()
        if content and pm.loadFromData(content):
            self.pixmap = pm
            self.fit()
        else:
            self.pixmap = None
            self.image.setPixmap(QPixmap())
            self.image.setText(self.tr("Image not available (PDF or missing)"))
            self.image.adjustSize()

    def fit(self) -> None:
        if self.pixmap is None:
            return
        area = self.viewer.viewport().size()
        w, h = max(self.pixmap.width(), 1), max(self.pixmap.height(), 1)
        self.zoom = max(min(area.width() / w, area.height() / h), 0.05)
        self._scale()

    def zoom_by(self, factor: float) -> None:
        self.zoom = min(max(self.zoom * factor, 0.05), 8.0)
        self._scale()

    def _scale(self) -> None:
        if self.pixmap is None:
            return
        size = self.pixmap.size() * self.zoom
        self.image.setPixmap(
            self.pixmap.scaled(size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        )
        self.image.resize(self.image.pixmap().size())

    # --- keys and actions ----------------------------------------------------------------------

    def _key(self, key: int, text: str) -> bool:
        if text in ("1", "2", "3"):
            self.tabs.setCurrentIndex(int(text) - 1)
            return True
        if key == Qt.Key.Key_A:
            self.approve()
            return True
        if key == Qt.Key.Key_D:
            self.decline()
            return True
        if text in ("+", "="):
            self.zoom_by(ZOOM_STEP)
            return True
        if text == "-":
            self.zoom_by(1 / ZOOM_STEP)
            return True
        if text == "0":
            self.fit()
            return True
        return False

    def queue(self) -> str:
        return ["receipts", "dealers", "claims"][self.tabs.currentIndex()]

    def approve(self) -> None:
        it = self.current(self.queue())
        if it is None:
            return self._say("info", self.tr("Nothing selected"))
        if isinstance(it, ReceiptOut):
            pts = self.points.value()
            if pts <= 0:
                return self._say("error", self.tr("Say how many points to award"))
            review = self._request(ReviewIn, {"action": "approve", "points": pts})
            if review is not None:
                self._act(
                    self.session.call(review_receipt, id=it.id, body=review),
                    self.tr("Approved {retailer}: {points} points").format(
                        retailer=it.retailer, points=fmt_number(pts)
                    ),
                )
        elif isinstance(it, AdminDealerOut):
            decision = DecideRequest(action="approve")
            self._act(
                self.session.call(decide_register_request, id=it.id, body=decision),
                self.tr("Approved {company}").format(company=it.company),
            )
        elif it.status == "open":
            self._act(
                self.session.call(act_on_claim, id=it.id, body=ClaimAction(action="start")),
                self.tr("Started claim {serial}").format(serial=it.serial_number),
            )
        else:
            claim = it

            def close(text: str) -> None:
                action = self._request(ClaimAction, {"action": "close", "resolution": text})
                if action is not None:
                    self._act(
                        self.session.call(act_on_claim, id=claim.id, body=action),
                        self.tr("Closed claim {serial}").format(serial=claim.serial_number),
                    )

            self._ask(self.tr("Close claim"), self.tr("Resolution"), close)

    def decline(self) -> None:
        it = self.current(self.queue())
        if it is None:
            return self._say("info", self.tr("Nothing selected"))
        call = self.session.call
        if isinstance(it, ReceiptOut):
            receipt = it

            def decline_receipt(text: str) -> None:
                review = self._request(ReviewIn, {"action": "decline", "reason": text})
                if review is not None:
                    self._act(
                        call(review_receipt, id=receipt.id, body=review),
                        self.tr("Declined {retailer}").format(retailer=receipt.retailer),
                    )

            self._ask(self.tr("Decline receipt"), self.tr("Reason the dealer will read"), decline_receipt)
        elif isinstance(it, AdminDealerOut):
            dealer = it

            def decline_dealer(text: str) -> None:
                decision = self._request(DecideRequest, {"action": "decline", "reason": text})
                if decision is not None:
                    self._act(
                        call(decide_register_request, id=dealer.id, body=decision),
                        self.tr("Declined {company}").format(company=dealer.company),
                    )

            self._ask(self.tr("Decline request"), self.tr("Reason"), decline_dealer)
        else:
            claim = it

            def cancel(text: str) -> None:
                action = self._request(ClaimAction, {"action": "cancel", "resolution": text})
                if action is not None:
                    self._act(
                        call(act_on_claim, id=claim.id, body=action),
                        self.tr("Cancelled claim {serial}").format(serial=claim.serial_number),
                    )

            self._ask(self.tr("Cancel claim"), self.tr("Reason"), cancel)

    def _ask(self, title: str, label: str, then: Callable[[str], None]) -> None:
        self.dialog = ReasonDialog(self, title, label)
        self.dialog.accepted.connect(lambda d=self.dialog: then(d.reason.text().strip()))
        self.dialog.finished.connect(lambda _r: self.current_list().setFocus())
        self.dialog.open()  # window-modal, never blocks the event loop
        self.dialog.reason.setFocus()

    def _request(self, model: type[M], data: dict[str, object]) -> M | None:
        """The decision as its typed request; refused (a reason too long, none given): said in the banner."""
        return self.session.request(model, data, lambda e: self._say("error", error_message(e)))

    def _act(self, call: Callable[[], object], done: str) -> None:
        self.session.ops.run(
            call,
            on_success=lambda _r: self._say("ok", done),
            on_failure=lambda e: self._say("error", error_message(e)),
            parent=self,
        )

    def _say(self, tone: str, text: str) -> None:
        bg, fg = TONES[tone]
        self.banner.setStyleSheet(f"background: {bg}; color: {fg};")
        self.banner.setText(text)

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh()


WORKSPACE = ReviewWorkspace
