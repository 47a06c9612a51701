"""Charts drawn with QPainter: a number, a line and bars (grouped by a dimension).

PySide6-Essentials has no QtCharts. pyqtgraph would bring numpy (tens of MB, and seconds of
import on a cold start the desktop works to keep short) for three simple kinds of chart;
QPainter draws them crisply at any size, off screen too (screenshots, tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import QCoreApplication, QDate, QLocale, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

PALETTE = ["#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#c62828", "#00838f"]


@dataclass(frozen=True)
class Point:
    bucket: date
    value: float
    group: str | None = None


def fmt(v: float) -> str:
    """A figure in the person's locale: "1.234" in German, large ones shortened ("12,3k")."""
    loc = QLocale()
    if abs(v) >= 1_000_000:
        return loc.toString(v / 1_000_000, "f", 1) + QCoreApplication.translate("charts", "M", "millions")
    if abs(v) >= 10_000:
        return loc.toString(v / 1000, "f", 1) + QCoreApplication.translate("charts", "k", "thousands")
    return loc.toString(float(v), "f", 0 if float(v).is_integer() or abs(v) >= 100 else 2)


def day_text(day: date, form: str = "dd MMM yyyy") -> str:
    """A day in the person's locale's words ("26 Nov 2026", "26 Nov. 2026")."""
    return QLocale().toString(QDate(day.year, day.month, day.day), form)


def nice_peak(v: float, whole: bool = False) -> float:
    """The axis top: four steps of 1, 2, 2.5 or 5 times a power of ten, at or above ``v``.

    ``whole``: counts (orders, tickets) get whole steps: 3 rather than 2.5, nothing under one.
    """
    if v <= 0:
        return 4.0 if whole else 1.0
    import math

    step = max(v / 4, 1.0) if whole else v / 4
    mag = 10 ** math.floor(math.log10(step))
    for m in (1, 2, 2.5, 3, 5, 10) if whole else (1, 2, 2.5, 5, 10):
        if m * mag >= step and not (whole and not float(m * mag).is_integer()):
            return 4 * m * mag
    return v


