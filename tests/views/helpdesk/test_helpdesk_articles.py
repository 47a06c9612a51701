"""Knowledge-base articles in the helpdesk's ticket tab: suggested for the ticket, Ctrl+K inserts a
link to the chosen article into the reply, Ctrl+Shift+K its text; agents without the module are told."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.helpdesk.test_helpdesk_workspace import make_session
from views.helpdesk.workspace import WORKSPACE, TicketTab

TRACK = demo_id("docs-document", "track-parcel")


def test_articles_for_the_ticket_go_into_the_reply_by_key(qtbot: QtBot, station: Runtime) -> None:
    session = make_session(station, "admin@demo.test")
    ticket = execute(session.ctx(), "support.tickets.list", query={"search": "Tracking number does not"}).items[0]
    w = WORKSPACE(session)
    qtbot.addWidget(w)
    w.show()
    tab: TicketTab = w.open_ticket(ticket.id)
    qtbot.waitUntil(lambda: tab.kb_list.count() > 0, timeout=30_000)
    first = tab.kb_list.item(0).data(Qt.ItemDataRole.UserRole)
    assert first.id == TRACK and tab.kb_list.currentRow() == 0 and "Ctrl+K" in tab.kb_hint.text()
    qtbot.keyClicks(tab.composer, "Hello, this explains it:")
    qtbot.keyClick(tab.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    text = tab.composer.toPlainText()
    assert text.startswith("Hello, this explains it:\nTracking a parcel: ") and text.endswith(
        f"/demo/docs/api/documents/{TRACK}\n"
    )
    tab.composer.clear()
    qtbot.keyClick(tab.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "courier's first scan" in tab.composer.toPlainText(), timeout=30_000)
    assert tab.composer.toPlainText().startswith("# Tracking a parcel")
    w.session.ops.wait()


def test_an_agent_without_the_knowledge_base_sees_no_articles_box(qtbot: QtBot, station: Runtime) -> None:
    w = WORKSPACE(make_session(station, "operator@demo.test"))
    qtbot.addWidget(w)
    w.show()
    tab = w.open_ticket(demo_id("support-ticket", "1"))
    qtbot.waitUntil(lambda: tab.ticket is not None, timeout=30_000)
    assert not tab.kb_box.isVisibleTo(tab) and not tab.kb_link_btn.isEnabled()
    qtbot.keyClick(tab.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert tab.composer.toPlainText() == ""
    w.session.ops.wait()
