"""Dashboards workspace (owners and admins): pick a dashboard, see its widgets drawn as charts.

One date range and one comparison period for every card. A card whose facts are records (shipped
orders, tickets, QR scans: ``figures.py``) is counted from the rows Records lists, so the two always
agree, and a click on a bar opens Records on exactly its rows; other cards (revenue) come from the
Analytics module's series (``analytics.metrics.query``). Any change may move a chart: the workspace
reads again, at most once a second, after changes commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from services.analytics.dashboards import list_dashboards
from services.analytics.schemas import BucketOut, DashboardOut, Widget
from services.core.commands import execute
from services.core.context import ANY_KIND, CommitInfo, Ctx
from services.core.pagination import ListQuery, Page
from services.core.roles import MANAGERS
from views.base import StationSession, Workspace
from views.dashboards.charts import Chart, Point, day_text, fmt
from views.dashboards.figures import FIGURES, Counted, Figure, count
from views.dashboards.titles import card_title, dashboard_name
from views.i18n import fmt_money, fmt_number
from views.ops import Newest
from views.records.words import QT_TRANSLATE_NOOP

STYLE = """
#workspace-dashboards { font-size: 13pt; }
#dashTitle { font-size: 20pt; font-weight: bold; }
QFrame#card { background: white; border: 1px solid #d0d7de; border-radius: 8px; }
QLabel#cardTitle { font-size: 14pt; font-weight: bold; }
QLabel#cardTotal { font-size: 12pt; color: #444; }
"""


# (the range's words, its days, the words after a count: "12 orders shipped in the last 30 days")
RANGES = (
    (
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "Last 7 days"),
        7,
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "in the last 7 days"),
    ),
    (
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "Last 30 days"),
        30,
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "in the last 30 days"),
    ),
    (
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "Last 90 days"),
        90,
        QT_TRANSLATE_NOOP("DashboardsWorkspace", "in the last 90 days"),
    ),
)


@dataclass
class CardData:
    """One card as drawn: its points over the range, its total and the comparison period's."""

    title: str
    chart: str
    interval: str
    points: list[Point]
    total: float
    before: float | None = None
    figure: Figure | None = None  # counted from the records (then ``counted`` holds the rows)
    counted: Counted | None = None
    worth: float | None = None  # the rows' value, where the figure has one
    currency: str | None = None  # the rows' one currency (none when they have none or several)


def _bucket(day: dt.date, interval: str) -> dt.date:
    return day - dt.timedelta(days=day.weekday()) if interval == "week" else day


