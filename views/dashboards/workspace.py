"""Dashboards workspace (owners and admins): pick a dashboard, see its widgets drawn as charts.

The numbers come from the Analytics module's series (``analytics.dashboards.data``); every bus
event is counted there as ``events.<type>``, so any change anywhere may move a chart: the
workspace reads again, at most once a second, after changes commit.
"""

from __future__ import annotations

from datetime import date, datetime

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
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

from services.analytics.dashboards import dashboard_data, list_dashboards
from services.analytics.schemas import DashboardData, DashboardOut, DashboardRange, WidgetData
from services.core.context import ANY_KIND, CommitInfo
from services.core.pagination import ListQuery, Page
from services.core.roles import MANAGERS
from views.base import StationSession, Workspace
from views.dashboards.charts import Chart, Point, fmt

STYLE = """
#workspace-dashboards { font-size: 13pt; }
#dashTitle { font-size: 20pt; font-weight: bold; }
QFrame#card { background: white; border: 1px solid #d0d7de; border-radius: 8px; }
QLabel#cardTitle { font-size: 14pt; font-weight: bold; }
QLabel#cardTotal { font-size: 12pt; color: #444; }
"""


class Card(QFrame):
    def __init__(self, widget: WidgetData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        lay = QVBoxLayout(self)
        head = QHBoxLayout()
        title = QLabel(widget.title)
        title.setObjectName("cardTitle")
        head.addWidget(title, 1)
        if widget.chart != "number":
            total = QLabel(f"total {fmt(widget.total)}")
            total.setObjectName("cardTotal")
            head.addWidget(total)
        lay.addLayout(head)
        points = [Point(_day(p.bucket), float(p.value), p.group) for p in widget.series]
        self.chart = Chart(widget.chart, points, float(widget.total))
        lay.addWidget(self.chart, 1)


def _day(v: date | datetime | str) -> date:
    return v if isinstance(v, date) else date.fromisoformat(str(v))


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
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.heading = QLabel("Dashboards")
        self.heading.setObjectName("dashTitle")
        top.addWidget(self.heading, 1)
        self.picker = QComboBox()
        self.picker.setAccessibleName("Dashboard")
        self.picker.setMinimumWidth(260)
        self.picker.currentIndexChanged.connect(self._picked)
        top.addWidget(self.picker)
        self.reload_button = QPushButton("Refresh")
        self.reload_button.clicked.connect(self.refresh)
        top.addWidget(self.reload_button)
        lay.addLayout(top)
        self.empty = QLabel("No dashboards yet. An owner or admin makes them (POST dashboards).")
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
        self.picker.blockSignals(True)
        self.picker.clear()
        for d in page.items:
            self.picker.addItem(d.name, d.id)
        index = max(self.picker.findData(current), 0) if current else 0
        self.picker.setCurrentIndex(index)
        self.picker.blockSignals(False)
        self.empty.setVisible(not page.items)
        if page.items:
            self._picked()

    def _picked(self) -> None:
        dashboard_id = self.picker.currentData()
        if dashboard_id:
            loading = self.session.call(dashboard_data, id=str(dashboard_id), query=DashboardRange())
            self.session.ops.run(loading, on_success=self._show, parent=self)

    def _show(self, data: DashboardData) -> None:
        self.heading.setText(data.name)
        for card in self.cards:
            self.grid.removeWidget(card)
            card.deleteLater()
        self.cards = []
        for i, w in enumerate(data.widgets):
            card = Card(w)
            self.grid.addWidget(card, i // 2, i % 2)
            self.cards.append(card)

    def on_changed(self, change: CommitInfo) -> None:
        # Any change may have emitted an event the charts count: read again, once, a moment later.
        self._later.start()


WORKSPACE = DashboardsWorkspace
