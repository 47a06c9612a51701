"""The inspection bench's pieces: its colours and words, the three-state checklist answer, the photo viewer."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from services.upgrade import grading
from services.upgrade.schemas import SubmissionDetail
from views.i18n import QT_TRANSLATE_NOOP, fmt_date, fmt_money, fmt_number
from views.records.words import value_word

QUEUES: list[tuple[str, str]] = [
    ("To review", "submitted"),
    ("To receive", "shipped"),
    ("To inspect", "received"),
    ("Waiting for customer", "offered,inspected"),
]
TONES = {
    "info": ("#e3f2fd", "#0d47a1"),
    "ok": ("#2e7d32", "#ffffff"),
    "warn": ("#ffb300", "#000000"),
    "error": ("#c62828", "#ffffff"),
}
STYLE = """
#workspace-inspection { font-size: 15pt; }
#scanInput { font-size: 28pt; padding: 10px; border: 3px solid #1565c0; border-radius: 8px; }
#banner { font-size: 20pt; font-weight: bold; padding: 12px; border-radius: 8px; }
#title { font-size: 22pt; font-weight: bold; }
#declared, #graded { font-size: 15pt; padding: 4px 8px; border: 2px solid #90a4ae; border-radius: 8px; }
#preview { font-size: 17pt; font-weight: bold; padding: 8px; border-radius: 8px; }
QPushButton { padding: 8px 14px; }
"""
SCREEN = list(grading.SCREEN_LEVELS)
BODY = list(grading.BODY_LEVELS)
# The grading words as shown (context "grading"; the values stay English in the data).
WORDS = (
    QT_TRANSLATE_NOOP("grading", "— not checked —"),
    QT_TRANSLATE_NOOP("grading", "flawless"),
    QT_TRANSLATE_NOOP("grading", "light scratches"),
    QT_TRANSLATE_NOOP("grading", "deep scratches"),
    QT_TRANSLATE_NOOP("grading", "cracked"),
    QT_TRANSLATE_NOOP("grading", "light wear"),
    QT_TRANSLATE_NOOP("grading", "dents"),
    QT_TRANSLATE_NOOP("grading", "damaged"),
    QT_TRANSLATE_NOOP("grading", "excellent"),
    QT_TRANSLATE_NOOP("grading", "good"),
    QT_TRANSLATE_NOOP("grading", "fair"),
    QT_TRANSLATE_NOOP("grading", "poor"),
)


def word(value: str) -> str:
    """A grading value (``light_scratches``) in the person's language."""
    return QCoreApplication.translate("grading", value.replace("_", " "))


NOT_CHECKED = "— not checked —"  # a combo's first entry: nothing is assumed before the inspector looks
ACCEPT_TEXT = "Customer &accepted"
CONFIRM_MS = 5000  # "Customer accepted" asks for a second press within this time
# The checklist items as a person reads them (translated where shown: ``item_word``).
ITEM_WORDS = {
    "power_on": QT_TRANSLATE_NOOP("parts", "powers on"),
    "functions": QT_TRANSLATE_NOOP("parts", "functions"),
    "account_lock_removed": QT_TRANSLATE_NOOP("parts", "lock removed"),
    "data_wiped": QT_TRANSLATE_NOOP("parts", "wiped"),
    "accessories": QT_TRANSLATE_NOOP("parts", "accessories"),
    "screen": QT_TRANSLATE_NOOP("parts", "screen"),
    "body": QT_TRANSLATE_NOOP("parts", "body"),
    "battery_health": QT_TRANSLATE_NOOP("parts", "battery"),
}


def item_word(key: str) -> str:
    """A checklist item (``data_wiped``) in the person's language ("wiped" / "gelöscht")."""
    return QCoreApplication.translate("parts", ITEM_WORDS[key])


class Answer(QCheckBox):
    """A yes/no checklist item that starts unanswered (partly checked) and never goes back to it:
    a press answers yes, the next no, then yes again."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setTristate(True)
        self.setCheckState(Qt.CheckState.PartiallyChecked)
        self.setToolTip(self.tr("Not checked yet: press to answer yes, again for no"))

    def nextCheckState(self) -> None:  # noqa: N802 - Qt API
        checked = self.checkState() == Qt.CheckState.Checked
        self.setCheckState(Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked)

    def answer(self) -> bool | None:
        state = self.checkState()
        return None if state == Qt.CheckState.PartiallyChecked else state == Qt.CheckState.Checked

    def set_answer(self, value: bool | None) -> None:
        states = {None: Qt.CheckState.PartiallyChecked, True: Qt.CheckState.Checked, False: Qt.CheckState.Unchecked}
        self.setCheckState(states[value])


def camera_available() -> bool:
    """A camera this station can take photos with (Qt Multimedia, where it is installed)."""
    try:
        from PySide6.QtMultimedia import QMediaDevices
    except ImportError:  # PySide6-Essentials has no Qt Multimedia: photos come from files
        return False
    return bool(QMediaDevices.videoInputs())


def _label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    return label


def _money(v: object, currency: str | None) -> str:
    """An amount as the locale writes money (``$300.00`` / ``300,00 $``); without a currency, the number."""
    if v is None:
        return "-"
    return fmt_money(Decimal(str(v)), currency) if currency else fmt_number(Decimal(str(v)), 2)


class PhotoViewer(QDialog):
    """One photo, large (scaled to the screen); Esc or Enter closes it."""

    def __init__(self, pixmap: QPixmap, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        lay = QVBoxLayout(self)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.image.setAccessibleName("Photo")
        screen = self.screen().availableGeometry() if self.screen() else None
        limit = QSize(int(screen.width() * 0.8), int(screen.height() * 0.8)) if screen else QSize(1200, 900)
        shown = pixmap.scaled(limit, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        if not pixmap.isNull() and pixmap.width() <= limit.width() and pixmap.height() <= limit.height():
            shown = pixmap  # small enough: its own size
        self.image.setPixmap(shown)
        if pixmap.isNull():
            self.image.setText(self.tr("This photo cannot be shown on this station."))
        lay.addWidget(self.image, 1)
        close = QPushButton(self.tr("&Close"))
        close.clicked.connect(self.accept)
        close.setDefault(True)
        lay.addWidget(close, 0, Qt.AlignmentFlag.AlignRight)


def state_text(sub: SubmissionDetail) -> str:
    """Where a trade-in stands when it cannot be graded now (completed, or an offer waits)."""
    if sub.status == "completed":
        return QCoreApplication.translate("parts", "Completed: credit {value}").format(
            value=_money(sub.credit, sub.currency)
        )
    if sub.current_offer is not None:
        o = sub.current_offer
        value, day = _money(o.amount, o.currency), fmt_date(o.expires_at)
        # Whole sentences per kind and state: the offer's values ("revised", "pending") are data.
        if o.status == "pending":
            waiting = (
                QCoreApplication.translate(
                    "parts", "Waiting for the customer: revised offer of {value}, open until {day}"
                )
                if o.kind == "revised"
                else QCoreApplication.translate("parts", "Waiting for the customer: offer of {value}, open until {day}")
            )
            return waiting.format(value=value, day=day)
        return QCoreApplication.translate("parts", "Offer of {value}: {status} ({day})").format(
            value=value, status=value_word(o.status), day=day
        )
    return QCoreApplication.translate("parts", "Status: {status}").format(status=value_word(sub.status))


def tone(label: QLabel, tone: str) -> None:
    """A verdict's colours (TONES) on a label."""
    bg, fg = TONES[tone]
    label.setProperty("tone", tone)
    label.setStyleSheet(f"background: {bg}; color: {fg};")
