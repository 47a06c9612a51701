"""The helpdesk agent's desk: queues, ticket tabs, conversation, composer, SLA timers, triage.

Every service call goes through ``session.ops.run(session.call(...))`` (off the UI
thread); the station's database answers, so the desk keeps working offline.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.pagination import Page
from services.core.roles import STAFF
from services.support.attachments import upload_attachment
from services.support.categories import list_categories
from services.support.helpdesk import get_helpdesk, put_helpdesk
from services.support.schemas import (
    AgentList,
    AgentOut,
    CategoryList,
    HelpdeskConfig,
    QueueCounts,
    TicketOut,
    TicketQuery,
)
from services.support.tickets import list_agents, list_tickets, queue_counts
from views.base import StationSession, Workspace, ran, ran_only
from views.helpdesk.ticket import QUEUES, TicketTab, humanize, named
from views.i18n import QT_TRANSLATE_NOOP
from views.ops import Newest


class HelpdeskWorkspace(Workspace):
    name = "helpdesk"
    title = QT_TRANSLATE_NOOP("Workspaces", "Helpdesk")
    modules = frozenset({"support"})
    shows = frozenset({"support.*"})
    keys = (
        ("Ctrl+Return", QT_TRANSLATE_NOOP("Keys", "send")),
        ("Ctrl+I", QT_TRANSLATE_NOOP("Keys", "internal note")),
        ("Ctrl+S", QT_TRANSLATE_NOOP("Keys", "apply changes")),
        ("Ctrl+F", QT_TRANSLATE_NOOP("Keys", "search")),
        ("F5", QT_TRANSLATE_NOOP("Keys", "refresh")),
        ("Ctrl+W", QT_TRANSLATE_NOOP("Keys", "close the tab")),
    )
    roles = STAFF
    position = 30
    landing = {"operator": 2}

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.queue = "new"
        self.canned: list[dict[str, str]] = []
        self.categories: list[tuple[str, str]] = []
        self.agents: list[AgentOut] = []
        self.counts: QueueCounts | None = None
        self.ticket_lists = Newest()  # the ticket list asked for last

        self.search = named(QLineEdit(), "helpdesk-search")
        self.search.setPlaceholderText(self.tr("Search all queues (Ctrl+F)"))
        self.search.setToolTip(self.tr("Number, subject, e-mail or words of any message; Enter searches"))
        self.search.returnPressed.connect(self.load_tickets)
        self.queues = named(QListWidget(), "helpdesk-queues")
        for key, label in QUEUES:
            item = QListWidgetItem(QCoreApplication.translate("HelpdeskQueues", label))
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.queues.addItem(item)
        self.queues.setCurrentRow(0)
        self.queues.currentItemChanged.connect(self._queue_chosen)
        # Enter on a queue goes to its tickets; Enter on a ticket opens it (README: "pick a queue, Enter").
        self.queues.itemActivated.connect(lambda _i: self._to_tickets())
        self.table = named(QTableWidget(0, 6), "helpdesk-tickets")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Number"),
                self.tr("Subject"),
                self.tr("Requester"),
                self.tr("State"),
                self.tr("Priority"),
                self.tr("SLA"),
            ]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.installEventFilter(self)
        self.table.cellDoubleClicked.connect(self._row_opened)
        self.tabs = named(QTabWidget(), "helpdesk-tabs")
        self.tabs.setTabsClosable(True)
        self.tabs.tabCloseRequested.connect(self._close_tab)
        self.status = named(QLabel(), "helpdesk-status")

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.addWidget(self.search)
        ll.addWidget(self.queues)
        lists = self.lists = QSplitter(Qt.Orientation.Vertical)
        lists.addWidget(self.table)
        lists.addWidget(self.tabs)
        lists.setStretchFactor(1, 2)
        # No ticket open: the list takes the whole height (see _layout_tabs).
        self.tabs.hide()
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(lists)
        split.setStretchFactor(1, 4)
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        lay.addWidget(self.status)

        for keys, slot in (("Ctrl+F", self.search.setFocus), ("F5", self.refresh), ("Ctrl+W", self.close_current)):
            QShortcut(QKeySequence(keys), self).activated.connect(slot)
        self.load_reference()
        self.refresh()

    def focus_primary(self) -> None:
        self.table.setFocus()

    # --- data -----------------------------------------------------------------------

    def load_reference(self) -> None:
        ops, call = self.session.ops, self.session.call

        def cfg(c: HelpdeskConfig) -> None:
            self.canned = [r.model_dump() for r in c.canned_responses]

        def cats(c: CategoryList) -> None:
            self.categories = [(x.id, x.name) for x in c.root]

        def agents(a: AgentList) -> None:
            self.agents = list(a.root)

        ops.run(call(get_helpdesk), on_success=cfg, parent=self)
        ops.run(call(list_categories), on_success=cats, parent=self)
        ops.run(call(list_agents), on_success=agents, parent=self)

    def refresh(self) -> None:
        self.session.ops.run(self.session.call(queue_counts), on_success=self.show_counts, parent=self.queues)
        self.load_tickets()

    def load_tickets(self) -> None:
        q: dict[str, object] = {"queue": self.queue, "limit": 100}
        text = self.search.text().strip()
        if text:
            q = {"queue": "all", "search": text, "limit": 100}  # a search looks in every queue, and says so
        self._mark_queue(None if text else self.queue)
        self.status.setText(self.tr("Search “{text}” in all queues").format(text=text) if text else "")
        self.status.setStyleSheet("")
        query = self.session.request(TicketQuery, q, parent=self.search)
        if query is not None:
            asked = self.ticket_lists.ask()  # the queue or search chosen last wins over a late answer
            self.session.ops.run(
                self.session.call(list_tickets, query=query),
                on_success=asked.only(self.show_tickets),
                parent=self.table,
            )

    def show_counts(self, c: QueueCounts) -> None:
        self.counts = c
        for i, (key, label) in enumerate(QUEUES):
            self.queues.item(i).setText(f"{QCoreApplication.translate('HelpdeskQueues', label)} ({getattr(c, key)})")

    def show_tickets(self, page: Page[TicketOut]) -> None:
        now = self.session.runtime.clock.now()
        self.table.setRowCount(len(page.items))
        for r, t in enumerate(page.items):
            # State and priority in words (TicketWords); the values stay the data.
            state, priority = (QCoreApplication.translate("TicketWords", v) for v in (t.state, t.priority))
            cells = [t.number, t.subject, t.requester_email, state, priority, sla_text(t, now)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, t.id)
                if c == 5 and t.sla_breached:
                    item.setForeground(QColor("#b91c1c"))
                self.table.setItem(r, c, item)
        if page.items and self.table.currentRow() < 0:
            self.table.setCurrentCell(0, 0)  # Enter on the list opens something at once

    def _queue_chosen(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.queue = item.data(Qt.ItemDataRole.UserRole)
            self.search.clear()  # a queue chosen shows that queue, not the search still typed
            self.load_tickets()

    def _mark_queue(self, queue: str | None) -> None:
        """The queue list marks the queue shown, none while a search shows every queue (the queue
        chosen before stayed marked over the search's results)."""
        row = next(
            (i for i in range(self.queues.count()) if self.queues.item(i).data(Qt.ItemDataRole.UserRole) == queue), -1
        )
        if self.queues.currentRow() != row:
            was = self.queues.blockSignals(True)
            self.queues.setCurrentRow(row)
            self.queues.blockSignals(was)

    def _to_tickets(self) -> None:
        self.table.setFocus()
        if self.table.rowCount() and self.table.currentRow() < 0:
            self.table.setCurrentCell(0, 0)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        # Enter on the ticket list opens the current ticket on every platform (an item view's own
        # "activated" on Enter depends on the style).
        key = event if isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress else None
        enter = key is not None and key.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if (
            obj is self.table
            and key is not None
            and enter
            and not key.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            row = self.table.currentRow()
            if row >= 0:
                self._row_opened(row, 0)
                return True
        return super().eventFilter(obj, event)

    def _row_opened(self, row: int, _col: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            self.open_ticket(item.data(Qt.ItemDataRole.UserRole))

    def open_ticket(self, ticket_id: str) -> TicketTab:
        for i in range(self.tabs.count()):
            tab = self.tabs.widget(i)
            if isinstance(tab, TicketTab) and tab.ticket_id == ticket_id:
                self.tabs.setCurrentIndex(i)
                return tab
        tab = TicketTab(self, ticket_id)
        self.tabs.setCurrentIndex(self.tabs.addTab(tab, "…"))
        self._layout_tabs()
        tab.composer.setFocus()
        return tab

    def _layout_tabs(self) -> None:
        """Open tickets get two thirds of the height; with none open the list has it all."""
        if self.tabs.count() and self.tabs.isHidden():
            self.tabs.show()
            total = max(self.lists.height(), 300)
            self.lists.setSizes([total // 3, total - total // 3])
        elif not self.tabs.count():
            self.tabs.hide()

    def _close_tab(self, index: int) -> None:
        w = self.tabs.widget(index)
        self.tabs.removeTab(index)
        if w is not None:
            w.deleteLater()
        self._layout_tabs()

    def close_current(self) -> None:
        if self.tabs.count():
            self._close_tab(self.tabs.currentIndex())

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh()
        if ran(change, put_helpdesk) or change.origin == "pull":
            self.load_reference()
        for i in range(self.tabs.count()):
            tab = self.tabs.widget(i)
            if isinstance(tab, TicketTab) and not ran_only(change, upload_attachment):
                tab.reload()


WORKSPACE = HelpdeskWorkspace


def sla_text(t: TicketOut, now: datetime) -> str:
    """The next SLA due time as people read it: "due in 2 h 10 min", "due in 11 days" or "overdue 35 min"."""
    if t.state in ("resolved", "closed"):
        return ""
    due = t.first_response_due if t.first_response_at is None else t.resolution_due
    if due is None:
        return ""
    left = (due - now).total_seconds()
    text = humanize(left)
    return (
        QCoreApplication.translate("workspace", "overdue {text}").format(text=text)
        if left < 0 or t.sla_breached
        else QCoreApplication.translate("workspace", "due in {text}").format(text=text)
    )
