"""The helpdesk workspace with real widgets on a station database: answer, note, triage, canned responses."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD, demo_id
from tests.views.german import app_language
from tests.views.workspaces import hold_answers
from views.base import StationSession
from views.helpdesk.ticket import MessageView, TicketTab, humanize, timer_text
from views.helpdesk.workspace import WORKSPACE, HelpdeskWorkspace
from views.ops import OpRunner

CHARGED_TWICE = demo_id("support-ticket", "1")  # open, billing, "Charged twice for order 1042"


def make_session(rt: Runtime, email: str = "operator@demo.test") -> StationSession:
    tenant = auth.load_tenant(rt.db, "demo")
    user = auth.authenticate_password(rt.db, email, DEMO_PASSWORD)
    return StationSession(rt, tenant, auth.user_principal(rt.db, user.id, tenant), OpRunner())


@pytest.fixture
def desk(qtbot: QtBot, station: Runtime) -> Iterator[HelpdeskWorkspace]:
    # A canned response to offer (set by an admin, as the helpdesk configuration).
    admin = make_session(station, "admin@demo.test")
    cfg = execute(admin.ctx(), "support.helpdesk.get").model_dump(mode="json")
    cfg["canned_responses"] = [
        {"id": "refund", "title": "Refund issued", "body": "Hello {requester_name}, refund issued."}
    ]
    execute(admin.ctx(), "support.helpdesk.put", body=cfg)
    w = WORKSPACE(make_session(station))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.counts is not None and bool(w.categories) and bool(w.agents) and bool(w.canned))
    yield w
    w.session.ops.wait()


def open_tab(qtbot: QtBot, w: HelpdeskWorkspace, ticket_id: str = CHARGED_TWICE) -> TicketTab:
    tab = w.open_ticket(ticket_id)
    qtbot.waitUntil(lambda: tab.ticket is not None and len(tab.message_views()) >= 1 and tab.suggestion is not None)
    return tab


def test_the_queue_chosen_last_wins_over_a_late_answer(
    qtbot: QtBot, desk: HelpdeskWorkspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the full run: the list asked for first (the "new" queue, at start) answered after the
    one chosen next, and its tickets were shown under "Waiting on customer". Here the first answer is
    held until the second has been drawn."""
    from services.support.tickets import list_tickets

    qtbot.waitUntil(lambda: desk.session.ops.active == 0, timeout=30_000)  # the start's own list is in
    release = hold_answers(monkeypatch, desk.session, list_tickets, lambda q: getattr(q, "queue", None) == "all")
    desk.queues.setCurrentRow(desk.queues.count() - 1)  # all tickets: held
    desk.queues.setCurrentRow(3)  # waiting on customer
    qtbot.waitUntil(lambda: desk.table.rowCount() == 4, timeout=30_000)
    qtbot.waitUntil(lambda: desk.session.ops.active == 1, timeout=30_000)  # only the held answer is out
    release.set()
    qtbot.waitUntil(lambda: desk.session.ops.active == 0, timeout=30_000)  # the held answer came back
    assert desk.table.rowCount() == 4 and {desk.table.item(r, 3).text() for r in range(4)} == {"pending"}


def test_queues_show_counts_and_the_list_opens_tabs(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    assert WORKSPACE.name == "helpdesk" and WORKSPACE.modules == {"support"}
    texts = [desk.queues.item(i).text() for i in range(desk.queues.count())]
    assert texts[3] == "Waiting on customer (4)" and texts[-1] == "All tickets (20)"
    desk.queues.setCurrentRow(3)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 4, timeout=30_000)
    assert {desk.table.item(r, 3).text() for r in range(4)} == {"pending"}
    # A search looks in every queue (here from "Waiting on customer"), and says so.
    desk.search.setText("alice@")
    qtbot.keyClick(desk.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 2)
    assert "in all queues" in desk.status.text()
    assert {desk.table.item(r, 1).text() for r in range(2)} == {"Charged twice for order 1042",
                                                                  "Refund for returned jacket"}  # fmt: skip
    desk._row_opened(0, 0)
    qtbot.waitUntil(lambda: desk.tabs.count() == 1 and desk.tabs.tabText(0).startswith("TKT-"))
    tab = desk.tabs.widget(0)
    assert isinstance(tab, TicketTab) and tab.ticket_id == CHARGED_TWICE
    assert desk.open_ticket(CHARGED_TWICE) is tab and desk.tabs.count() == 1  # one tab per ticket


