"""Dashboard titles are stored data: the demo's seeded dashboards and cards read German on a German
desktop, while a renamed dashboard, an edited card and a person's own dashboard show what was typed."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from pytestqt.qtbot import QtBot

from services.analytics.demo import DASHBOARDS
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.german import entries, german
from tests.views.workspaces import settle, workspace_factory
from views.dashboards.titles import CONTEXT, WORDS
from views.dashboards.workspace import DashboardsWorkspace

OPERATIONS = demo_id("analytics-dashboard", "operations")


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., DashboardsWorkspace]]:
    yield from workspace_factory(runtime, qtbot, DashboardsWorkspace, "owner@demo.test", (1280, 800))


def _shown(qtbot: QtBot, ws: DashboardsWorkspace) -> tuple[list[str], str, list[str]]:
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: bool(ws.cards), timeout=30_000)
    picker = [ws.picker.itemText(i) for i in range(ws.picker.count())]
    return picker, ws.heading.text(), [c.title for c in ws.cards]


def test_every_seeded_title_is_listed_and_has_german() -> None:
    seeded = {name for _k, name, _w in DASHBOARDS} | {str(w["title"]) for _k, _n, ws in DASHBOARDS for w in ws}
    assert seeded <= set(WORDS), seeded - set(WORDS)  # the demo gained a card: list it in titles.WORDS
    german_of = {src: forms[0] for ctx, src, forms, done in entries("dashboards") if ctx == CONTEXT and done}
    assert all(german_of.get(t, t) != t for t in seeded), {t for t in seeded if german_of.get(t, t) == t}


def test_seeded_dashboards_read_german_and_english(make: Callable[..., DashboardsWorkspace], qtbot: QtBot) -> None:
    picker, heading, cards = _shown(qtbot, make())
    assert picker == ["Operations", "Sales"] and heading == "Operations"
    assert "Orders shipped per day" in cards and "Tickets opened" in cards
    with german("dashboards"):
        ws = make()
        picker, heading, cards = _shown(qtbot, ws)
        assert picker == ["Betrieb", "Verkauf"] and heading == "Betrieb"
        assert cards == [
            "Versendete Aufträge pro Tag",
            "Eröffnete Tickets",
            "Angenommene Ankäufe",
            "QR-Scans pro Woche",
        ]
        # The stored data stays as stored (what Records, the API and the tests key on).
        assert [c.data.title for c in ws.cards][0] == "Orders shipped per day"


def test_a_persons_titles_show_as_typed_in_german(make: Callable[..., DashboardsWorkspace], qtbot: QtBot) -> None:
    ws = make()
    ctx = ws.session.ctx
    board = execute(ctx(), "analytics.dashboards.get", id=OPERATIONS)
    widgets = [dict(w) for w in board.widgets]
    widgets[0]["title"] = "Pakete raus"
    execute(ctx(), "analytics.dashboards.update", id=OPERATIONS, body={"name": "Lager Nord", "widgets": widgets})
    # A dashboard a person made with a seeded name and card title is theirs: never translated.
    execute(ctx(), "analytics.dashboards.create", body={"name": "Sales", "widgets": [widgets[1]]})
    with german("dashboards"):
        ws = make()
        picker, heading, cards = _shown(qtbot, ws)
        assert picker == ["Lager Nord", "Verkauf", "Sales"] and heading == "Lager Nord"
        assert cards[:2] == ["Pakete raus", "Eröffnete Tickets"]  # the edited card as typed, the others German
        ws.picker.setCurrentIndex(2)
        qtbot.waitUntil(lambda: ws.heading.text() == "Sales", timeout=30_000)
        settle(qtbot, ws)
        assert [c.title for c in ws.cards] == ["Tickets opened"]
