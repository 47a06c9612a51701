"""A one-line label that ends in "…" when its text does not fit, never cut mid-word.

The status bar's last result is given what room is left beside the sync indicator; a long message
("Signed in with this station's data: the platform at … does not answer …") was cut at the edge
("does r"). ``text()`` and the tooltip keep the whole message; only the painting is shortened.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel


class ElidedLabel(QLabel):
    def shown_text(self) -> str:
        """The text as painted: whole when it fits, else shortened with "…" at the end."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )
