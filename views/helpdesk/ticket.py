"""One ticket open in the helpdesk: its conversation, composer, fields, SLA timers, triage and articles."""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from services.core.files import Upload
from services.core.pagination import Page
from services.docs.documents import get_document, suggest_documents
from services.docs.schemas import SearchHit, SuggestQuery
from services.support.ai import suggest_reply, triage_ticket
from services.support.attachments import upload_attachment
from services.support.schemas import (
    AgentMessageCreate,
    AttachmentOut,
    AttachmentQuery,
    MessageList,
    MessageOut,
    SuggestedReplyOut,
    TicketOut,
    TicketQuery,
    TicketUpdate,
    TriageOut,
    TriageRequest,
)
from services.support.tickets import add_message, get_ticket, list_messages, list_tickets, update_ticket
from views.i18n import QT_TRANSLATE_NOOP, counted, fmt_date, fmt_number
from views.ops import Newest, error_message
from views.shell.forms import scrolling, wrapping

if TYPE_CHECKING:  # the desk that opened the tab (it imports this module)
    from views.helpdesk.workspace import HelpdeskWorkspace

QUEUES: list[tuple[str, str]] = [  # shown translated (context HelpdeskQueues)
    ("new", QT_TRANSLATE_NOOP("HelpdeskQueues", "New")),
    ("mine", QT_TRANSLATE_NOOP("HelpdeskQueues", "Mine")),
    ("unassigned", QT_TRANSLATE_NOOP("HelpdeskQueues", "Unassigned")),
    ("waiting", QT_TRANSLATE_NOOP("HelpdeskQueues", "Waiting on customer")),
    ("breaching", QT_TRANSLATE_NOOP("HelpdeskQueues", "Breaching SLA")),
    ("all", QT_TRANSLATE_NOOP("HelpdeskQueues", "All tickets")),
]
PRIORITIES = ("low", "normal", "high", "urgent")
# The values as shown (context "TicketWords"); the combos keep the value as item data.
WORDS = (
    QT_TRANSLATE_NOOP("TicketWords", "low"),
    QT_TRANSLATE_NOOP("TicketWords", "normal"),
    QT_TRANSLATE_NOOP("TicketWords", "high"),
    QT_TRANSLATE_NOOP("TicketWords", "urgent"),
    QT_TRANSLATE_NOOP("TicketWords", "open"),
    QT_TRANSLATE_NOOP("TicketWords", "pending"),
    QT_TRANSLATE_NOOP("TicketWords", "resolved"),
    QT_TRANSLATE_NOOP("TicketWords", "closed"),
)


def fill_words(combo: QComboBox, values: list[str] | tuple[str, ...]) -> None:
    combo.clear()
    for v in values:
        combo.addItem(QCoreApplication.translate("TicketWords", v), v)


# Internal notes must never be mistaken for replies the customer sees.
STYLE = {
    "note": "QFrame#message { background: #fff4c2; border: 2px dashed #c99a00; border-radius: 6px; }",
    "agent": "QFrame#message { background: #e7f0fe; border: 1px solid #9bb8e8; border-radius: 6px; }",
    "customer": "QFrame#message { background: #ffffff; border: 1px solid #c8c8c8; border-radius: 6px; }",
    "system": "QFrame#message { background: #f0f0f0; border: 1px solid #dddddd; border-radius: 6px; }",
}
NOTE_COMPOSER = "QPlainTextEdit { background: #fff4c2; }"


W = TypeVar("W", bound=QWidget)


def named(widget: W, name: str) -> W:
    """Give a widget its object name (tests and style sheets find it by that name)."""
    widget.setObjectName(name)
    return widget


def humanize(delta_s: float) -> str:
    """A span as people say it: "35 min", "2 h 10 min", "1 day 3 h", "11 days" (German: "11 Tage";
    the walk of issue 32 read "fällig in 3 days")."""
    minutes = int(abs(delta_s)) // 60
    d, h, m = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if d >= 2:
        return counted("ticket", "%n days", d + (1 if h >= 12 else 0))
    if d == 1:
        return (
            QCoreApplication.translate("ticket", "1 day {h} h").format(h=h)
            if h
            else QCoreApplication.translate("ticket", "1 day")
        )
    if h:
        return f"{h} h {m} min"
    return f"{m} min" if m else QCoreApplication.translate("ticket", "under 1 min")


def _local(t: datetime) -> datetime:
    """A stored time (UTC; a naive one is UTC too) on the station's clock."""
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone()


def _counts_for_lupdate() -> None:  # never called: lupdate marks a plural only with a number literal
    QCoreApplication.translate("ticket", "%n days", "", 2)


def timer_text(label: str, due: datetime | None, met: datetime | None, now: datetime) -> str:
    if met is not None:
        late = due is not None and met > due
        when = fmt_date(_local(met), time=True)  # the person's clock and format, not UTC in ISO
        if late:
            return QCoreApplication.translate("ticket", "{label}: met late ({when})").format(label=label, when=when)
        return QCoreApplication.translate("ticket", "{label}: met ({when})").format(label=label, when=when)
    if due is None:
        return QCoreApplication.translate("ticket", "{label}: no target").format(label=label)
    left = (due - now).total_seconds()
    return (
        QCoreApplication.translate("ticket", "{label}: due in {value}").format(label=label, value=humanize(left))
        if left >= 0
        else QCoreApplication.translate("ticket", "{label}: BREACHED {value} ago").format(
            label=label, value=humanize(left)
        )
    )


class MessageView(QFrame):
    def __init__(self, m: MessageOut, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message")
        self.message_id = m.id
        kind = "note" if m.internal else m.author_kind
        self.kind = kind
        self.setProperty("internal", bool(m.internal))
        self.setStyleSheet(STYLE.get(kind, STYLE["customer"]))
        lay = QVBoxLayout(self)
        head = f"{m.author_name or m.author_kind} · {fmt_date(_local(m.created_at), time=True)}"
        self.badge = QLabel(
            self.tr("Internal note")
            if m.internal
            else (self.tr("Reply") if m.author_kind == "agent" else self.tr("Customer"))
        )
        self.badge.setObjectName("message-badge")
        if m.internal:
            self.badge.setStyleSheet("font-weight: bold; color: #8a6500;")
        top = QHBoxLayout()
        top.addWidget(self.badge)
        top.addStretch(1)
        top.addWidget(QLabel(head))
        lay.addLayout(top)
        self.body = QLabel(m.body)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.body)
        for a in m.attachments:
            lay.addWidget(QLabel(self.tr("📎 {a.filename} ({a.size} bytes)").format(a=a)))


class TicketTab(QWidget):
    """One ticket: header, controls, timers, conversation, composer and triage panel."""

    def __init__(self, desk: HelpdeskWorkspace, ticket_id: str) -> None:
        super().__init__(desk)
        self.desk, self.session, self.ticket_id = desk, desk.session, ticket_id
        self.ticket: TicketOut | None = None
        self.suggestion: TriageOut | None = None
        self.pending_attachments: list[str] = []
        self._kb_asked = False
        self.setObjectName("ticket-tab")

        self.header = QLabel(self.tr("Loading…"))
        self.header.setObjectName("ticket-header")
        self.header.setWordWrap(True)
        self.state = named(QComboBox(), "ticket-state")
        self.priority = named(QComboBox(), "ticket-priority")
        fill_words(self.priority, PRIORITIES)
        self.category = named(QComboBox(), "ticket-category")
        self.assignee = named(QComboBox(), "ticket-assignee")
        self.apply_btn = named(QPushButton(self.tr("Apply")), "ticket-apply")
        self.apply_btn.setToolTip(self.tr("Save state, priority, category and assignee (Ctrl+S)"))
        self.apply_btn.clicked.connect(self.apply_changes)
        self.timers = named(QLabel(), "sla-timers")
        # "First response: met (date time)" is wider than the triage column: wrap, never clip.
        self.timers.setWordWrap(True)

        controls = QFormLayout()
        controls.addRow(self.tr("State"), self.state)
        controls.addRow(self.tr("Priority"), self.priority)
        controls.addRow(self.tr("Category"), self.category)
        controls.addRow(self.tr("Assignee"), self.assignee)
        controls.addRow(self.apply_btn)
        controls.addRow(self.timers)

        self.conversation = QVBoxLayout()
        self.conversation.addStretch(1)
        holder = QWidget()
        holder.setLayout(self.conversation)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setWidget(holder)

        self.composer = named(QPlainTextEdit(), "composer")
        self.internal = named(QCheckBox(self.tr("Internal note")), "internal-toggle")
        self.internal.toggled.connect(self._style_composer)
        self.canned = named(QComboBox(), "canned")
        self.canned.addItem(self.tr("Canned response…"), None)
        for c in desk.canned:
            self.canned.addItem(c["title"], c["body"])
        self.canned.activated.connect(self.insert_canned)
        self.attach_btn = named(QPushButton(self.tr("Attach…")), "attach")
        self.attach_btn.clicked.connect(self.choose_file)
        self.attached = named(QLabel(), "attached")
        self.send_btn = named(QPushButton(self.tr("Send")), "send")
        self.send_btn.clicked.connect(self.send)
        self._style_composer(False)  # the reply's placeholder and button words
        row = QHBoxLayout()
        for w in (self.internal, self.canned, self.attach_btn, self.attached):
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.send_btn)

        self.triage_summary = named(QLabel(self.tr("Triage: waiting…")), "triage-summary")
        self.triage_summary.setWordWrap(True)
        # Field by field, by choice: nothing is ticked until the agent ticks it.
        self.triage_category = named(QCheckBox(self.tr("Category")), "triage-take-category")
        self.triage_priority = named(QCheckBox(self.tr("Priority")), "triage-take-priority")
        for box in (self.triage_category, self.triage_priority):
            box.setEnabled(False)
            box.toggled.connect(self._triage_choice)
        self.triage_accept = named(QPushButton(self.tr("Apply ticked suggestions")), "triage-accept")
        self.triage_accept.setEnabled(False)
        self.triage_accept.clicked.connect(self.accept_triage)
        self.reply_btn = named(QPushButton(self.tr("Suggest reply")), "triage-reply")
        self.reply_btn.clicked.connect(self.suggest_reply)
        triage_box = QGroupBox(self.tr("Suggestions"))
        tl = QVBoxLayout(triage_box)
        tl.addWidget(self.triage_summary)
        tl.addWidget(self.triage_category)
        tl.addWidget(self.triage_priority)
        tl.addWidget(self.triage_accept)
        tl.addWidget(self.reply_btn)
        # Knowledge-base articles for this ticket: Ctrl+K puts a link to the chosen one into the
        # reply, Ctrl+Shift+K its text (Enter or a double click: the link too).
        self.kb_list = named(QListWidget(), "kb-suggestions")
        self.kb_list.setWordWrap(True)
        self.kb_list.setMaximumHeight(150)
        self.kb_list.itemActivated.connect(lambda _item: self.insert_article(text=False))
        self.kb_hint = named(QLabel(self.tr("Articles: looking…")), "kb-hint")
        self.kb_hint.setWordWrap(True)
        self.kb_link_btn = named(QPushButton(self.tr("Insert link (Ctrl+K)")), "kb-insert-link")
        self.kb_link_btn.clicked.connect(lambda: self.insert_article(text=False))
        self.kb_text_btn = named(QPushButton(self.tr("Insert text (Ctrl+Shift+K)")), "kb-insert-text")
        self.kb_text_btn.clicked.connect(lambda: self.insert_article(text=True))
        kb_box = self.kb_box = QGroupBox(self.tr("Knowledge base"))
        kl = QVBoxLayout(kb_box)
        kl.addWidget(self.kb_hint)
        kl.addWidget(self.kb_list)
        # One under the other: side by side, German's "Text einfügen (Strg+Umschalt+K)" made the
        # column wider than its place.
        kb_row = QVBoxLayout()
        kb_row.addWidget(self.kb_link_btn)
        kb_row.addWidget(self.kb_text_btn)
        kl.addLayout(kb_row)
        self.history = named(QListWidget(), "requester-history")
        wrapping(self.history)
        # Enter or a double click opens that ticket as a tab too.
        self.history.itemActivated.connect(
            lambda item: item.data(Qt.ItemDataRole.UserRole) and desk.open_ticket(item.data(Qt.ItemDataRole.UserRole))
        )
        hist_box = QGroupBox(self.tr("Requester's tickets"))
        QVBoxLayout(hist_box).addWidget(self.history)

        side = QWidget()
        sl = QVBoxLayout(side)
        sl.addLayout(controls)
        sl.addWidget(triage_box)
        sl.addWidget(kb_box)
        # Only where the knowledge base is among the person's modules (not an empty box).
        kb_box.setHidden("docs" not in self.session.principal.modules)
        sl.addWidget(hist_box)
        sl.addStretch(1)
        # A short window scrolls the triage column rather than squeezing its fields and buttons.
        side_scroll = scrolling(side)
        # It scrolls up and down only: never narrower than its fields and buttons need, or German's
        # longer words were cut at the right edge with no way to reach them.
        side.ensurePolished()
        side_scroll.setMinimumWidth(side.minimumSizeHint().width() + side_scroll.verticalScrollBar().sizeHint().width())
        main = QWidget()
        ml = QVBoxLayout(main)
        ml.addWidget(self.header)
        ml.addWidget(self.scroller, 3)
        # The conversation is what an agent reads: the composer takes a share, not the most.
        ml.addWidget(self.composer, 2)
        ml.addLayout(row)
        split = QSplitter()
        split.addWidget(main)
        split.addWidget(side_scroll)
        split.setStretchFactor(0, 3)
        lay = QHBoxLayout(self)
        lay.addWidget(split)

        for keys, slot in (
            ("Ctrl+Return", self.send),
            ("Ctrl+Enter", self.send),
            ("Ctrl+I", self.internal.toggle),
            ("Ctrl+S", self.apply_changes),
            ("Ctrl+K", lambda: self.insert_article(text=False)),
            ("Ctrl+Shift+K", lambda: self.insert_article(text=True)),
        ):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        self.tick = QTimer(self)
        self.tick.timeout.connect(self.show_timers)
        self.tick.start(30_000)
        self.reads = Newest()
        self.reload()
        self.run_triage()

    # --- loading ---------------------------------------------------------------------

    def reload(self) -> None:
        ops, call = self.session.ops, self.session.call
        # Reads run on a pool and may finish out of order: only the newest answer is shown.
        asked = self.reads.ask()
        ops.run(call(get_ticket, ticket_id=self.ticket_id), on_success=asked.only(self.show_ticket), parent=self)
        ops.run(call(list_messages, ticket_id=self.ticket_id), on_success=asked.only(self.show_messages), parent=self)

    def show_ticket(self, t: TicketOut) -> None:
        self.ticket = t
        mark = self.tr("  [PROVISIONAL number until synced]") if t.provisional else ""
        self.header.setText(
            self.tr("<b>{t.number}</b>{mark} — {t.subject}<br>{t.requester_name} &lt;{t.requester_email}&gt;").format(
                t=t, mark=mark
            )
        )
        fill_words(self.state, [t.state, *t.allowed_states])
        self.priority.setCurrentIndex(max(0, self.priority.findData(t.priority)))
        self.category.clear()
        self.category.addItem(self.tr("(none)"), None)
        for cid, name in self.desk.categories:
            self.category.addItem(name, cid)
        self.category.setCurrentIndex(max(self.category.findData(t.category_id), 0))
        self.assignee.clear()
        self.assignee.addItem(self.tr("(unassigned)"), None)
        for a in self.desk.agents:
            self.assignee.addItem(a.name, a.id)
        self.assignee.setCurrentIndex(max(self.assignee.findData(t.assignee_id), 0))
        closed = t.state == "closed"
        for w in (self.apply_btn, self.send_btn, self.composer):
            w.setEnabled(not closed)
        self.show_timers()
        self.desk.tabs.setTabText(self.desk.tabs.indexOf(self), t.number)
        if not self._kb_asked:  # once per tab: the articles follow the ticket's subject, not each reload
            self._kb_asked = True
            self.suggest_articles(t)
        self.session.ops.run(
            self.session.call(list_tickets, query=TicketQuery(requester=t.requester_email, limit=20)),
            on_success=self.show_history,
            parent=self,
        )

    # --- knowledge base ---------------------------------------------------------------

    def suggest_articles(self, t: TicketOut) -> None:
        """Ask the knowledge base for published articles about the ticket (its subject and text)."""
        if "docs" not in self.session.principal.modules:
            self.kb_hint.setText(self.tr("Articles: the knowledge base is not among your modules."))
            self._kb_enable(False)
            return
        text = f"{t.subject}\n{getattr(t, 'description', '') or ''}"[:4000]
        self.session.ops.run(
            self.session.call(suggest_documents, query=SuggestQuery(text=text, limit=5)),
            on_success=self.show_articles,
            on_failure=lambda exc: self.kb_hint.setText(self.tr("Articles: {value}").format(value=error_message(exc))),
            parent=self.kb_list,
        )

    def _kb_enable(self, on: bool) -> None:
        for w in (self.kb_list, self.kb_link_btn, self.kb_text_btn):
            w.setEnabled(on)

    def show_articles(self, page: Page[SearchHit]) -> None:
        self.kb_list.clear()
        for hit in page.items:
            item = QListWidgetItem(hit.title)
            item.setData(Qt.ItemDataRole.UserRole, hit)
            item.setToolTip(html.unescape(hit.snippet.replace("<mark>", "").replace("</mark>", "")))
            self.kb_list.addItem(item)
        if page.items:
            self.kb_list.setCurrentRow(0)
            self.kb_hint.setText(self.tr("Ctrl+K inserts a link to the chosen article, Ctrl+Shift+K its text."))
        else:
            self.kb_hint.setText(self.tr("Articles: none match this ticket."))
        self._kb_enable(bool(page.items))

    def article_link(self, hit: SearchHit) -> str:
        base = (self.session.platform_url or "").rstrip("/")
        return f"{hit.title}: {base}/{self.session.tenant.slug}/docs/api/documents/{hit.id}"

    def insert_article(self, *, text: bool) -> None:
        item = self.kb_list.currentItem()
        hit = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if hit is None:
            return
        if not text:
            self._insert(self.article_link(hit))
            return
        self.session.ops.run(
            self.session.call(get_document, id=hit.id),
            on_success=lambda d: self._insert(d.body.strip()),
            on_failure=lambda exc: self.show_error(error_message(exc)),
            parent=self.composer,
        )

    def _insert(self, text: str) -> None:
        """Into the reply at the cursor, on a line of its own."""
        cur = self.composer.textCursor()
        before = self.composer.toPlainText()[: cur.position()]
        if before and not before.endswith("\n"):
            text = "\n" + text
        cur.insertText(text + "\n")
        self.composer.setTextCursor(cur)
        self.composer.setFocus()

    def show_history(self, page: Page[TicketOut]) -> None:
        self.history.clear()
        for t in page.items:
            if t.id != self.ticket_id:
                item = QListWidgetItem(f"{t.number} · {t.state} · {t.subject}")
                item.setData(Qt.ItemDataRole.UserRole, t.id)
                self.history.addItem(item)
        if not self.history.count() and self.ticket is not None:
            self.history.addItem(
                self.tr("No other tickets from {requester_email}.").format(requester_email=self.ticket.requester_email)
            )

    def show_timers(self) -> None:
        t = self.ticket
        if t is None:
            return
        now = datetime.now(UTC)
        self.timers.setText(
            timer_text(self.tr("First response"), t.first_response_due, t.first_response_at, now)
            + "\n"
            + timer_text(self.tr("Resolution"), t.resolution_due, t.resolved_at, now)
        )
        self.timers.setStyleSheet("color: #b00020; font-weight: bold;" if t.sla_breached else "")

    def show_messages(self, messages: MessageList) -> None:
        while self.conversation.count() > 1:
            item = self.conversation.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.deleteLater()
        for m in messages.root:
            self.conversation.insertWidget(self.conversation.count() - 1, MessageView(m))
        QTimer.singleShot(
            0, lambda: self.scroller.verticalScrollBar().setValue(self.scroller.verticalScrollBar().maximum())
        )

    def message_views(self) -> list[MessageView]:
        out = []
        for i in range(self.conversation.count()):
            item = self.conversation.itemAt(i)
            w = item.widget() if item is not None else None
            if isinstance(w, MessageView):
                out.append(w)
        return out

    # --- actions ---------------------------------------------------------------------

    def _style_composer(self, on: bool) -> None:
        self.composer.setStyleSheet(NOTE_COMPOSER if on else "")
        self.send_btn.setText(self.tr("Add note") if on else self.tr("Send"))
        # The empty box says what it is for now: under "Add note" it said "Reply to the customer…".
        self.composer.setPlaceholderText(
            self.tr("Internal note, not sent to the customer… (Ctrl+Enter adds it, Ctrl+I switches to reply)")
            if on
            else self.tr("Reply to the customer… (Ctrl+Enter sends, Ctrl+I switches to internal note)")
        )

    def insert_canned(self, index: int) -> None:
        text = self.canned.itemData(index)
        if text and self.ticket is not None:
            from services.support.tickets import fill  # the service's one filler (auto-replies use it too)

            t = self.ticket
            text = fill(
                text,
                requester_name=t.requester_name,
                ticket_number=t.number,
                subject=t.subject,
                agent_name=self.session.principal.name or "",
            )
            self.composer.insertPlainText(text)
        self.canned.setCurrentIndex(0)

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Attach a file"))
        if path:
            self.attach_path(path)

    def attach_path(self, path: str) -> None:
        from pathlib import Path

        p = Path(path)
        upload = Upload(p.name, "application/octet-stream", p.read_bytes())

        def done(att: AttachmentOut) -> None:
            self.pending_attachments.append(att.id)
            self.attached.setText(self.tr("%n file(s) attached", "", len(self.pending_attachments)))

        self.session.ops.run(
            self.session.call(upload_attachment, query=AttachmentQuery(ticket_id=self.ticket_id), upload=upload),
            on_success=done,
            parent=self.attach_btn,
        )

    def send(self) -> None:
        text = self.composer.toPlainText().strip()
        if not text or not self.send_btn.isEnabled():
            return
        data = {"body": text, "internal": self.internal.isChecked(), "attachment_ids": list(self.pending_attachments)}

        def done(_m: MessageOut) -> None:
            self.composer.clear()
            self.pending_attachments.clear()
            self.attached.clear()
            self.internal.setChecked(False)
            self.send_btn.setEnabled(True)
            self.session.notify(True, self.tr("Note added") if data["internal"] else self.tr("Reply sent"))

        def failed(exc: BaseException) -> None:
            self.send_btn.setEnabled(True)
            self.show_error(getattr(exc, "message", "Sending failed"))

        body = self.session.request(AgentMessageCreate, data, failed)
        if body is None:
            return
        self.send_btn.setEnabled(False)
        self.session.ops.run(
            self.session.call(add_message, ticket_id=self.ticket_id, body=body),
            on_success=done,
            on_failure=failed,
            parent=self.composer,
        )

    def changes(self) -> dict[str, object]:
        t = self.ticket
        if t is None:
            return {}
        out: dict[str, object] = {}
        if self.state.currentData() and self.state.currentData() != t.state:
            out["state"] = self.state.currentData()
        if self.priority.currentData() != t.priority:
            out["priority"] = self.priority.currentData()
        if self.category.currentData() != t.category_id:
            out["category_id"] = self.category.currentData()
        if self.assignee.currentData() != t.assignee_id:
            out["assignee_id"] = self.assignee.currentData()
        return out

    def apply_changes(self) -> None:
        changes = self.changes()
        body = self.session.request(TicketUpdate, changes, parent=self.apply_btn) if changes else None
        if body is None:
            return
        self.session.ops.run(
            self.session.call(update_ticket, ticket_id=self.ticket_id, body=body),
            on_success=self.show_ticket,
            parent=self.apply_btn,
        )

    def run_triage(self) -> None:
        self.session.ops.run(
            self.session.call(triage_ticket, body=TriageRequest(ticket_id=self.ticket_id)),
            on_success=self.show_triage,
            parent=self.triage_summary,
        )

    def show_triage(self, g: TriageOut) -> None:
        self.suggestion = g
        terms = ", ".join(g.matched_terms[:5]) or "none"
        # A score (how strongly the words point there), not a probability of being right.
        if g.category_id is None:
            self.triage_summary.setText(
                self.tr("No suggestion: the evidence is too weak (score {score}).").format(
                    score=fmt_number(g.confidence, 2)
                )
            )
        else:
            self.triage_summary.setText(
                self.tr(
                    "Score {score} · because of: {terms}<br>Category: <b>{g.category_name}</b> (score {category_score})<br>Priority: <b>{priority}</b> (score {priority_score})"
                ).format(
                    g=g,
                    terms=terms,
                    # Numbers in the locale's form and the priority in the person's words ("high" in German before).
                    score=fmt_number(g.confidence, 2),
                    category_score=fmt_number(g.category_confidence, 2),
                    priority=QCoreApplication.translate("TicketWords", g.priority),
                    priority_score=fmt_number(g.priority_confidence, 2),
                )
            )
        t = self.ticket
        offered = g.category_id is not None
        self.triage_category.setText(
            self.tr("Category: {g.category_name}").format(g=g) if offered else self.tr("Category")
        )
        priority = QCoreApplication.translate("TicketWords", g.priority)
        self.triage_priority.setText(
            self.tr("Priority: {priority}").format(priority=priority) if offered else self.tr("Priority")
        )
        self.triage_category.setEnabled(offered and (t is None or g.category_id != t.category_id))
        self.triage_priority.setEnabled(offered and (t is None or g.priority != t.priority))
        for box in (self.triage_category, self.triage_priority):
            box.setChecked(False)
        self._triage_choice()

    def _triage_choice(self) -> None:
        self.triage_accept.setEnabled(self.triage_category.isChecked() or self.triage_priority.isChecked())

    def accept_triage(self) -> None:
        g = self.suggestion
        if g is None or g.category_id is None:
            return
        # Only the ticked fields go into the controls and are saved; the agent can still override them.
        if self.triage_category.isChecked():
            self.category.setCurrentIndex(max(self.category.findData(g.category_id), 0))
        if self.triage_priority.isChecked():
            self.priority.setCurrentIndex(max(0, self.priority.findData(g.priority)))
        self.apply_changes()

    def suggest_reply(self) -> None:
        def show(r: SuggestedReplyOut) -> None:
            if r.reply:
                self.internal.setChecked(False)
                self.composer.setPlainText(r.reply)
                self.reply_btn.setToolTip(
                    self.tr("From {r.source_number} (similarity {score})").format(r=r, score=fmt_number(r.score, 2))
                )
            else:
                self.show_error(self.tr("No similar resolved ticket has a reply yet"))

        self.session.ops.run(
            self.session.call(suggest_reply, body=TriageRequest(ticket_id=self.ticket_id)),
            on_success=show,
            parent=self.reply_btn,
        )

    def show_error(self, message: str) -> None:
        self.desk.status.setText(message)
        self.desk.status.setStyleSheet("color: #b00020;")