def _days(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def read_board(
    ctx: Callable[[], Ctx], widgets: list[Widget], start: dt.date, end: dt.date, compare: bool
) -> list[CardData]:
    """Every card of a dashboard over one range (and the same length before it, to compare)."""
    span = end - start + dt.timedelta(days=1)
    out: list[CardData] = []
    for w in widgets:
        group_by = (w.filters or {}).get("group_by")
        figure = FIGURES.get(w.metric)
        if figure is not None:
            counted = count(ctx(), figure, start, end)
            per: dict[dt.date, float] = {}
            for day in _days(start, end):  # every bucket, empty ones too: a quiet day is a zero
                per[_bucket(day, w.interval)] = per.get(_bucket(day, w.interval), 0) + counted.count(day)
            before = float(count(ctx(), figure, start - span, start - dt.timedelta(days=1)).total) if compare else None
            points = [Point(b, v) for b, v in sorted(per.items())]
            worth = counted.worth(figure.value) if figure.value is not None else None
            currencies = {getattr(r, "currency", None) for rows in counted.rows.values() for r in rows}
            currency = next(iter(currencies)) if len(currencies) == 1 else None
            out.append(
                CardData(w.title, w.chart, w.interval, points, counted.total, before, figure, counted, worth, currency)
            )
            continue
        rows = _series(ctx(), w.metric, start, end, w.interval, group_by)
        before = (
            sum(p.value for p in _series(ctx(), w.metric, start - span, start - dt.timedelta(days=1), w.interval, None))
            if compare
            else None
        )
        points = [Point(_day(p.bucket), float(p.value), p.group) for p in rows]
        out.append(CardData(w.title, w.chart, w.interval, points, round(sum(p.value for p in points), 6), before))
    return out


def _series(ctx: Ctx, name: str, start: dt.date, end: dt.date, interval: str, group_by: str | None) -> list[BucketOut]:
    q: dict[str, object] = {"name": name, "from": str(start), "to": str(end), "interval": interval, "limit": 100}
    if group_by:
        q["group_by"] = group_by
    got: list[BucketOut] = []
    while True:
        page = execute(ctx, "analytics.metrics.query", query={**q, "offset": len(got)})
        got += page.items
        if not page.items or len(got) >= page.total:
            return got


class Card(QFrame):
    def __init__(self, data: CardData, parent: QWidget | None = None, *, title: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.data = data
        # What the person reads (a seeded title in the desktop's language); data.title stays as stored.
        self.title = data.title if title is None else title
        lay = QVBoxLayout(self)
        head = QHBoxLayout()
        title_label = QLabel(self.title)
        title_label.setObjectName("cardTitle")
        head.addWidget(title_label, 1)
        words = self.tr("total {total}").format(total=fmt(data.total)) if data.chart != "number" else ""
        if data.worth is not None:
            # Money as the locale writes it (``$1,234.50`` / ``1.234,50 $``); rows of mixed currencies: the number.
            amount = fmt_money(data.worth, data.currency) if data.currency else fmt_number(data.worth, 2)
            worth = self.tr("worth {value}").format(value=amount)
            words += (" · " if words else "") + worth
        if data.before is not None:
            change = data.total - data.before
            change_text = ("+" if change >= 0 else "−") + fmt(abs(change))
            before = self.tr("before {total} ({change})").format(total=fmt(data.before), change=change_text)
            words += (" · " if words else "") + before
        self.total = QLabel(words)
        self.total.setObjectName("cardTotal")
        head.addWidget(self.total)
        lay.addLayout(head)
        self.chart = Chart(data.chart, data.points, float(data.total))
        if data.figure is not None:
            what = QCoreApplication.translate("figures", data.figure.what)
            self.chart.setToolTip(self.tr("From Records: {what}. Click a bar to open them.").format(what=what))
        lay.addWidget(self.chart, 1)


def _day(v: dt.date | dt.datetime | str) -> dt.date:
    return v if isinstance(v, dt.date) else dt.date.fromisoformat(str(v))


class DashboardsWorkspace(Workspace):
    name = "dashboards"
    title = "Dashboards"
    modules = frozenset({"analytics"})
    shows = frozenset({ANY_KIND})  # any change may emit an event the charts count
    roles = MANAGERS
    position = 70

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("workspace-dashboards")
        self.setStyleSheet(STYLE)
        self.boards = Newest()
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.heading = QLabel(self.tr("Dashboards"))
        self.heading.setObjectName("dashTitle")
        top.addWidget(self.heading, 1)
        self.picker = QComboBox()
        self.picker.setAccessibleName(self.tr("Dashboard"))
        self.picker.setMinimumWidth(220)
        self.picker.currentIndexChanged.connect(self._picked)
        top.addWidget(self.picker)
        # One range and one comparison for every card of the dashboard.
        self.range = QComboBox()
        self.range.setAccessibleName(self.tr("Date range"))
        for words, days, _during in RANGES:
            self.range.addItem(self.tr(words), days)
        self.range.setCurrentIndex(1)
        self.range.currentIndexChanged.connect(self._picked)
        top.addWidget(self.range)
        self.compare = QCheckBox(self.tr("Compare with the period before"))
        self.compare.toggled.connect(self._picked)
        top.addWidget(self.compare)
        self.reload_button = QPushButton(self.tr("Refresh"))
        self.reload_button.clicked.connect(self.refresh)
        top.addWidget(self.reload_button)
        lay.addLayout(top)
        self.empty = QLabel(
            self.tr("No dashboards yet. An owner or admin makes them (Records → Analytics → Dashboards → New…).")
        )
        self.empty.hide()
        lay.addWidget(self.empty)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.board = QWidget()
        self.grid = QGridLayout(self.board)
        self.grid.setSpacing(12)
        self.area.setWidget(self.board)
        lay.addWidget(self.area, 1)
        self.cards: list[Card] = []
        self.dashboards: dict[str, DashboardOut] = {}
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(1000)
        self._later.timeout.connect(self.refresh)
        self.refresh()

    def focus_primary(self) -> None:
        self.picker.setFocus()

    def refresh(self) -> None:
        listing = self.session.call(list_dashboards, query=ListQuery(limit=100, sort="created_at", order="asc"))
        self.session.ops.run(listing, on_success=self._listed, parent=self)

    def _listed(self, page: Page[DashboardOut]) -> None:
        current = self.picker.currentData()
        self.dashboards = {d.id: d for d in page.items}
        self.picker.blockSignals(True)
        self.picker.clear()
        for d in page.items:
            self.picker.addItem(dashboard_name(d.id, d.name), d.id)
        index = max(self.picker.findData(current), 0) if current else 0
        self.picker.setCurrentIndex(index)
        self.picker.blockSignals(False)
        self.empty.setVisible(not page.items)
        if page.items:
            self._picked()

    def period(self) -> tuple[dt.date, dt.date]:
        """The range every card shows: the last N local days, today included."""
        end = dt.datetime.now().astimezone().date()
        return end - dt.timedelta(days=int(self.range.currentData()) - 1), end

    def _picked(self) -> None:
        board = self.dashboards.get(str(self.picker.currentData()))
        if board is None:
            return
        start, end = self.period()
        compare = self.compare.isChecked()
        ctx = self.session.ctx
        widgets = [Widget.model_validate(w) for w in board.widgets]
        asked = self.boards.ask()  # the board, range or comparison chosen last wins over a late answer
        self.session.ops.run(
            lambda: read_board(ctx, widgets, start, end, compare),
            on_success=asked.only(lambda cards: self._show(board, cards)),
            parent=self,
        )

    def _show(self, board: DashboardOut, cards: list[CardData]) -> None:
        self.heading.setText(dashboard_name(board.id, board.name))
        for card in self.cards:
            self.grid.removeWidget(card)
            card.deleteLater()
        self.cards = []
        for i, data in enumerate(cards):
            card = Card(data, title=card_title(board.id, data.title))
            card.chart.picked.connect(lambda bucket, c=card: self.drill(c, bucket))
            self.grid.addWidget(card, i // 2, i % 2)
            self.cards.append(card)

    def drill(self, card: Card, bucket: dt.date | None) -> None:
        """Records on exactly the rows behind a bar or point (the whole range on a number)."""
        data = card.data
        if data.figure is None or data.counted is None:
            why = self.tr("{card} is counted by Analytics, not from records: nothing to open.")
            self.session.notify(False, why.format(card=card.title))
            return
        days = sorted(data.counted.rows)
        if bucket is not None:
            last = bucket + dt.timedelta(days=6 if data.interval == "week" else 0)
            days = [d for d in days if bucket <= d <= last]
        rows = list({str(getattr(r, "id", id(r))): r for d in days for r in data.counted.rows[d]}.values())
        n = sum(data.counted.count(d) for d in days)
        if bucket is None:
            when = self.tr(RANGES[max(self.range.currentIndex(), 0)][2])
        elif data.interval == "week":
            when = self.tr("in the week of {day}").format(day=day_text(bucket))
        else:
            when = self.tr("on {day}").format(day=day_text(bucket))
        what = QCoreApplication.translate("figures", data.figure.what)
        caption = self.tr("{count} {what} {when}").format(count=QLocale().toString(n), what=what, when=when)
        opened = self.session.open_workspace("records") if self.session.open_workspace else None
        show = getattr(opened, "show_rows", None)
        if show is None:
            self.session.notify(False, self.tr("Records is not open to you here."))
            return
        show(data.figure.records, rows, caption)

    def on_changed(self, change: CommitInfo) -> None:
        # Any change may have emitted an event the charts count: read again, once, a moment later.
        self._later.start()


WORKSPACE = DashboardsWorkspace
