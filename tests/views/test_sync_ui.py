"""The shell's sync: the status-bar indicator, the Sync panel, its issues and registration,
driven through real widgets, on a qasync loop, against a real platform server (uvicorn on 127.0.0.1)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from app.desktop import _demo_port, link_demo_stations
from local_db.models import OutboxEntry
from local_db.models.support import SupportMessage, SupportTicket
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.sync import station as st
from services.sync.engine import SyncStatus
from services.sync.station import Issue
from tests.conftest import LiveServer
from tests.sync.conftest import Station, new_station_dir, owner_token, register
from tests.views.test_shell import make_shell, sign_in
from views.credentials import CredentialStore
from views.shell.sync_panel import SyncPanel, describe, status_text, why_text
from views.shell.window import ShellWindow

T = TypeVar("T")
CLOSED = "http://127.0.0.1:9"  # nothing listens there: the platform "does not answer"
TICKET = "App crashes when opening orders"
SO_1021 = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # packed in the demo data  # an open ticket of the demo data


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    """The app's qasync loop, marked running: every qtbot wait drives its tasks, as in the app."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    # Not loop.stop(): it also calls QApplication.exit(), which (no exec() running) leaves Qt's
    # quit flag set, and every later test's event loop would return at once.
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    asyncio.events._set_running_loop(None)
    loop.close()
    asyncio.set_event_loop(None)