def test_a_search_marks_no_queue_and_a_queue_chosen_leaves_the_search(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    """Seen in the walk: after Ctrl+F the queue chosen before stayed marked over the search's results
    from every queue, and choosing a queue then still showed the search."""
    desk.queues.setCurrentRow(3)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 4)
    desk.search.setText("alice@")
    qtbot.keyClick(desk.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 2)
    assert desk.queues.currentRow() == -1 and not desk.queues.selectedItems()
    desk.queues.setCurrentRow(3)  # the same queue again: it is shown, the search is left
    qtbot.waitUntil(lambda: desk.table.rowCount() == 4)
    assert desk.search.text() == "" and "in all queues" not in desk.status.text()
    assert {desk.table.item(r, 3).text() for r in range(4)} == {"pending"}
    desk.search.setText("alice@")
    qtbot.keyClick(desk.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 2)
    desk.search.clear()  # an emptied search and Enter: back to the queue, marked again
    qtbot.keyClick(desk.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 4)
    assert desk.queues.currentRow() == 3


def test_answer_with_ctrl_enter_and_note_with_ctrl_i(qtbot: QtBot, desk: HelpdeskWorkspace, station: Runtime) -> None:
    tab = open_tab(qtbot, desk)
    before = len(tab.message_views())
    qtbot.keyClicks(tab.composer, "We refunded the duplicate charge.")
    qtbot.keyClick(tab.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    # The thread may redraw (the commit's notice) before the send's own answer clears the
    # composer: wait for both (the full run once looked between the two).
    qtbot.waitUntil(lambda: len(tab.message_views()) == before + 1 and tab.composer.toPlainText() == "")
    # Views are rebuilt on every reload: read what is needed at once, keep no references.
    reply = tab.message_views()[-1]
    assert reply.kind == "agent" and reply.badge.text() == "Reply"
    reply_style = reply.styleSheet()
    qtbot.keyClick(tab.composer, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert tab.internal.isChecked() and tab.send_btn.text() == "Add note" and "fff4c2" in tab.composer.styleSheet()
    qtbot.keyClicks(tab.composer, "Customer asked twice before.")
    qtbot.mouseClick(tab.send_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(tab.message_views()) == before + 2)
    note = tab.message_views()[-1]
    assert note.badge.text() == "Internal note" and note.property("internal") is True
    assert note.styleSheet() != reply_style and "dashed" in note.styleSheet()
    assert not tab.internal.isChecked()  # back to replies after a note
    stored = execute(desk.session.ctx(), "support.messages.list", ticket_id=CHARGED_TWICE).root
    assert [(m.body, m.internal) for m in stored[-2:]] == [
        ("We refunded the duplicate charge.", False),
        ("Customer asked twice before.", True),
    ]
    # The first public reply stopped the first-response clock.
    qtbot.waitUntil(lambda: "First response: met" in tab.timers.text())
    assert sum(v.kind == "note" for v in tab.message_views() if isinstance(v, MessageView)) == 1
    # Words of a later message find the ticket from the search box (Ctrl+F, type, Enter).
    qtbot.keyClick(desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert desk.search.hasFocus()
    desk.search.clear()
    qtbot.keyClicks(desk.search, "asked twice before")
    qtbot.keyClick(desk.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: desk.table.rowCount() == 1)
    assert desk.table.item(0, 1).text() == "Charged twice for order 1042"


def test_triage_accept_and_suggested_reply(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    tab = open_tab(qtbot, desk)
    text = tab.triage_summary.text()
    assert "Billing" in text and "score" in text.lower() and "%" not in text and "onfidence" not in text
    # Nothing is applied by one click: each field is ticked by choice.
    assert not tab.triage_accept.isEnabled() and not tab.triage_category.isChecked()
    want = tab.suggestion
    before = execute(desk.session.ctx(), "support.tickets.get", ticket_id=CHARGED_TWICE)
    tab.triage_category.setChecked(True)  # the category only; the priority stays as it is
    qtbot.mouseClick(tab.triage_accept, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.ticket.category_id == want.category_id)
    stored = execute(desk.session.ctx(), "support.tickets.get", ticket_id=CHARGED_TWICE)
    assert stored.category_name == "Billing" and stored.priority == before.priority
    assert stored.first_response_due == before.first_response_due
    qtbot.mouseClick(tab.reply_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.composer.toPlainText() != "")
    assert tab.composer.toPlainText().startswith("Hello Alice")


def test_canned_response_state_change_and_closed_ticket(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    tab = open_tab(qtbot, desk)
    tab.canned.setCurrentIndex(1)
    tab.canned.activated.emit(1)
    assert tab.composer.toPlainText() == "Hello Alice Martin, refund issued."
    tab.state.setCurrentText("resolved")
    qtbot.keyClick(tab.composer, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: tab.ticket.state == "resolved")
    tab.state.setCurrentText("closed")
    tab.apply_changes()
    qtbot.waitUntil(lambda: tab.ticket.state == "closed")
    assert not tab.send_btn.isEnabled() and not tab.composer.isEnabled()


def test_timer_texts() -> None:
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert (
        timer_text("First response", now + timedelta(hours=2, minutes=5), None, now)
        == "First response: due in 2 h 5 min"
    )
    assert timer_text("Resolution", now - timedelta(days=1, hours=3), None, now) == "Resolution: BREACHED 1 day 3 h ago"
    assert timer_text("Resolution", now + timedelta(hours=263, minutes=47), None, now) == "Resolution: due in 11 days"
    assert humanize(35 * 60) == "35 min" and humanize(-(2 * 86400 + 13 * 3600)) == "3 days"
    assert timer_text("Resolution", now, now + timedelta(minutes=1), now).startswith("Resolution: met late")


def test_the_demo_has_canned_responses_filled_by_the_service(qtbot: QtBot, station: Runtime) -> None:
    w = WORKSPACE(make_session(station))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: bool(w.canned) and w.counts is not None)
    assert len(w.canned) >= 3
    tab = open_tab(qtbot, w)
    tab.canned.setCurrentIndex(1)
    tab.canned.activated.emit(1)
    text = tab.composer.toPlainText()
    assert "Alice Martin" in text and "Charged twice for order 1042" in text and "{" not in text
    # The requester's other tickets: Alice also asked about a refund.
    qtbot.waitUntil(lambda: tab.history.count() >= 1)
    assert any("Refund for returned jacket" in tab.history.item(i).text() for i in range(tab.history.count()))
    w.session.ops.wait()


def test_the_helpdesk_flow_by_keyboard_as_the_readme_tells_it(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    """Pick a queue, Enter opens a ticket as a tab, Ctrl+Enter sends a reply. Real key events only."""
    desk.queues.setFocus()
    qtbot.keyClick(desk.queues, Qt.Key.Key_Down)  # "Mine"
    qtbot.keyClick(desk.queues, Qt.Key.Key_Up)  # back to "New"
    qtbot.waitUntil(lambda: desk.table.rowCount() > 0)
    qtbot.keyClick(desk.queues, Qt.Key.Key_Return)  # to the queue's tickets
    assert desk.table.hasFocus() and desk.table.currentRow() == 0
    first = desk.table.item(0, 0).data(Qt.ItemDataRole.UserRole)
    qtbot.keyClick(desk.table, Qt.Key.Key_Return)  # opens the ticket as a tab
    qtbot.waitUntil(lambda: desk.tabs.count() == 1)
    tab = desk.tabs.widget(0)
    assert isinstance(tab, TicketTab) and tab.ticket_id == first
    qtbot.waitUntil(lambda: tab.ticket is not None and len(tab.message_views()) >= 1)
    assert tab.composer.hasFocus()
    before = len(tab.message_views())
    qtbot.keyClicks(tab.composer, "Thanks, we are looking into it.")
    qtbot.keyClick(tab.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(tab.message_views()) == before + 1)
    assert tab.message_views()[-1].kind == "agent" and tab.composer.toPlainText() == ""


def test_the_ticket_tab_timers_and_triage_are_german(qtbot: QtBot, station: Runtime, qapp: object) -> None:
    """The German walk of issue 32 read "First response: fällig in 4 h", "Resolution: fällig in
    3 days", "Priorität: high (Wert 0.70)" and an ISO time on each message."""
    from PySide6.QtGui import QFontMetrics

    with app_language("de"):
        w = WORKSPACE(make_session(station))
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        tab = open_tab(qtbot, w)
        timers = tab.timers.text()
        assert "First response" not in timers and "Resolution" not in timers and "days" not in timers, timers
        summary = tab.triage_summary.text()
        assert "high" not in summary and "0." not in summary and "0," in summary, summary
        head = tab.message_views()[0].findChildren(QLabel)
        assert not any(re.search(r"\d{4}-\d\d-\d\d", lbl.text()) for lbl in head), [lbl.text() for lbl in head]
        assert humanize(3 * 86400) == "3 Tage"
        # The search box's hint fits at 1280x800 ("Alle Warteschlangen durchsuc…" before).
        hint = w.search.placeholderText()
        assert QFontMetrics(w.search.font()).horizontalAdvance(hint) <= w.search.width() - 24, hint


def test_the_empty_composer_says_note_or_reply_as_ctrl_i_switches(qtbot: QtBot, desk: HelpdeskWorkspace) -> None:
    """The walk: with "Internal note" ticked and the button saying "Add note", the empty box still
    said "Reply to the customer…"."""
    tab = open_tab(qtbot, desk)
    assert tab.composer.placeholderText().startswith("Reply to the customer")
    qtbot.keyClick(tab.composer, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert tab.send_btn.text() == "Add note"
    assert tab.composer.placeholderText().startswith("Internal note, not sent to the customer")
    qtbot.keyClick(tab.composer, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert tab.send_btn.text() == "Send" and tab.composer.placeholderText().startswith("Reply to the customer")


def test_the_german_triage_column_is_not_cut_at_its_right_edge(qtbot: QtBot, station: Runtime, qapp: object) -> None:
    """The German walk at 1280x800 (owner, with the knowledge base): the ticket's right column was
    wider than its place, its boxes and "Übernehmen" cut at the right edge, no scroll bar to reach them."""
    from PySide6.QtWidgets import QScrollArea

    with app_language("de"):
        w = WORKSPACE(make_session(station, "owner@demo.test"))
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        tab = open_tab(qtbot, w)
        area = next(a for a in tab.findChildren(QScrollArea) if a is not tab.scroller)
        side = area.widget()
        assert side is not None
        qtbot.waitUntil(lambda: area.viewport().width() > 0)
        assert side.width() <= area.viewport().width(), (side.width(), area.viewport().width())
        # ... and not by squeezing the queues on the left ("Überall suc…", "Nicht zugewiese").
        from PySide6.QtGui import QFontMetrics

        hint = w.search.placeholderText()
        assert QFontMetrics(w.search.font()).horizontalAdvance(hint) <= w.search.width() - 24, hint
