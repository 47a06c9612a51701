"""The record panel beside the list: the record's title and "Copy id", its actions and its fields.

The actions wrap onto as many lines as the panel's width needs, so none is ever cut off (a sign
document's second column once hid "Sign in person" even at 1600 px). The panel is at least as wide
as its record needs, whenever its content is laid out again (buttons and names arrive after the
record): with the list's columns fitted, the splitter gave the panel its 300 px minimum, and a
record's widest row (a long action, "Open customer" beside its label) ran past its right edge, cut
(the panel does not scroll sideways)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from views.records.flow import FlowLayout
from views.shell.theme import set_role

MIN_WIDTH = 300


class RecordPanel(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("")
        set_role(self.title, "heading")
        self.title.setWordWrap(True)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.actions_row = QWidget()
        self.actions_row.setObjectName("record-actions")
        self.action_box = FlowLayout(self.actions_row)
        # The workspace's word (its translation context), as before the panel was its own class.
        self.copy_id = QPushButton(QCoreApplication.translate("RecordsWorkspace", "Copy id"))
        self.copy_id.setObjectName("copy-id")
        self.copy_id.setFlat(True)
        self.copy_id.hide()
        detail = QWidget()
        dl = QVBoxLayout(detail)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.copy_id, 0, Qt.AlignmentFlag.AlignTop)
        dl.addLayout(head)
        dl.addWidget(self.actions_row)
        dl.addLayout(self.form)
        dl.addStretch(1)
        self.setWidgetResizable(True)
        self.setWidget(detail)
        self.setMinimumWidth(MIN_WIDTH)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        detail.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()
        return super().eventFilter(watched, event)

    def fit(self) -> None:
        """At least as wide as the content's widest row, and the scroll bar beside it."""
        detail = self.widget()
        if detail is not None:
            bar = self.verticalScrollBar().sizeHint().width()
            self.setMinimumWidth(max(MIN_WIDTH, detail.minimumSizeHint().width() + bar + 2 * self.frameWidth()))