def off_loop(fn: Callable[[], T]) -> T:
    """Blocking work (another station's sync) in a thread: this thread's asyncio loop is the app's."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result(timeout=30)


def tenant_id(rt: Runtime, slug: str = "demo") -> str:
    return auth.load_tenant(rt.db, slug).id


def ctx(rt: Runtime, email: str = "admin@demo.test") -> Ctx:
    t = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, t, auth.user_principal(rt.db, demo_id("user", email), t))


def ticket_id(rt: Runtime, subject: str = TICKET) -> str:
    with rt.db.reading(tenant_id(rt)) as s:
        return str(s.execute(select(SupportTicket.id).where(SupportTicket.subject == subject)).scalar_one())


def syncing_shell(qtbot: QtBot, rt: Runtime, prefs: Path, loop: asyncio.AbstractEventLoop, url: str) -> ShellWindow:
    w = ShellWindow(prefs, runtime=rt, credentials=CredentialStore(prefs, use_keyring=False), platform_url=url)

    def quiesce(w: ShellWindow) -> None:
        # Before pytest-qt closes the window: stop the engine (its connections close on the loop) and
        # let every call in flight answer, so none answers into a deleted window or a closed database.
        w.sign_out()
        qtbot.waitUntil(lambda: not w.sync.stops and w.ops.active == 0, timeout=30_000)  # slow under load

    qtbot.addWidget(w, before_close_func=quiesce)
    w.resize(1100, 750)
    w.show()
    w.ops.set_loop(loop)
    # A short round interval: a wake that lands while a round runs is otherwise only seen after 15 s.
    w.sync.interval = 2.0
    return w


def synced(w: ShellWindow) -> bool:
    s = w.sync.status
    return s is not None and s.state == "idle"


# --- the words --------------------------------------------------------------------------------------


def test_indicator_words_for_each_state() -> None:
    at = datetime.now(UTC)
    assert status_text(SyncStatus("offline", pending=37)) == ("Offline · 37 changes waiting", "offline")
    assert status_text(SyncStatus("offline", pending=1)) == ("Offline · 1 change waiting", "offline")
    assert status_text(SyncStatus("syncing", pulled=1200, to_pull=50000)) == ("Syncing… 1,200 of 50,000", "busy")
    assert status_text(SyncStatus("error", message="the platform failed (HTTP 500)")) == (
        "Sync error: the platform failed (HTTP 500)",
        "error",
    )
    text, tone = status_text(SyncStatus("idle", last_sync_at=at))
    assert text == f"Synced {at.astimezone():%H:%M} · nothing waiting" and tone == "ok"
    assert status_text(SyncStatus("unlinked"))[0] == "Not registered with the platform"
    # A change committed since the engine counted: the fresher count wins.
    assert status_text(SyncStatus("idle", last_sync_at=at), pending=2)[0].endswith("· 2 changes waiting")

    conflict = Issue("e1", 7, "fulfillment.orders.operate", "POST",
                     "/demo/fulfillment/api/orders/0e53b15f-2b2e-57bb-8a50-f04c6b372262/operations", "conflict",
                     "CONFLICT", "cannot ship a order that is shipped",
                     {"current_state": "shipped", "action": "ship"}, at)  # fmt: skip
    assert describe(conflict) == "Ship order 0e53b15f"
    assert "Cannot ship a order that is shipped" in why_text(conflict)
    assert "on the platform it is now shipped" in why_text(conflict)


def test_without_a_loop_there_is_no_engine_and_the_shell_works_as_before(
    qtbot: QtBot, station: Runtime, tmp_path: Path
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    sign_in(qtbot, w, "owner@demo.test")
    assert w.session is not None and w.sync.engine is None and w.sync.status is None
    qtbot.waitUntil(lambda: w.sync.pending is not None)
    assert w.sync_label.text() == "Offline · nothing waiting"  # without an engine nothing is sent
    w.sync_action.trigger()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel)
    qtbot.waitUntil(lambda: panel.loaded)
    assert not panel.sync_now_button.isEnabled()
    assert "Sync is off" not in panel.message.text()
    assert "started offline" in panel.message.text()  # why nothing is sent, in words
    assert "accepted every change" not in panel.issues_hint.text()  # nothing was ever sent
    w.ops.wait()


def test_offline_the_panel_lists_what_waits_in_words(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    c = ctx(station)
    execute(c, "fulfillment.orders.operate", body={"operation": "ship"}, id=SO_1021)
    execute(c, "support.messages.create", body={"body": "on its way", "internal": False}, ticket_id=ticket_id(station))
    execute(c, "support.messages.create", body={"body": "told them", "internal": True}, ticket_id=ticket_id(station))
    w = make_shell(qtbot, station, tmp_path / "prefs")
    sign_in(qtbot, w, "admin@demo.test")
    qtbot.waitUntil(lambda: w.sync_label.text() == "Offline · 3 changes waiting")
    w.open_sync_panel()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel)
    qtbot.waitUntil(lambda: panel.loaded)
    with station.db.reading(tenant_id(station)) as s:
        number = s.get(SupportTicket, ticket_id(station)).number  # type: ignore[union-attr]
    assert panel.waiting_list.text().splitlines() == [
        "Ship order SO-1021",
        f"Reply on ticket {number}",
        f"Note on ticket {number}",
    ]
    assert panel.pending.text() == "3 changes waiting"
    assert panel.state_pill.text() == w.sync_label.text() == "Offline · 3 changes waiting"  # one voice
    assert "pending" not in w.sync_label.text()
    w.ops.wait()


def test_the_sign_in_screen_asks_again_until_the_platform_answers(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", offline=False, platform_url=CLOSED)
    qtbot.waitUntil(lambda: w.connection == "offline", timeout=30_000)
    assert "does not answer yet" in w.signin.platform_line.text()
    assert w.sync_label.text() == "Offline · nothing waiting"
    # The (embedded) platform comes up: no one touches the window, it says so within seconds,
    # and the status bar says the same as the card (sync itself starts with a session).
    w.prefs.set("platform_url", server.url)
    qtbot.waitUntil(lambda: w.connection == "online", timeout=30_000)
    assert w.signin.platform_line.text() == f"Platform {server.url} is reachable."
    qtbot.waitUntil(lambda: w.sync_label.text() == "Online · nothing waiting", timeout=30_000)
    w.ops.wait()


def test_the_offline_notice_goes_when_the_platform_answers(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", offline=False, platform_url=CLOSED)
    qtbot.waitUntil(lambda: w.connection == "offline", timeout=30_000)
    sign_in(qtbot, w, "admin@demo.test")
    assert "does not answer" in w.feedback_label.text()
    w.prefs.set("platform_url", server.url)
    w.check_platform()
    qtbot.waitUntil(lambda: w.connection == "online", timeout=30_000)
    assert "does not answer" not in w.feedback_label.text()  # no stale warning beside the indicator
    w.ops.wait()


def test_in_a_kiosk_the_indicator_keeps_its_words_beside_a_long_message(
    qtbot: QtBot, station: Runtime, tmp_path: Path
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    w.resize(1024, 700)
    sign_in(qtbot, w, "admin@demo.test")
    qtbot.waitUntil(lambda: w.sync.pending is not None)
    w.notify(False, "A very long message about the last scan that would fill the whole status bar " * 4)
    qtbot.wait(50)  # a layout pass
    assert w.sync_label.isVisible() and w.sync_label.text() == "Offline · nothing waiting"
    assert w.sync_label.width() >= w.sync_label.sizeHint().width()
    w._may_close = True
    w.ops.wait()


# --- the indicator ----------------------------------------------------------------------------------


def test_offline_says_how_many_changes_wait_and_a_new_change_wakes_the_engine(
    qtbot: QtBot, station: Runtime, tmp_path: Path, qloop: asyncio.AbstractEventLoop
) -> None:
    st.save_link(station, tenant_id(station), CLOSED, station.station_id, "sst_not-used")
    tid = ticket_id(station)
    for i in range(2):
        execute(ctx(station), "support.messages.create", body={"body": f"note {i}", "internal": True}, ticket_id=tid)
    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, CLOSED)
    sign_in(qtbot, w, "admin@demo.test")
    assert w.sync.engine is not None
    qtbot.waitUntil(lambda: w.sync_label.text() == "Offline · 2 changes waiting", timeout=30_000)
    assert w.sync.tone == "offline" and not w.sync_issues.isVisible()
    assert "#e5e7eb" in w.sync_label.styleSheet()  # the offline colour, not the synced green

    # A change made here (a worker thread commits it): the after-commit hook wakes the engine through the loop.
    engine = w.sync.engine
    woken: list[bool] = []
    wake = engine.wake
    engine.wake = lambda: (woken.append(True), wake())[1]  # type: ignore[method-assign]
    w.ops.run(w.session.call("support.messages.create", body={"body": "third", "internal": True}, ticket_id=tid),  # type: ignore[union-attr]
              write=True)  # fmt: skip
    qtbot.waitUntil(lambda: w.sync_label.text() == "Offline · 3 changes waiting", timeout=30_000)
    qtbot.waitUntil(lambda: bool(woken), timeout=30_000)


def test_a_change_is_synced_and_the_indicator_says_so(
    qtbot: QtBot,
    station: Runtime,
    server: LiveServer,
    tmp_path: Path,
    qloop: asyncio.AbstractEventLoop,
) -> None:
    st.save_link(station, tenant_id(station), server.url, station.station_id, register(server.url, station.station_id))
    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, server.url)
    sign_in(qtbot, w, "admin@demo.test")
    qtbot.waitUntil(lambda: synced(w), timeout=30_000)
    assert w.sync_label.text().startswith("Synced ") and w.sync_label.text().endswith("· nothing waiting")
    assert w.sync.tone == "ok" and "#dcfce7" in w.sync_label.styleSheet()

    session = w.session
    assert session is not None
    made: list[Any] = []
    w.ops.run(session.call("support.messages.create", body={"body": "sent from the shell", "internal": False},
                           ticket_id=ticket_id(station)), on_success=made.append, write=True)  # fmt: skip
    qtbot.waitUntil(lambda: bool(made), timeout=30_000)
    # Woken by the commit: pushed, and the platform has it.
    platform = server.runtime
    qtbot.waitUntil(lambda: _platform_has_message(platform, made[0].id), timeout=30_000)
    qtbot.waitUntil(lambda: synced(w) and w.sync_label.text().endswith("· nothing waiting"), timeout=30_000)
    assert st.pending_count(station, session.tenant.id) == 0


def _platform_has_message(rt: Runtime, message_id: str) -> bool:
    with rt.db.reading(tenant_id(rt)) as s:
        return s.get(SupportMessage, message_id) is not None


# --- sync issues ------------------------------------------------------------------------------------


def test_a_conflict_shows_in_the_panel_and_keep_theirs_resolves_it(
    qtbot: QtBot,
    station: Runtime,
    server: LiveServer,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    qloop: asyncio.AbstractEventLoop,
) -> None:
    st.save_link(station, tenant_id(station), server.url, station.station_id, register(server.url, station.station_id))
    tid = ticket_id(station)
    # Station B resolves and closes the ticket, and syncs.
    b = Station(new_station_dir(tmp_path, "desk-b", tmp_path_factory), "desk-b")
    try:
        b.link(server.url)
        b.do("support.tickets.update", body={"state": "resolved"}, ticket_id=tid)
        b.do("support.tickets.update", body={"state": "closed"}, ticket_id=tid)
        assert off_loop(b.sync).state == "idle"
    finally:
        b.close()
    # This station replied meanwhile, before it synced.
    late = execute(ctx(station), "support.messages.create", body={"body": "late answer", "internal": False},
                   ticket_id=tid)  # fmt: skip

    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, server.url)
    changes: list[str] = []
    w.ops.did_change.connect(changes.append)
    sign_in(qtbot, w, "admin@demo.test")
    qtbot.waitUntil(lambda: w.sync_issues.isVisible(), timeout=30_000)
    assert w.sync_issues.text() == "1 sync issue"
    assert w.sync.summary.endswith("· 1 sync issue")
    assert "#fef3c7" in w.sync_issues.styleSheet()  # the warning colour

    w.sync_issues.click()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel) and panel.isVisible()
    qtbot.waitUntil(lambda: len(panel.cards) == 1, timeout=30_000)
    card = panel.cards[0]
    with station.db.reading(tenant_id(station)) as s:
        number = s.get(SupportTicket, tid).number  # type: ignore[union-attr]
    assert card.title.text() == f"Reply on ticket {number}"  # the number people know, not the id
    assert "Conflict" in card.meta.text()
    assert "now closed" in card.why.text() and "CONFLICT" in card.why.text()
    assert set(card.buttons) == {"keep_theirs", "retry"}
    assert [b.text() for b in card.buttons.values()] == ["Keep theirs", "Retry"]
    assert panel.platform.text() == server.url and panel.station.text() == station.station_id

    card.buttons["keep_theirs"].click()
    qtbot.waitUntil(lambda: not panel.cards and panel.loaded and not w.sync_issues.isVisible(), timeout=30_000)
    # The decision is made, then the platform's version is taken: done when the person is told.
    qtbot.waitUntil(lambda: "Kept the platform's version" in w.feedback_label.text(), timeout=30_000)
    assert "No sync issues" in panel.issues_hint.text()
    # The refused reply is gone here (the platform's version), the entry is set aside, the helpdesk reloads.
    entry = _entry_id(station, late.id)
    with station.db.reading(tenant_id(station)) as s:
        assert s.get(SupportMessage, late.id) is None
        assert s.execute(select(OutboxEntry.status).where(OutboxEntry.id == entry)).scalar_one() == "discarded"
    assert "support.messages.create" in changes
    assert "Kept the platform's version" in w.feedback_label.text()


def _entry_id(rt: Runtime, record_id: str) -> str:
    with rt.db.reading(tenant_id(rt)) as s:
        for e in s.execute(select(OutboxEntry)).scalars():
            if record_id in (e.ids or []):
                return str(e.id)
    raise AssertionError("no outbox entry made that record")


# --- registration -----------------------------------------------------------------------------------


def test_an_owner_registers_the_station_from_the_panel_and_a_refusal_is_said(
    qtbot: QtBot,
    station: Runtime,
    server: LiveServer,
    tmp_path: Path,
    qloop: asyncio.AbstractEventLoop,
) -> None:
    register(server.url, station.station_id)  # already known there: the first try is refused
    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, server.url)
    sign_in(qtbot, w, "owner@demo.test")
    qtbot.waitUntil(lambda: w.sync_label.text() == "Not registered with the platform", timeout=30_000)
    qtbot.waitUntil(lambda: w.credentials.get("platform-token:owner@demo.test") is not None, timeout=30_000)

    w.sync_action.trigger()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel)
    qtbot.waitUntil(lambda: panel.loaded and panel.register_button.isVisible(), timeout=30_000)
    assert "not registered" in panel.platform.text()
    panel.register_button.click()
    qtbot.waitUntil(lambda: "already registered" in panel.message.text(), timeout=30_000)
    assert panel.message.property("role") == "message-error" and panel.register_button.isEnabled()
    assert st.link_for(station, tenant_id(station)) is None

    # Revoked on the platform: now it goes through and the station syncs.
    r = httpx.delete(f"{server.url}/api/tenants/demo/sync/stations/{station.station_id}",
                     headers={"Authorization": f"Bearer {owner_token(server.url)}"}, timeout=10)  # fmt: skip
    assert r.status_code == 200, r.text
    panel.register_button.click()
    qtbot.waitUntil(lambda: synced(w), timeout=30_000)
    assert w.sync_label.text().startswith("Synced ")
    qtbot.waitUntil(lambda: not panel.register_button.isVisible(), timeout=30_000)
    assert panel.platform.text() == server.url
    link = st.link_for(station, tenant_id(station))
    assert link is not None and link.secret.startswith("sst_")


def test_an_operator_is_not_offered_registration(
    qtbot: QtBot, station: Runtime, tmp_path: Path, qloop: asyncio.AbstractEventLoop
) -> None:
    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, CLOSED)
    sign_in(qtbot, w, "operator@demo.test")
    qtbot.waitUntil(lambda: w.sync_label.text() == "Not registered with the platform", timeout=30_000)
    w.open_sync_panel()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel)
    qtbot.waitUntil(lambda: panel.loaded, timeout=30_000)
    assert not panel.register_button.isVisible()
    assert "owner or admin" in panel.note.text()


# --- the demo ---------------------------------------------------------------------------------------


def test_demo_links_each_demo_tenant_once(station: Runtime, server: LiveServer) -> None:
    assert asyncio.run(link_demo_stations(station, server.url)) == ["demo", "other"]
    for slug in ("demo", "other"):
        link = st.link_for(station, tenant_id(station, slug))
        assert link is not None and link.platform_url == server.url and link.station_id == station.station_id
    assert asyncio.run(link_demo_stations(station, server.url)) == []  # linked already: nothing to do
    # The embedded server came up on another port: the links follow it.
    moved = server.url.replace("127.0.0.1", "localhost")
    assert asyncio.run(link_demo_stations(station, moved)) == ["demo", "other"]


def test_demo_linking_gives_up_quietly_when_the_platform_never_answers(station: Runtime) -> None:
    assert asyncio.run(link_demo_stations(station, CLOSED, attempts=3, delay=0.01)) == []
    assert st.links(station) == []


def test_the_embedded_platform_keeps_its_port_between_runs(tmp_path: Path) -> None:
    first = _demo_port(tmp_path)
    assert _demo_port(tmp_path) == first  # free again: the same URL, so the station's link still fits
    (tmp_path / "platform" / "port").write_text("not a port")
    assert 0 < _demo_port(tmp_path) < 65536


# --- a difference from the platform, and a full re-download ----------------------------------------


def test_a_difference_is_shown_by_table_and_a_person_can_download_everything_again(
    qtbot: QtBot,
    station: Runtime,
    server: LiveServer,
    tmp_path: Path,
    qloop: asyncio.AbstractEventLoop,
) -> None:
    from sqlalchemy import text

    tid = tenant_id(station)
    st.save_link(station, tid, server.url, station.station_id, register(server.url, station.station_id))

    async def first_round() -> None:
        from services.sync.engine import SyncEngine

        e = SyncEngine(station, tid)
        try:
            assert (await e.sync_once()).difference == {}
        finally:
            await e.stop()

    off_loop(lambda: asyncio.run(first_round()))  # caught up: the next pull brings nothing back
    with station.db.transaction(tid) as s:  # records lost here behind the sync's back
        s.execute(text("DELETE FROM support_messages WHERE tenant_id = :t"), {"t": tid})
    w = syncing_shell(qtbot, station, tmp_path / "prefs", qloop, server.url)
    sign_in(qtbot, w, "admin@demo.test")
    qtbot.waitUntil(lambda: synced(w) and bool(w.sync.status and w.sync.status.difference), timeout=30_000)
    assert w.sync.status is not None and set(w.sync.status.difference) == {"support_messages"}

    w.sync_label.click()
    panel = w.sync_panel
    assert isinstance(panel, SyncPanel) and panel.isVisible()
    assert panel.difference.isVisible()
    assert panel.difference.text().startswith("Records differed from the platform's at ")
    assert "support_messages (" in panel.difference.text() and "fetched)" in panel.difference.text()
    with station.db.reading(tid) as s:
        assert s.execute(text("SELECT COUNT(*) FROM support_messages")).scalar_one() > 0  # repaired

    assert panel.resync_button.isVisible() and panel.resync_button.isEnabled()
    seen: list[str] = []
    w.sync.changed.connect(lambda: seen.append(w.sync.text))
    panel.resync_button.click()
    qtbot.waitUntil(lambda: "Every record was downloaded" in w.feedback_label.text(), timeout=30_000)
    # Its progress was said as it went, and the records were never cleared meanwhile.
    assert any(t.startswith("Downloading everything again…") for t in seen)
    assert w.sync.status is not None and w.sync.status.difference == {} and not w.sync.status.resyncing
    assert not panel.difference.isVisible()
