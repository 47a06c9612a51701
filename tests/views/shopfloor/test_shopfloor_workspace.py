"""The shop-floor kiosk with real widgets and real key events: tiles by state, a machine chosen by
scan, a run started, parts counted by scan and by key, a stop reason, an alarm acknowledged."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.workspaces import settle, workspace_factory
from views.shopfloor.workspace import STATE_COLOURS, ReasonDialog, ShopFloorWorkspace

PRS1 = demo_id("mes-machine", "PRS-01")


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., ShopFloorWorkspace]]:
    yield from workspace_factory(runtime, qtbot, ShopFloorWorkspace, "owner@demo.test", (1280, 800))


def scan(qtbot: QtBot, ws: ShopFloorWorkspace, code: str) -> None:
    qtbot.keyClicks(ws.scan_input, code)
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)


def key(qtbot: QtBot, ws: ShopFloorWorkspace, k: Qt.Key) -> None:
    qtbot.keyClick(ws.scan_input, k)


def stop_reasons(qtbot: QtBot, ws: ShopFloorWorkspace) -> ReasonDialog:
    """PRS-01 chosen by scan, then F7: the stop reasons' dialog, shown."""
    qtbot.waitUntil(lambda: len(ws.tiles) >= 4)
    scan(qtbot, ws, "PRS-01")
    qtbot.waitUntil(lambda: ws.live is not None and ws.live.machine.id == PRS1)
    key(qtbot, ws, Qt.Key.Key_F7)
    qtbot.waitUntil(lambda: ws.reason_dialog is not None and ws.reason_dialog.isVisible())
    assert ws.reason_dialog is not None
    return ws.reason_dialog