class Chart(QWidget):
    """One widget's chart: ``kind`` is number, line or bar; ``points`` its series. The pointer over
    a bar or point shows its day and value; a click on one emits ``picked`` with its day (on a
    number: None, the whole range)."""

    picked = Signal(object)

    def __init__(self, kind: str, points: list[Point], total: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind, self.points, self.total = kind, points, total
        self.setMouseTracking(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setMinimumSize(260, 150)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName(self.tr("{kind} chart, total {total}").format(kind=kind, total=fmt(total)))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(420, 220)

    @property
    def whole(self) -> bool:
        """A series of counts (every value whole): its axis steps are whole too."""
        return all(float(pt.value).is_integer() for pt in self.points)

    def groups(self) -> list[str]:
        return list(dict.fromkeys(p.group for p in self.points if p.group))

    def plot_rect(self) -> QRectF:
        """Where bars and lines are drawn (as ``_frame`` lays it out), at the chart's size now."""
        r = QRectF(self.rect()).adjusted(8, 8, -8, -8)
        legend = 18 if self.kind == "bar" and len(self.groups()) > 1 else 0
        return r.adjusted(44, 4 + legend, -4, -20)

    def buckets(self) -> list[date]:
        return sorted({pt.bucket for pt in self.points})

    def bucket_at(self, x: float) -> date | None:
        """The day under ``x``: the bar's slot, or the nearest point of a line."""
        buckets = self.buckets()
        plot = self.plot_rect()
        if not buckets or plot.width() <= 0 or self.kind == "number":
            return None
        if self.kind == "bar":
            i = int((x - plot.left()) // (plot.width() / len(buckets)))
        else:
            i = round((x - plot.left()) / (plot.width() / max(len(buckets) - 1, 1)))
        return buckets[i] if 0 <= i < len(buckets) else None

    def x_of(self, bucket: date) -> float:
        """Where a day's bar or point is drawn (its middle): for the tests' pointer, as a person aims."""
        buckets, plot = self.buckets(), self.plot_rect()
        i = buckets.index(bucket)
        if self.kind == "bar":
            return plot.left() + (i + 0.5) * plot.width() / len(buckets)
        return plot.left() + i * plot.width() / max(len(buckets) - 1, 1)

    def words_at(self, bucket: date) -> str:
        """The value under the pointer: "26 Nov: 3", by group where the bars are grouped."""
        here = [pt for pt in self.points if pt.bucket == bucket]
        day = day_text(bucket)
        if len(here) > 1 or (here and here[0].group):
            return day + "\n" + "\n".join(f"{pt.group or '—'}: {fmt(pt.value)}" for pt in here)
        return f"{day}: {fmt(sum(pt.value for pt in here))}"

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        bucket = self.bucket_at(event.position().x())
        text = self.words_at(bucket) if bucket is not None else self.tr("Total: {total}").format(total=fmt(self.total))
        self.setToolTip(text)
        QToolTip.showText(event.globalPosition().toPoint(), text, self)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            self.picked.emit(self.bucket_at(event.position().x()))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(8, 8, -8, -8)
        if self.kind == "number":
            self._number(p, r)
        elif not self.points:
            p.setPen(QColor("#666"))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, self.tr("No data yet"))
        elif self.kind == "bar":
            self._bars(p, r)
        else:
            self._line(p, r)
        p.end()

    def _number(self, p: QPainter, r: QRectF) -> None:
        f = QFont(self.font())
        f.setPointSizeF(max(20.0, min(r.height() / 3, 48.0)))
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor(PALETTE[0]))
        p.drawText(r.adjusted(0, 0, 0, -r.height() * 0.35), Qt.AlignmentFlag.AlignCenter, fmt(self.total))
        if self.points:  # a faint trend under the number
            self._line(p, QRectF(r.left(), r.bottom() - r.height() * 0.3, r.width(), r.height() * 0.3), faint=True)

    def _frame(self, p: QPainter, r: QRectF, peak: float) -> QRectF:
        small = QFont(self.font())
        small.setPointSizeF(9)
        p.setFont(small)
        plot = r.adjusted(44, 4, -4, -20)
        p.setPen(QPen(QColor("#ddd"), 1))
        for i in range(5):
            y = plot.bottom() - plot.height() * i / 4
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(QColor("#555"))
            p.drawText(
                QRectF(r.left(), y - 8, 40, 16),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                fmt(peak * i / 4),
            )
            p.setPen(QPen(QColor("#ddd"), 1))
        buckets = sorted({pt.bucket for pt in self.points})
        if buckets:
            p.setPen(QColor("#555"))
            p.drawText(
                QRectF(plot.left(), plot.bottom() + 3, 90, 16),
                Qt.AlignmentFlag.AlignLeft,
                day_text(buckets[0], "dd MMM"),
            )
            p.drawText(
                QRectF(plot.right() - 90, plot.bottom() + 3, 90, 16),
                Qt.AlignmentFlag.AlignRight,
                day_text(buckets[-1], "dd MMM"),
            )
        return plot

    def _line(self, p: QPainter, r: QRectF, faint: bool = False) -> None:
        pts = sorted(self.points, key=lambda x: x.bucket)
        peak = max((x.value for x in pts), default=0) or 1
        if not faint:
            peak = nice_peak(peak, self.whole)
        plot = r if faint else self._frame(p, r, peak)
        n = max(len(pts) - 1, 1)
        path = QPainterPath()
        for i, pt in enumerate(pts):
            xy = QPointF(plot.left() + plot.width() * i / n, plot.bottom() - plot.height() * max(pt.value, 0) / peak)
            path.moveTo(xy) if i == 0 else path.lineTo(xy)
        color = QColor(PALETTE[0])
        if faint:
            color.setAlpha(90)
        p.setPen(QPen(color, 1.5 if faint else 2.5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)

    def _bars(self, p: QPainter, r: QRectF) -> None:
        groups = self.groups() or [""]
        buckets = sorted({pt.bucket for pt in self.points})
        value = {(pt.bucket, pt.group or ""): pt.value for pt in self.points}
        peak = nice_peak(max((pt.value for pt in self.points), default=0), self.whole)
        legend = 18 if len(groups) > 1 else 0
        plot = self._frame(p, r.adjusted(0, legend, 0, 0), peak)
        slot = plot.width() / max(len(buckets), 1)
        bar = slot * 0.8 / len(groups)
        for gi, g in enumerate(groups):
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(PALETTE[gi % len(PALETTE)]))
            for bi, b in enumerate(buckets):
                v = value.get((b, g), 0.0)
                h = plot.height() * max(v, 0) / peak
                p.drawRect(
                    QRectF(plot.left() + bi * slot + slot * 0.1 + gi * bar, plot.bottom() - h, max(bar - 1, 1), h)
                )
            if legend:
                x = r.left() + 44 + gi * 110
                p.drawRect(QRectF(x, r.top() + 3, 10, 10))
                p.setPen(QColor("#333"))
                p.drawText(
                    QRectF(x + 14, r.top(), 92, 16), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, g
                )
