"""Issue 32 part 2: every date of a Records form worked by keyboard. A date typed in the locale's
form, Up/Down a day, Page Up/Down a month, F4 or Alt+Down the calendar (arrows move, Enter picks,
Esc leaves it), Delete empties an optional one; ISO 8601 is what the form sends; a date that is
not one is refused by the service under its field and nothing is stored."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QDate, QLocale, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.views.workspaces import workspace_factory
from views.records.dates import DateInput, date_format
from views.records.workspace import ActionDialog, RecordsWorkspace


@pytest.fixture
def date_input(qtbot: QtBot) -> Callable[..., DateInput]:
    def make(with_time: bool = False, optional: bool = True) -> DateInput:
        w = DateInput(with_time, optional)
        qtbot.addWidget(w)
        w.show()
        w.activateWindow()
        w.setFocus()
        qtbot.waitUntil(w.hasFocus)
        return w

    return make


def test_typed_in_the_locales_form_and_stepped_by_arrows(date_input: Callable[..., DateInput]) -> None:
    w = date_input()
    assert w.fmt == date_format(False) and "yyyy" in w.fmt
    QTest.keyClicks(w, w.loc.toString(QDate(2026, 1, 15), w.fmt))  # 1/15/2026 where no locale is set
    QTest.keyClick(w, Qt.Key.Key_Return)
    assert w.value() == "2026-01-15" and w.text() == w.loc.toString(QDate(2026, 1, 15), w.fmt)
    QTest.keyClick(w, Qt.Key.Key_Up)
    assert w.value() == "2026-01-16"
    QTest.keyClick(w, Qt.Key.Key_Down)
    QTest.keyClick(w, Qt.Key.Key_Down)
    assert w.value() == "2026-01-14"
    QTest.keyClick(w, Qt.Key.Key_PageUp)
    assert w.value() == "2026-02-14"
    w.selectAll()
    QTest.keyClick(w, Qt.Key.Key_Delete)  # optional: emptied
    assert w.text() == "" and w.value() is None
    QTest.keyClick(w, Qt.Key.Key_Up)  # from empty, the arrows start at today
    assert w.value() == QDate.currentDate().addDays(1).toString("yyyy-MM-dd")


def test_german_dates_are_typed_day_first(date_input: Callable[..., DateInput]) -> None:
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        w = date_input()
        assert w.fmt == "dd.MM.yyyy"
        QTest.keyClicks(w, "5.3.2026")  # without the leading zeros, as people type it
        QTest.keyClick(w, Qt.Key.Key_Return)
        assert w.value() == "2026-03-05" and w.text() == "05.03.2026"
        t = date_input(with_time=True)
        t.selectAll()
        QTest.keyClicks(t, "05.03.2026 08:30")
        assert t.value() is not None and t.date() == QDate(2026, 3, 5)
        assert t.value() == t.date_time().toUTC().toString("yyyy-MM-ddTHH:mm:ssZ")  # type: ignore[union-attr]
    finally:
        QLocale.setDefault(before)


def test_the_calendar_opens_by_key_the_arrows_move_and_enter_picks(
    date_input: Callable[..., DateInput], qtbot: QtBot
) -> None:
    w = date_input()
    w.set_value("2026-01-14")
    cal = w.calendarWidget()
    for opening in (
        (Qt.Key.Key_F4, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier),
    ):
        QTest.keyClick(w, *opening)
        qtbot.waitUntil(lambda: cal.window().isVisible(), timeout=30_000)
        assert cal.selectedDate() == QDate(2026, 1, 14)  # opened on the field's date
        grid = QApplication.focusWidget()
        assert grid is not None and cal.isAncestorOf(grid)  # the keys go to the calendar
        QTest.keyClick(grid, Qt.Key.Key_Escape)  # Esc: closed, nothing changed
        qtbot.waitUntil(lambda: not cal.window().isVisible(), timeout=30_000)
        assert w.value() == "2026-01-14" and w.hasFocus()
    QTest.keyClick(w, Qt.Key.Key_F4)
    qtbot.waitUntil(lambda: cal.window().isVisible(), timeout=30_000)
    grid = QApplication.focusWidget()
    assert grid is not None
    QTest.keyClick(grid, Qt.Key.Key_Down)  # a week on
    QTest.keyClick(grid, Qt.Key.Key_Right)  # and a day
    QTest.keyClick(grid, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not cal.window().isVisible(), timeout=30_000)
    assert w.value() == "2026-01-22" and w.hasFocus()


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def test_a_date_that_is_not_one_is_refused_under_its_field_and_nothing_stored(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("tax:/certificates")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    count = execute(ws.session.ctx(), "tax.certificates.list", query={}).total
    qtbot.mouseClick(ws.new_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(ActionDialog)), timeout=30_000)
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    form = dialog.form
    signed = form.fields["signed_date"].input
    assert isinstance(signed, DateInput)
    form.fields["customer_name"].input.setText("Acme Resale")  # type: ignore[attr-defined]
    form.fields["state"].input.setText("CA")  # type: ignore[attr-defined]
    form.fields["exemption_number"].input.setText("SR-9999")  # type: ignore[attr-defined]
    signed.setFocus()
    QTest.keyClicks(signed, "31/31/2026")  # no such day in any form
    dialog.submit()
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    assert dialog.isVisible()
    error = form.fields["signed_date"].error
    qtbot.waitUntil(lambda: error.isVisible() and bool(error.text()), timeout=30_000)
    assert execute(ws.session.ctx(), "tax.certificates.list", query={}).total == count
