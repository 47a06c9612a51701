"""Trade-in inspection: an inspector at a bench grades the devices customers sent in.

Scan a kit barcode (F2 puts the cursor in the big input): the submission opens
with the customer's photos and declared condition. Work through the checklist
(Alt+letter on each item); the suggested grade and the value update as you go,
side by side with what the customer declared; override the grade if you must.
Ctrl+Enter completes: the credit is issued, or a revised offer goes to the
customer with the reasons and photos. The queue on the left lists trade-ins to
review (send an offer, Ctrl+O), to receive (Ctrl+R), to inspect and waiting for
the customer. Every call runs through the op runner on the station's database.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QIcon, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.pagination import Page
from services.sign.schemas import DocumentOut, TradeInAgreement
from services.sign.tradein import trade_in_agreement
from services.upgrade import grading
from services.upgrade.inspections import inspect
from services.upgrade.offers import create_offer, respond_offer
from services.upgrade.photos import thumbnails
from services.upgrade.schemas import (
    ActionResult,
    InspectRequest,
    OfferCreate,
    OfferRespond,
    OfferResult,
    ReceiveRequest,
    RejectRequest,
    SubmissionDetail,
    SubmissionOut,
    SubmissionQuery,
    ThumbnailQuery,
    ThumbnailsOut,
)
from services.upgrade.submissions import get_submission, list_submissions, receive, reject, scan
from views.base import StationSession, Workspace
from views.i18n import QT_TRANSLATE_NOOP, fmt_money, fmt_number
from views.inspection.parts import (
    ACCEPT_TEXT,
    BODY,
    CONFIRM_MS,
    ITEM_WORDS,
    SCREEN,
    STYLE,
    TONES,
    Answer,
    PhotoViewer,
    _money,
    item_word,
    state_text,
    tone,
    word,
)
from views.inspection.photos import PhotoActions
from views.ops import Newest, error_message
from views.records.words import value_word

# Labels marked for lupdate here, translated where shown (import time is before the translator).
QUEUES: list[tuple[str, str]] = [
    (QT_TRANSLATE_NOOP("InspectionWorkspace", "To review"), "submitted"),
    (QT_TRANSLATE_NOOP("InspectionWorkspace", "To receive"), "shipped"),
    (QT_TRANSLATE_NOOP("InspectionWorkspace", "To inspect"), "received"),
    (QT_TRANSLATE_NOOP("InspectionWorkspace", "Waiting for customer"), "offered,inspected"),
]


class InspectionWorkspace(PhotoActions, Workspace):
    name = "inspection"
    title = QT_TRANSLATE_NOOP("Workspaces", "Trade-in inspection")
    modules = frozenset({"upgrade"})
    shows = frozenset({"upgrade.*", "sign.document"})
    position = 20
    landing = {"operator": 1}
    keys = (
        ("F2", QT_TRANSLATE_NOOP("Keys", "scan a kit")),
        ("Ctrl+Return", QT_TRANSLATE_NOOP("Keys", "complete")),
        ("Ctrl+R", QT_TRANSLATE_NOOP("Keys", "receive")),
        ("Ctrl+O", QT_TRANSLATE_NOOP("Keys", "send offer")),
        ("Ctrl+P", QT_TRANSLATE_NOOP("Keys", "attach photos")),
        ("F5", QT_TRANSLATE_NOOP("Keys", "refresh the queue")),
        ("Esc", QT_TRANSLATE_NOOP("Keys", "close")),
    )

    # Made by views.inspection.layout.build.
    scan_input: QLineEdit
    banner: QLabel
    queue_kind: QComboBox
    queue: QListWidget
    title_label: QLabel
    subtitle: QLabel
    photos: QListWidget
    attach_btn: QPushButton
    camera_btn: QPushButton
    has_camera: bool
    declared: QLabel
    graded: QLabel
    checklist_box: QGroupBox
    power_on: Answer
    functions: Answer
    account_lock: Answer
    data_wiped: Answer
    accessories: Answer
    screen_combo: QComboBox
    body_combo: QComboBox
    battery: QSpinBox
    override: QComboBox
    notes: QLineEdit
    reasons: QLabel
    preview: QLabel
    offer_box: QGroupBox
    offer_amount: QDoubleSpinBox
    offer_days: QSpinBox
    offer_btn: QPushButton
    receive_btn: QPushButton
    complete_btn: QPushButton
    accept_btn: QPushButton
    decline_btn: QPushButton
    reject_reason: QLineEdit
    reject_btn: QPushButton
    agreement_btn: QPushButton
    detail_scroll: QScrollArea

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setStyleSheet(STYLE)
        self.sub: SubmissionDetail | None = None  # the open submission
        self.openings = Newest()  # the submission scanned or chosen last wins over a late answer
        self.new_photos: list[str] = []  # inspection photos attached at this bench
        self.thumbs: dict[str, QPixmap] = {}
        self.viewer: PhotoViewer | None = None
        self._accept_timer = QTimer(self)
        self._accept_timer.setSingleShot(True)
        self._accept_timer.timeout.connect(self._reset_accept)
        self._build()
        self._shortcuts()
        self.say(self.tr("Scan a kit barcode to open a trade-in"), "info")
        self.show_submission(None)
        self.refresh_queue()

    # --- layout -----------------------------------------------------------------------

    def _build(self) -> None:
        from views.inspection.layout import build

        build(self)

    def _follow_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        inner = self.detail_scroll.widget()
        if new is not None and inner is not None and inner.isAncestorOf(new):
            self.detail_scroll.ensureWidgetVisible(new, 0, 24)

    def _shortcuts(self) -> None:
        for seq, fn in (
            ("F2", self.focus_primary),
            ("Ctrl+Return", self.complete),
            ("Ctrl+Enter", self.complete),
            ("Ctrl+R", self.receive),
            ("Ctrl+O", self.send_offer),
            ("Ctrl+P", self.attach_photos),
            ("F5", self.refresh_queue),
            ("Escape", lambda: self.show_submission(None)),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(fn)

    def focus_primary(self) -> None:
        self.scan_input.setFocus()
        self.scan_input.selectAll()

    def say(self, text: str, tone: str = "info") -> None:
        bg, fg = TONES[tone]
        self.banner.setText(text)
        self.banner.setProperty("tone", tone)
        self.banner.setStyleSheet(f"background: {bg}; color: {fg};")

    def show_error(self, message: str, _widget: QWidget | None = None) -> None:
        self.say(message, "error")
        self.session.notify(False, message)

    # --- queue --------------------------------------------------------------------------

    def refresh_queue(self) -> None:
        statuses = QUEUES[max(self.queue_kind.currentIndex(), 0)][1]
        self.session.ops.run(
            self.session.call(
                list_submissions, query=SubmissionQuery(status=statuses, limit=100, sort="updated_at", order="asc")
            ),
            on_success=self._fill_queue,
            parent=self.queue,
        )

    def _fill_queue(self, page: Page[SubmissionOut]) -> None:
        self.queue.clear()
        for s in page.items:
            value = _money(s.declared_value, s.currency)
            item = QListWidgetItem(
                # The state and the declared grade in words (State, grading); the values stay the data.
                self.tr("{value}  ·  {s.serial_number}\n{status} · declared {condition} · {value2}").format(
                    value=s.product_name or s.product_id,
                    s=s,
                    value2=value,
                    status=value_word(s.status),
                    condition=QCoreApplication.translate("grading", s.condition or ""),
                )
            )
            item.setData(Qt.ItemDataRole.UserRole, s.id)
            self.queue.addItem(item)

    def _open_item(self, item: QListWidgetItem) -> None:
        self.open(str(item.data(Qt.ItemDataRole.UserRole)))

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh_queue()

    # --- opening a submission -------------------------------------------------------------

    def _scan(self) -> None:
        code = self.scan_input.text().strip()
        self.scan_input.clear()
        if not code:
            return
        self.session.ops.run(
            self.session.call(scan, code=code),
            on_success=self.openings.ask().only(self._opened),
            on_failure=self._failed,
            parent=self.scan_input,
        )

    def open(self, submission_id: str, message: tuple[str, str] | None = None) -> None:
        """Load a submission; ``message`` (text, tone) replaces the "opened" banner (after an action)."""
        self.session.ops.run(
            self.session.call(get_submission, id=submission_id),
            on_success=self.openings.ask().only(lambda sub: self._opened(sub, message)),
            on_failure=self._failed,
            parent=self.queue,
        )

    def _opened(self, sub: SubmissionDetail, message: tuple[str, str] | None = None) -> None:
        self.new_photos = []
        self.show_submission(sub)
        if message is not None:
            self.say(*message)
            return
        self.say(
            self.tr("Opened {value} · {sub.serial_number} ({status})").format(
                value=sub.product_name or sub.product_id, sub=sub, status=value_word(sub.status)
            ),
            "info",
        )
        self.session.notify(True, self.tr("trade-in opened"))

    def _failed(self, error: BaseException) -> None:
        self.show_error(error_message(error))

    def show_submission(self, sub: SubmissionDetail | None) -> None:
        self.sub = sub
        self.thumbs = {}
        self.photos.clear()
        has = sub is not None
        for w in (self.checklist_box, self.offer_box, self.attach_btn):
            w.setEnabled(has)
        for part in (self.photos, self.declared, self.graded, self.preview):
            part.setVisible(has)
        if sub is None:
            self.title_label.setText(self.tr("No trade-in open"))
            self.subtitle.setText(self.tr("Scan a kit barcode or pick one from the queue."))
            self.declared.setText("")
            self.graded.setText("")
            self.preview.setText("")
            self.reasons.setText("")
            self._actions(set())
            return
        who = f" · {sub.customer.name} <{sub.customer.email}>" if sub.customer else ""
        self.title_label.setText(
            self.tr("{value} · SN {sub.serial_number}").format(value=sub.product_name or sub.product_id, sub=sub)
        )
        kit = self.tr(" · kit {code}").format(code=sub.kit_barcode) if sub.kit_barcode else ""
        self.subtitle.setText(
            self.tr("Status: {status}{kit}{who}\n{sub.description}").format(
                sub=sub, status=value_word(sub.status), kit=kit, who=who
            )
        )
        self._load_checklist(sub)
        # The amount in the record's currency, its symbol where the locale writes it ("$" / "€").
        self.offer_amount.setPrefix("")
        self.offer_amount.setSuffix("")
        if sub.currency:
            sample = fmt_money(0, sub.currency)
            symbol = sample.replace(fmt_number(0.0, 2), "").strip()
            if sample.startswith(symbol):
                self.offer_amount.setPrefix(symbol)
            else:
                self.offer_amount.setSuffix("\u00a0" + symbol)
        if sub.current_offer is None and sub.declared_value is not None:
            self.offer_amount.setValue(float(sub.declared_value))
        elif sub.current_offer is not None:
            self.offer_amount.setValue(float(sub.current_offer.amount))
        self._actions(set(sub.allowed_actions))
        self.update_grade()
        ids = list(sub.photos) + (list(sub.inspection.photos) if sub.inspection else [])
        if ids:
            self.session.ops.run(
                self.session.call(thumbnails, query=ThumbnailQuery(ids=",".join(ids))),
                on_success=self._show_thumbs,
                on_failure=lambda _e: None,
            )

    def _load_checklist(self, sub: SubmissionDetail) -> None:
        done = sub.inspection.checklist if sub.inspection and sub.inspection.checklist else {}
        widgets = (
            self.power_on,
            self.functions,
            self.account_lock,
            self.data_wiped,
            self.accessories,
            self.screen_combo,
            self.body_combo,
            self.battery,
            self.override,
        )
        for w in widgets:
            w.blockSignals(True)
        # What was recorded, else unanswered: nothing is assumed to pass.
        self.power_on.set_answer(done.get("power_on"))
        self.functions.set_answer(done.get("functions"))
        self.account_lock.set_answer(done.get("account_lock_removed"))
        self.data_wiped.set_answer(done.get("data_wiped"))
        self.accessories.set_answer(done.get("accessories"))
        screen, body = done.get("screen"), done.get("body")
        self.screen_combo.setCurrentIndex(SCREEN.index(screen) + 1 if screen in SCREEN else 0)
        self.body_combo.setCurrentIndex(BODY.index(body) + 1 if body in BODY else 0)
        battery = done.get("battery_health")
        self.battery.setValue(int(battery) if battery is not None else -1)
        self.override.setCurrentIndex(0)
        self.notes.clear()
        for w in widgets:
            w.blockSignals(False)

    def _show_thumbs(self, out: ThumbnailsOut) -> None:
        if self.sub is None:
            return
        for pid, b64 in out.items.items():
            pm = QPixmap()
            pm.loadFromData(base64.b64decode(b64))
            self.thumbs[pid] = pm
        self.photos.clear()
        ids = (
            list(self.sub.photos) + (list(self.sub.inspection.photos) if self.sub.inspection else []) + self.new_photos
        )
        for pid in dict.fromkeys(ids):
            label = self.tr("customer") if pid in self.sub.photos else self.tr("inspection")
            item = QListWidgetItem(QIcon(self.thumbs[pid]) if pid in self.thumbs else QIcon(), label)
            item.setData(Qt.ItemDataRole.UserRole, pid)
            self.photos.addItem(item)

    def _actions(self, allowed: set[str]) -> None:
        pending = self.sub is not None and self.sub.current_offer is not None
        self.offer_box.setVisible("offer" in allowed)
        self.receive_btn.setVisible("receive" in allowed)
        self.complete_btn.setVisible("inspect" in allowed)
        self.checklist_box.setVisible(
            "inspect" in allowed or (self.sub is not None and self.sub.inspection is not None)
        )
        self.checklist_box.setEnabled("inspect" in allowed)
        self.attach_btn.setVisible("inspect" in allowed)
        self.camera_btn.setVisible("inspect" in allowed and self.has_camera)
        self._reset_accept()
        self.accept_btn.setVisible(pending and "accept" in allowed)
        self.decline_btn.setVisible(pending and "decline" in allowed)
        self.reject_btn.setVisible("reject" in allowed)
        self.reject_reason.setVisible("reject" in allowed)
        self.agreement_btn.setVisible(self.sub is not None and self.session.may_use("sign"))

    # --- live grading -----------------------------------------------------------------------

    def checklist(self) -> dict[str, object]:
        """The answers as they stand; None where the inspector has not checked yet."""
        screen, body, battery = self.screen_combo.currentIndex(), self.body_combo.currentIndex(), self.battery.value()
        return {
            "power_on": self.power_on.answer(),
            "screen": SCREEN[screen - 1] if screen > 0 else None,
            "body": BODY[body - 1] if body > 0 else None,
            "functions": self.functions.answer(),
            "battery_health": battery if battery >= 0 else None,
            "account_lock_removed": self.account_lock.answer(),
            "data_wiped": self.data_wiped.answer(),
            "accessories": self.accessories.answer(),
        }

    def unanswered(self) -> list[str]:
        return [item_word(k) for k, v in self.checklist().items() if v is None]

    def grade(self) -> tuple[str, str, list[str]]:
        """(suggested, graded, reasons) of the checklist as it stands."""
        suggested, reasons = grading.assess(self.checklist())
        chosen = self.override.currentIndex()
        return suggested, (grading.CONDITIONS[chosen - 1] if chosen else suggested), reasons

    def update_grade(self) -> None:
        sub = self.sub
        if sub is None:
            return
        cur = sub.currency
        self.declared.setText(
            self.tr("Declared: {condition}\n{value}").format(
                condition=word(sub.condition), value=_money(sub.declared_value, cur)
            )
        )
        if sub.base_value is None:
            self.graded.setText(self.tr("No valuation for this product"))
            self.preview.setText(self.tr("Ask an admin to add a valuation for this product."))
            return
        if "inspect" not in sub.allowed_actions:
            # Not at the bench: what was recorded, never a grade of an empty checklist.
            insp = sub.inspection
            if insp is not None and insp.graded_condition and insp.graded_value is not None:
                self.graded.setText(
                    self.tr("Graded: {condition}\n{value}").format(
                        condition=word(insp.graded_condition), value=_money(insp.graded_value, cur)
                    )
                )
                self.reasons.setText(
                    self.tr("Why: {reasons}").format(reasons="; ".join(insp.reasons))
                    if insp.reasons
                    else self.tr("No defects found.")
                )
            else:
                self.graded.setText(self.tr("Not graded yet\n{value}").format(value=value_word(sub.status)))
                self.reasons.setText("")
            self.preview.setText(state_text(sub))
            tone(self.preview, "info")
            return
        missing = self.unanswered()
        if missing:
            self.graded.setText(
                self.tr("Graded: not yet\n{count} of {count2} items to check").format(
                    count=len(missing), count2=len(ITEM_WORDS)
                )
            )
            self.reasons.setText("")
            self.preview.setText(self.tr("To check: {items}").format(items=", ".join(missing)))
            tone(self.preview, "warn")
            return
        suggested, graded, reasons = self.grade()
        base = grading.to_cents(Decimal(str(sub.base_value)))
        value = grading.value_cents(base, graded)
        self.graded_value = value
        self.graded.setText(
            self.tr("Graded: {graded} (suggested {suggested})\n{value}").format(
                graded=word(graded), suggested=word(suggested), value=_money(grading.from_cents(value), cur)
            )
        )
        blocked = grading.blockers(self.checklist())
        self.reasons.setText(
            self.tr("Why: {reasons}").format(reasons="; ".join(reasons)) if reasons else self.tr("No defects found.")
        )
        agreed = sub.accepted_offer.amount if sub.accepted_offer else None
        if blocked:
            self.preview.setText(self.tr("Cannot complete: {why}").format(why="; ".join(blocked)))
            tone(self.preview, "error")
        elif agreed is not None and value < grading.to_cents(Decimal(str(agreed))):
            self.preview.setText(
                self.tr("Revised offer of {value} (below the accepted {value2})").format(
                    value=_money(grading.from_cents(value), cur), value2=_money(agreed, cur)
                )
            )
            tone(self.preview, "warn")
        else:
            self.preview.setText(
                self.tr("Completes: credit {value}").format(
                    value=_money(agreed if agreed is not None else grading.from_cents(value), cur)
                )
            )
            tone(self.preview, "ok")

    # --- actions --------------------------------------------------------------------------------

    def _run(self, call: Callable[[], ActionResult | OfferResult], done: str) -> None:
        def ok(result: ActionResult | OfferResult) -> None:
            text = done.format(r=result)
            if isinstance(result, OfferResult):
                # An offer's answer carries the submission's summary only: reload the details.
                self.open(result.submission.id, (text, "ok"))
            else:
                self.show_submission(result)
            self.say(text, "ok")
            self.session.notify(True, text)

        self.session.ops.run(call, on_success=ok, on_failure=self._failed, parent=self)

    def send_offer(self) -> None:
        if self.sub is None or not self.offer_box.isVisible():
            return
        expires = datetime.now(UTC) + timedelta(days=self.offer_days.value())
        body = {
            "submission_id": self.sub.id,
            "amount": round(self.offer_amount.value(), 2),
            "expires_at": expires.isoformat(),
        }
        offer = self.session.request(OfferCreate, body, self._failed)
        if offer is not None:
            self._run(
                self.session.call(create_offer, body=offer),
                self.tr("Offer of {value} sent").format(value=_money(offer.amount, self.sub.currency)),
            )

    def receive(self) -> None:
        if self.sub is not None and self.receive_btn.isVisible():
            received = self.session.call(receive, id=self.sub.id, body=ReceiveRequest())
            self._run(received, self.tr("Parcel received: ready to inspect"))

    def complete(self) -> None:
        if self.sub is None or not self.complete_btn.isVisible():
            return
        missing = self.unanswered()
        if missing:
            self.show_error(self.tr("Check every item first: {items}").format(items=", ".join(missing)))
            return
        suggested, graded, _ = self.grade()
        body: dict[str, object] = {
            "action": "complete",
            "checklist": self.checklist(),
            "notes": self.notes.text(),
            "photos": self.new_photos,
        }
        if graded != suggested:
            body["condition"] = graded
        request = self.session.request(InspectRequest, body, self._failed)
        if request is None:
            return
        self.session.ops.run(
            self.session.call(inspect, id=self.sub.id, body=request),
            on_success=self._completed,
            on_failure=self._failed,
            parent=self.complete_btn,
        )

    def _completed(self, result: ActionResult) -> None:
        self.new_photos = []
        self.show_submission(result)
        cur = result.currency
        if result.outcome == "revised_offer" and result.revised_offer is not None:
            text = self.tr("Revised offer of {value} sent to the customer").format(
                value=_money(result.revised_offer.amount, cur)
            )
            self.say(text, "warn")
        else:
            text = self.tr("Completed: credit {value} issued").format(value=_money(result.credit, cur))
            self.say(text, "ok")
        # The status line repeats the banner's words, never the service's outcome code.
        self.session.notify(True, text)

    def record_answer(self, action: str) -> None:
        if self.sub is None or self.sub.current_offer is None:
            return
        offer = self.sub.current_offer
        if action == "accept" and self.accept_btn.property("confirm") != offer.id:
            # Accepting issues the credit: a second press confirms it (a slip does not pay out).
            cur = self.sub.currency
            self.accept_btn.setProperty("confirm", offer.id)
            self.accept_btn.setText(
                self.tr("Press &again: credit {value}").format(value=_money(offer.amount, cur))
            )  # Alt+A again confirms
            self.say(
                self.tr("The customer accepted {value}? Press again to issue the credit.").format(
                    value=_money(offer.amount, cur)
                ),
                "warn",
            )
            self._accept_timer.start(CONFIRM_MS)
            return
        self._reset_accept()
        answer = OfferRespond.model_validate({"action": action})
        self._run(
            self.session.call(respond_offer, id=offer.id, body=answer),
            self.tr("Recorded: the customer accepted")
            if action == "accept"
            else self.tr("Recorded: the customer declined"),
        )

    def _reset_accept(self) -> None:
        self._accept_timer.stop()
        self.accept_btn.setProperty("confirm", None)
        self.accept_btn.setText(ACCEPT_TEXT)

    def sign_agreement(self, *, full_screen: bool = True) -> None:
        """Make the trade-in agreement of the open submission and hand the screen to the customer."""
        if self.sub is None:
            return
        from views.sign.pad import sign_at_station

        def made(doc: DocumentOut) -> None:
            self.say(self.tr("Hand the screen to the customer to sign the agreement"), "info")
            sign_at_station(self, self.session, doc.id, full_screen=full_screen)

        self.session.ops.run(
            self.session.call(trade_in_agreement, body=TradeInAgreement(submission_id=self.sub.id)),
            on_success=made,
            on_failure=self._failed,
            parent=self,
        )

    def reject(self) -> None:
        if self.sub is None or not self.reject_btn.isVisible():
            return
        reason = self.reject_reason.text().strip()
        if not reason:
            self.show_error(self.tr("Say why the trade-in is rejected"))
            self.reject_reason.setFocus()
            return
        refusal = self.session.request(RejectRequest, {"reason": reason}, self._failed)
        if refusal is not None:
            self._run(self.session.call(reject, id=self.sub.id, body=refusal), self.tr("Trade-in rejected"))


WORKSPACE = InspectionWorkspace
