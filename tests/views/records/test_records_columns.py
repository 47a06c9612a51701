"""Records' tree and lists fit at 1280x800, in English and in German: each module's first list is opened in
the real workspace and every header and every visible cell is measured against its column (the
same QFontMetrics the view draws with). A header is never cut; a cell whose text does not fit its
column carries the whole value in its tooltip; a list whose columns can fit side by side shows no
horizontal scroll bar and cuts nothing; a list whose headers can fit shows no horizontal scroll bar
either (its long values shortened, each whole in its tooltip)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import nullcontext

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle, QTableView, QTreeWidget, QTreeWidgetItemIterator
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import german
from tests.views.workspaces import app_theme, workspace_factory
from views.records.workspace import RecordsWorkspace

ROWS = 40  # the rows a person sees first (and more): every one of them is measured
SLACK = 1  # a pixel of rounding


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    # In the app's style sheet (its font and scroll bars): a test in Qt's bare style missed a
    # horizontal scroll bar the screenshot showed.
    with app_theme("light"):
        yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _margin(table: QTableView) -> int:
    """The padding a cell's text gets on each side (the style's focus frame margin, plus one)."""
    return table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1


def cuts(table: QTableView) -> tuple[list[str], list[str], int]:
    """(headers cut, cells cut without their whole value in a tooltip, cells cut at all) of the
    table as shown; a column past the view's right edge counts as cut for each of its cells."""
    model, header = table.model(), table.horizontalHeader()
    fm, pad = table.fontMetrics(), 2 * _margin(table)
    right = table.viewport().width()
    bad_headers: list[str] = []
    bad_cells: list[str] = []
    cut = 0
    for c in range(model.columnCount()):
        width = header.sectionSize(c)
        visible = min(width, right - header.sectionViewportPosition(c))
        title = str(model.headerData(c, Qt.Orientation.Horizontal))
        need = header.sectionSizeFromContents(c).width()
        if need > width + SLACK:
            bad_headers.append(f"{title!r}: {width} px of {need}")
        for r in range(min(ROWS, model.rowCount())):
            index = model.index(r, c)
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            if fm.horizontalAdvance(text) + pad <= visible + SLACK:
                continue
            cut += 1
            tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
            if not any(text in line for line in tip.split("\n")):  # a day's date: in its whole moment
                bad_cells.append(f"{title!r} row {r} {text[:40]!r}: {visible} px, no tooltip")
    return bad_headers, bad_cells, cut


def _fits(table: QTableView, values: bool) -> bool:
    """Whether the columns could all stand side by side in the view (with room kept for a vertical
    scroll bar: the next page of rows brings one), at their headers' width or, with ``values``, at
    their values' too. (A header on two lines is measured as shown: the view breaks each it must.)"""
    header = table.horizontalHeader()
    bar = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, table)
    need = 0
    for c in range(table.model().columnCount()):
        head = header.sectionSizeFromContents(c).width()
        need += max(head, table.sizeHintForColumn(c)) if values else head
    return need <= table.maximumViewportSize().width() - bar


def tree_cut(tree: QTreeWidget) -> list[str]:
    """The tree's labels that do not fit its width at their depth (a scroll bar's room kept)."""
    fm, room = tree.fontMetrics(), tree.viewport().width()
    if not tree.verticalScrollBar().isVisible():
        room -= tree.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, tree)
    pad = 2 * (tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1)
    found = []
    it = QTreeWidgetItemIterator(tree)
    while item := it.value():
        rect = tree.visualItemRect(item)
        need = fm.horizontalAdvance(item.text(0)) + pad
        if rect.x() + need > room + SLACK:
            found.append(f"{item.text(0)!r}: from {rect.x()} px, needs {need} of {room}")
        it += 1
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_tree_and_every_modules_first_list_fit_at_1280x800(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, language: str
) -> None:
    with german("records") if language == "de" else nullcontext():
        ws = open_ws()
        ws.window().resize(1280, 800)
        assert tree_cut(ws.tree) == []  # "Dokumentkate…" in German
        modules = list(dict.fromkeys(r.module for r in ws.resources))
        report: list[str] = []
        total = 0
        for module in modules:
            res = ws.resource(module)
            assert res is not None
            ws.show_resource(res.key)
            qtbot.waitUntil(
                lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy, timeout=30_000
            )
            qtbot.waitUntil(
                lambda: ws.model is not None and (ws.model.rowCount() > 0 or ws.model.total == 0), timeout=30_000
            )
            headers, cells, cut = cuts(ws.table)
            total += cut
            scroll = ws.table.horizontalScrollBar().isVisible()
            print(f"{language} {res.key}: {cut} cut cells, headers cut {len(headers)}, h-scroll {scroll}")
            report += [f"{res.key} header {h}" for h in headers] + [f"{res.key} cell {c}" for c in cells]
            if _fits(ws.table, values=True) and (scroll or cut):
                report.append(f"{res.key}: fits, yet {cut} cells cut, horizontal scroll bar {scroll}")
            if _fits(ws.table, values=False) and scroll:
                report.append(f"{res.key}: the headers fit, yet a horizontal scroll bar")
        print(f"{language}: {total} cut cells in {len(modules)} lists")
        assert report == [], report[:20]


def test_names_states_and_dates_read_whole_where_free_text_gives_way(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    """Seen in the README's screenshot: the claims list cut its serial numbers to "SN-…", a state to
    "in …" and every date to "11/25/26 …", while headers wider than their values ("Created at" over
    "11/25/26") kept their room. Now those headers go on two lines, a moment reads as a mail client
    says it (today's time, another day's date; the whole moment in the tooltip), and only the free
    text (e-mail, description) is shortened."""
    import datetime as dt

    from services.core.demo import demo_id

    ws = open_ws()
    ws.window().resize(1280, 800)
    ws.show_resource("aftersale:/claims")
    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy)
    ws.open_record(demo_id("aftersale-claim", "c1"))  # the panel takes its room, as in the screenshot
    qtbot.waitUntil(lambda: ws.record is not None and ws.session.ops.active == 0)
    qtbot.wait(50)  # the panel's and the columns' layout settle
    model, header = ws.model, ws.table.horizontalHeader()
    assert model is not None
    fm, pad = ws.table.fontMetrics(), 2 * _margin(ws.table)
    cut = set()
    for c, name in enumerate(model.columns):
        for r in range(model.rowCount()):
            if fm.horizontalAdvance(str(model.index(r, c).data())) + pad > header.sectionSize(c) + SLACK:
                cut.add(name)
    assert cut <= {"email", "description"}, cut
    assert not ws.table.horizontalScrollBar().isVisible()
    created = model.columns.index("created_at")
    when = model.index(0, created).data(Qt.ItemDataRole.UserRole).created_at
    shown, tip = model.index(0, created).data(), model.index(0, created).data(Qt.ItemDataRole.ToolTipRole)
    assert when.astimezone().date() < dt.date.today() and ":" not in shown  # another day: its date
    assert shown in tip and ":" in tip.split("\n")[0]  # the whole moment in the tooltip


def test_a_moment_in_a_list_is_todays_time_or_another_days_date() -> None:
    import datetime as dt

    from views.records.model import when_in_list

    now = dt.datetime.now().astimezone()
    earlier = now - dt.timedelta(days=3)
    assert ":" in when_in_list(now) and "/" not in when_in_list(now)
    assert "/" in when_in_list(earlier) and ":" not in when_in_list(earlier)
