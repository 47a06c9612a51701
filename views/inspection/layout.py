"""The inspection workspace's widgets (built once; the workspace keeps them as attributes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from services.upgrade import grading
from views.inspection.parts import ACCEPT_TEXT, BODY, NOT_CHECKED, SCREEN, Answer, _label, camera_available, word
from views.shell.forms import scrolling, wrapping

if TYPE_CHECKING:
    from views.inspection.workspace import InspectionWorkspace


def build(ws: InspectionWorkspace) -> None:
    from views.inspection.workspace import QUEUES

    root = QVBoxLayout(ws)
    ws.scan_input = QLineEdit()
    ws.scan_input.setObjectName("scanInput")
    ws.scan_input.setPlaceholderText(QCoreApplication.translate("InspectionWorkspace", "Scan a kit barcode (F2)"))
    ws.scan_input.setAccessibleName("Kit barcode")
    ws.scan_input.returnPressed.connect(ws._scan)
    ws.banner = _label("banner")
    root.addWidget(ws.scan_input)
    root.addWidget(ws.banner)
    split = QSplitter(Qt.Orientation.Horizontal)
    root.addWidget(split, 1)

    left = QWidget()
    lv = QVBoxLayout(left)
    ws.queue_kind = QComboBox()
    ws.queue_kind.setAccessibleName("Queue")
    for label, _ in QUEUES:
        ws.queue_kind.addItem(QCoreApplication.translate("InspectionWorkspace", label))
    ws.queue_kind.currentIndexChanged.connect(lambda _i: ws.refresh_queue())
    ws.queue = QListWidget()
    ws.queue.setAccessibleName("Trade-ins in the queue")
    # A narrow queue wraps its lines rather than hiding the value behind a scroll bar.
    wrapping(ws.queue)
    ws.queue.itemActivated.connect(ws._open_item)
    ws.queue.itemClicked.connect(ws._open_item)
    lv.addWidget(ws.queue_kind)
    lv.addWidget(ws.queue, 1)
    split.addWidget(left)

    right = QWidget()
    rv = QVBoxLayout(right)
    ws.title_label = _label("title")
    ws.subtitle = _label("")
    rv.addWidget(ws.title_label)
    rv.addWidget(ws.subtitle)
    ws.photos = QListWidget()
    ws.photos.setViewMode(QListView.ViewMode.IconMode)
    ws.photos.setIconSize(QSize(144, 96))
    ws.photos.setFixedHeight(140)
    ws.photos.setFlow(QListView.Flow.LeftToRight)
    ws.photos.setAccessibleName("Photos")
    # The photos beside what was declared and what the grading says: the checklist below stays
    # in sight on a 800-px-high window.
    photo_row = QHBoxLayout()
    photo_row.addWidget(ws.photos, 3)
    ws.attach_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Attach &photo… (Ctrl+P)"))
    ws.attach_btn.clicked.connect(ws.attach_photos)
    ws.camera_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "&Take photo"))
    ws.camera_btn.setAccessibleName("Take a photo with the station's camera")
    ws.camera_btn.clicked.connect(ws.take_photo)
    ws.has_camera = camera_available()
    # Enter or a double click on a photo opens it large.
    ws.photos.itemActivated.connect(ws.enlarge_photo)
    ws.photos.setToolTip(
        QCoreApplication.translate("InspectionWorkspace", "Enter or double-click: see the photo large")
    )

    ws.declared = _label("declared")
    ws.graded = _label("graded")
    # Word-wrapped labels ask for almost no width: once the photo buttons hide (an offer is out)
    # the photos took the row and the values wrapped a word a line.
    for side in (ws.declared, ws.graded):
        side.setMinimumWidth(260)
    sides = QVBoxLayout()
    sides.addWidget(ws.declared)
    sides.addWidget(ws.graded)
    buttons = QHBoxLayout()
    buttons.addWidget(ws.attach_btn)
    buttons.addWidget(ws.camera_btn)
    sides.addLayout(buttons)
    photo_row.addLayout(sides, 2)
    rv.addLayout(photo_row)

    ws.checklist_box = QGroupBox(QCoreApplication.translate("InspectionWorkspace", "Grading checklist"))
    grid = QGridLayout(ws.checklist_box)
    ws.power_on = Answer(QCoreApplication.translate("InspectionWorkspace", "Powers &on"))
    ws.functions = Answer(QCoreApplication.translate("InspectionWorkspace", "All &functions work"))
    ws.account_lock = Answer(QCoreApplication.translate("InspectionWorkspace", "Account &lock removed"))
    ws.data_wiped = Answer(QCoreApplication.translate("InspectionWorkspace", "Data &wiped"))
    ws.accessories = Answer(QCoreApplication.translate("InspectionWorkspace", "A&ccessories included"))
    ws.screen_combo = QComboBox()
    ws.screen_combo.addItems([word(NOT_CHECKED), *(word(s) for s in SCREEN)])
    ws.body_combo = QComboBox()
    ws.body_combo.addItems([word(NOT_CHECKED), *(word(b) for b in BODY)])
    # -1: not measured yet (shown in words); 0-100 the battery's health.
    ws.battery = QSpinBox(minimum=-1, maximum=100, suffix=" %", value=-1)
    ws.battery.setSpecialValueText(QCoreApplication.translate("InspectionWorkspace", "not measured"))
    ws.override = QComboBox()
    ws.override.addItems(
        [QCoreApplication.translate("InspectionWorkspace", "Suggested grade"), *(word(c) for c in grading.CONDITIONS)]
    )
    ws.notes = QLineEdit(placeholderText=QCoreApplication.translate("layout", "Notes for the customer"))
    form = QFormLayout()
    for text, field in (
        (QCoreApplication.translate("InspectionWorkspace", "&Screen"), ws.screen_combo),
        (QCoreApplication.translate("InspectionWorkspace", "&Body"), ws.body_combo),
        (QCoreApplication.translate("InspectionWorkspace", "Batter&y health"), ws.battery),
        (QCoreApplication.translate("InspectionWorkspace", "&Grade"), ws.override),
        (QCoreApplication.translate("InspectionWorkspace", "&Notes"), ws.notes),
    ):
        lab = QLabel(text)
        lab.setBuddy(field)
        form.addRow(lab, field)
    for i, cb in enumerate((ws.power_on, ws.functions, ws.account_lock, ws.data_wiped, ws.accessories)):
        grid.addWidget(cb, i, 0)
    grid.addLayout(form, 0, 1, 5, 1)
    for box in (ws.power_on, ws.functions, ws.account_lock, ws.data_wiped, ws.accessories):
        box.stateChanged.connect(lambda _s: ws.update_grade())
    for combo in (ws.screen_combo, ws.body_combo, ws.override):
        combo.currentIndexChanged.connect(ws.update_grade)
    ws.battery.valueChanged.connect(ws.update_grade)
    rv.addWidget(ws.checklist_box)
    ws.reasons = _label("")
    ws.preview = _label("preview")

    ws.offer_box = QGroupBox(QCoreApplication.translate("InspectionWorkspace", "Offer"))
    ob = QHBoxLayout(ws.offer_box)
    ws.offer_amount = QDoubleSpinBox(minimum=0.01, maximum=1_000_000, decimals=2)
    ws.offer_amount.setAccessibleName("Offer amount")
    ws.offer_days = QSpinBox(
        minimum=1, maximum=365, value=14, suffix=QCoreApplication.translate("InspectionWorkspace", " days")
    )
    ws.offer_days.setAccessibleName("Offer valid for")
    ws.offer_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Send offer (Ctrl+O)"))
    ws.offer_btn.clicked.connect(ws.send_offer)
    for part in (
        QLabel(QCoreApplication.translate("InspectionWorkspace", "Amount")),
        ws.offer_amount,
        QLabel(QCoreApplication.translate("InspectionWorkspace", "valid for")),
        ws.offer_days,
        ws.offer_btn,
    ):
        ob.addWidget(part)
    rv.addWidget(ws.offer_box)

    actions = QHBoxLayout()
    ws.receive_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "&Receive parcel (Ctrl+R)"))
    ws.receive_btn.clicked.connect(ws.receive)
    ws.complete_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Complete inspection (Ctrl+Enter)"))
    ws.complete_btn.clicked.connect(ws.complete)
    ws.accept_btn = QPushButton(ACCEPT_TEXT)
    ws.accept_btn.clicked.connect(lambda: ws.record_answer("accept"))
    ws.decline_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Customer &declined"))
    ws.decline_btn.clicked.connect(lambda: ws.record_answer("decline"))
    ws.reject_reason = QLineEdit(placeholderText=QCoreApplication.translate("layout", "Reason to reject"))
    ws.reject_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Re&ject"))
    ws.reject_btn.clicked.connect(ws.reject)
    # The customer signs the trade-in agreement on this screen (views/sign/pad.py): no link.
    ws.agreement_btn = QPushButton(QCoreApplication.translate("InspectionWorkspace", "Customer signs agreement…"))
    ws.agreement_btn.setObjectName("sign-agreement")
    ws.agreement_btn.clicked.connect(ws.sign_agreement)
    for button in (
        ws.receive_btn,
        ws.complete_btn,
        ws.accept_btn,
        ws.decline_btn,
        ws.reject_reason,
        ws.reject_btn,
        ws.agreement_btn,
    ):
        actions.addWidget(button)
    rv.addStretch(1)
    # A short window scrolls the trade-in rather than squeezing its checklist and the scan box;
    # the verdict and the actions stay in sight under it.
    scroll = scrolling(right)
    ws.detail_scroll = scroll
    # A mnemonic (Alt+W) or Tab that lands below the fold brings its row into sight.
    app = QApplication.instance()
    if isinstance(app, QApplication):
        app.focusChanged.connect(ws._follow_focus)
    column = QWidget()
    cv = QVBoxLayout(column)
    cv.setContentsMargins(0, 0, 0, 0)
    cv.addWidget(scroll, 1)
    cv.addWidget(ws.reasons)
    cv.addWidget(ws.preview)
    cv.addLayout(actions)
    split.addWidget(column)
    split.setSizes([360, 1000])
