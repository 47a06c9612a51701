"""A small bar chart of a code's scans per day, drawn with QPainter (no chart library)."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, QLocale, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

BAR = QColor("#1565c0")
BOT = QColor("#b0bec5")
AXIS = QColor("#37474f")


class ScanChart(QWidget):
    """Scans (blue) and bots (grey, stacked on top) per day; the busiest day labelled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scanChart")
        self.setMinimumHeight(140)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.days: list[tuple[date, int, int]] = []  # (day, scans, bots)

    def set_days(self, days: list[tuple[date, int, int]]) -> None:
        self.days = days
        self.setAccessibleDescription(
            self.tr("{scans} scans over {days} days").format(scans=sum(d[1] for d in days), days=len(days))
            if days
            else self.tr("no scans yet")
        )
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.fillRect(self.rect(), QColor("#ffffff"))
        font = QFont(self.font())
        font.setPointSize(12)
        p.setFont(font)
        left, top, bottom = 8.0, 28.0, 26.0
        w, h = self.width() - 2 * left, self.height() - top - bottom
        p.setPen(AXIS)
        p.drawLine(int(left), int(top + h), int(left + w), int(top + h))
        if not self.days:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No scans in these 30 days"))
            p.end()
            return
        peak = max(s + b for _d, s, b in self.days) or 1
        step = w / len(self.days)
        bar = max(1.0, step * 0.8)
        for i, (_day, scans, bots) in enumerate(self.days):
            x = left + i * step + (step - bar) / 2
            hs, hb = h * scans / peak, h * bots / peak
            p.fillRect(QRectF(x, top + h - hs, bar, hs), BAR)
            p.fillRect(QRectF(x, top + h - hs - hb, bar, hb), BOT)
        p.drawText(QRectF(left, 0, w, top), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.caption())
        first, last = self.days[0][0], self.days[-1][0]
        p.drawText(QRectF(left, top + h, w, bottom), Qt.AlignmentFlag.AlignLeft, short_day(first))
        p.drawText(QRectF(left, top + h, w, bottom), Qt.AlignmentFlag.AlignRight, short_day(last))
        p.end()

    def caption(self) -> str:
        """The line above the bars. A code without a person's scan in the days says so (a new code
        read "0 scans · busiest 29 Oct: 0" in the walk of issue 32); a count in its form."""
        total = sum(d[1] for d in self.days)
        if not total:
            return self.tr("No scans in these 30 days")
        busiest = max(self.days, key=lambda d: d[1])
        return self.tr("%n scans · busiest {day}: {scans}", "", total).format(
            day=short_day(busiest[0]), scans=busiest[1]
        )


def short_day(d: date) -> str:
    """A day on the axis in the person's locale ("26 Nov", "26. Nov.")."""
    return QLocale().toString(QDate(d.year, d.month, d.day), "dd MMM")