def test_a_run_on_the_kiosk(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot, runtime: Runtime) -> None:
    ws = make()
    qtbot.waitUntil(lambda: len(ws.tiles) >= 4 and PRS1 in ws.alarmed)
    tile = ws.tiles[PRS1]
    assert "PRS-01" in tile.text() and "DOWN" in tile.text() and "ALARM" in tile.text()
    assert STATE_COLOURS["down"][0] in tile.styleSheet()
    # Every tile in full at 1280 px: as many columns as the widest tile allows, none cut at the edge.
    view = ws.grid_host.parentWidget()
    assert view is not None
    qtbot.waitUntil(lambda: all(t.geometry().right() <= view.width() for t in ws.tiles.values()))
    assert all(t.width() >= t.sizeHint().width() for t in ws.tiles.values())
    scan(qtbot, ws, "prs-01")
    qtbot.waitUntil(lambda: ws.live is not None and ws.live.machine.id == PRS1 and ws.start_btn.isEnabled())
    assert "PRS-01" in ws.machine_title.text() and ws.alarms.count() == 1
    key(qtbot, ws, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: "Cap CP-5 (running)" in ws.run_line.text())
    assert "Started Cap CP-5" in ws.banner.text()
    scan(qtbot, ws, "3*")
    scan(qtbot, ws, "PART-0001")
    qtbot.waitUntil(lambda: "3 of 2,000 good" in ws.run_line.text())
    key(qtbot, ws, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: "1 scrap" in ws.run_line.text())
    key(qtbot, ws, Qt.Key.Key_F8)
    qtbot.waitUntil(lambda: "Alarm E42 acknowledged" in ws.banner.text())
    # The machine stops: F7 asks why, in large buttons.
    key(qtbot, ws, Qt.Key.Key_F7)
    qtbot.waitUntil(lambda: ws.reason_dialog is not None and ws.reason_dialog.isVisible())
    assert ws.reason_dialog is not None
    qtbot.mouseClick(ws.reason_dialog.findChild(type(ws.start_btn), "reason-tooling"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "PRS-01: down, tooling" in ws.banner.text())
    key(qtbot, ws, Qt.Key.Key_F3)
    qtbot.waitUntil(lambda: "Completed Cap CP-5: 3 good, 1 scrap" in ws.banner.text())
    settle(qtbot, ws)
    run = execute(ws.session.ctx(), "mes.runs.get", id=demo_id("mes-run", "caps"))
    assert (run.status, run.good_count, run.scrap_count) == ("completed", 3, 1)
    qtbot.waitUntil(lambda: not ws.good_btn.isEnabled())


def test_counting_without_a_run_is_refused_and_said(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    ws = make()
    qtbot.waitUntil(lambda: len(ws.tiles) >= 4)
    scan(qtbot, ws, "PART-1")  # no machine chosen
    assert "Choose a machine" in ws.banner.text()
    scan(qtbot, ws, "PKG-01")
    qtbot.waitUntil(lambda: ws.live is not None and ws.live.machine.code == "PKG-01")
    key(qtbot, ws, Qt.Key.Key_F1)
    assert "No planned run" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F5)
    assert "Choose a machine with a run" in ws.banner.text()
    assert ws.scan_input.hasFocus()


def test_a_long_stop_reason_wraps_on_its_tile(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    """Seen in the screenshot at 1280x800: the packer's tile read "waiting for ope…"."""
    ws = make()
    settle(qtbot, ws)
    packer = next(m for m in ws.machines if m.code == "PKG-01")
    assert packer.reason == "waiting for operator"
    text = ws.tiles[packer.id].text()
    assert text.endswith("waiting for\noperator") and "…" not in text, text


def test_every_stop_reason_reads_in_full_on_its_button(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    """The walk at 1280x800: F7's buttons read "4 Waiting for operato", "Planned maintenanc"."""
    from tests.views.clipping import clipped_after_layout

    ws = make()
    dlg = stop_reasons(qtbot, ws)
    assert clipped_after_layout(dlg) == []
    dlg.reject()


def test_the_underlined_digit_alone_picks_a_stop_reason(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    """The walk: in F7's dialog "8 Tooling" is underlined, but 8 did nothing (only Alt+8 did)."""
    ws = make()
    dlg = stop_reasons(qtbot, ws)
    qtbot.keyClick(dlg.focusWidget() or dlg, Qt.Key.Key_2)
    assert dlg.reason == "changeover" and not dlg.isVisible()
    qtbot.waitUntil(lambda: "PRS-01: down, changeover" in ws.banner.text())


def test_good_and_scrap_look_off_with_no_run(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    """The walk: "No run in progress", F5 and F6 disabled, yet still in full green and red."""
    from PySide6.QtGui import QColor

    ws = make()
    qtbot.waitUntil(lambda: len(ws.tiles) >= 4)
    scan(qtbot, ws, "PRS-01")  # down, no run
    qtbot.waitUntil(lambda: ws.live is not None and ws.live.machine.id == PRS1)
    assert not ws.good_btn.isEnabled() and not ws.scrap_btn.isEnabled()
    for b, colour in ((ws.good_btn, "#2e7d32"), (ws.scrap_btn, "#c62828")):
        img = b.grab().toImage()
        assert img.pixelColor(12, img.height() // 2) != QColor(colour), b.text()


def test_the_kiosk_in_german(make: Callable[..., ShopFloorWorkspace], qtbot: QtBot) -> None:
    """Seen in the walk: the stop reasons, the run's state, its counts and the banners stayed English
    (and the raw state "down") in a German kiosk; numbers were not grouped ("2000")."""
    from PySide6.QtWidgets import QPushButton

    from services.mes.schemas import STOP_REASONS
    from tests.views.german import german, german_locale
    from views.shopfloor.workspace import REASON_WORDS

    assert set(REASON_WORDS) == set(STOP_REASONS)  # a reason added to the service is listed for translation
    with german("shopfloor", "records"), german_locale():
        ws = make()
        qtbot.waitUntil(lambda: len(ws.tiles) >= 4)
        scan(qtbot, ws, "PRS-01")
        qtbot.waitUntil(lambda: ws.live is not None and ws.start_btn.isEnabled())
        assert "gewählt: Stillstand" in ws.banner.text()
        key(qtbot, ws, Qt.Key.Key_F1)
        qtbot.waitUntil(lambda: "(in Betrieb)" in ws.run_line.text() and "von 2.000 gut" in ws.run_line.text())
        assert "Cap CP-5 gestartet." in ws.banner.text()
        scan(qtbot, ws, "3*")
        scan(qtbot, ws, "PART-0001")
        qtbot.waitUntil(lambda: "3 Gutteile gezählt (PART-0001): 3 gut, 0 Ausschuss." in ws.banner.text())
        key(qtbot, ws, Qt.Key.Key_F7)
        qtbot.waitUntil(lambda: ws.reason_dialog is not None and ws.reason_dialog.isVisible())
        assert ws.reason_dialog is not None
        texts = {b.text() for b in ws.reason_dialog.findChildren(QPushButton)}
        assert "&2 Umrüsten" in texts and "&3 Materialmangel" in texts, texts
        key_target = ws.reason_dialog
        qtbot.keyClick(key_target, Qt.Key.Key_3)
        qtbot.waitUntil(lambda: "PRS-01: Stillstand, Materialmangel." in ws.banner.text())
        qtbot.waitUntil(lambda: "Materialmangel" in ws.tiles[PRS1].text())
        settle(qtbot, ws)


def test_a_part_code_with_braces_is_counted_and_shown_as_scanned(
    make: Callable[..., ShopFloorWorkspace], qtbot: QtBot
) -> None:
    """A scanned code is text: "{r.id}" on a label neither breaks the banner nor shows a run's field."""
    ws = make()
    qtbot.waitUntil(lambda: len(ws.tiles) >= 4)
    scan(qtbot, ws, "PRS-01")
    qtbot.waitUntil(lambda: ws.live is not None and ws.start_btn.isEnabled())
    key(qtbot, ws, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: "Cap CP-5 (running)" in ws.run_line.text())  # the run read back: parts count
    scan(qtbot, ws, "P{r.id}")
    qtbot.waitUntil(lambda: "1 good counted (P{r.id}): 1 good, 0 scrap." in ws.banner.text())
    settle(qtbot, ws)
