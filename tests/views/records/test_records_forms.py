"""Records forms as a person fills them: other records picked by name or code (a location by its
code, a category ticked by name), lines in a table, a date on a calendar, free maps as names and
values; no raw JSON and no id in front of the person (ids in a tooltip and behind "Copy id")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from services.core.records import may
from services.inventory.demo import location_id
from tests.services.sign.sign_helpers import make_pdf
from tests.views.workspaces import workspace_factory
from views.records.forms import ModelForm
from views.records.inputs import DateInput, PairsInput, RefList, RefPicker, RowsInput
from views.records.workspace import ActionDialog, RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _open_new(qtbot: QtBot, ws: RecordsWorkspace, key: str) -> ActionDialog:
    ws.show_resource(key)
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    qtbot.mouseClick(ws.new_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(ActionDialog)), timeout=30_000)
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    # Its pickers' choices arrive off the UI thread.
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    return dialog


def _type(qtbot: QtBot, widget: QLineEdit, text: str) -> None:
    widget.setFocus()
    QTest.keyClicks(widget, text)


def test_a_transfer_is_made_with_locations_by_code_and_name_and_lines_in_a_table(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    dialog = _open_new(qtbot, ws, "inventory:/transfers")
    form = dialog.form
    source, target = form.fields["from_location_id"].input, form.fields["to_location_id"].input
    assert isinstance(source, RefPicker) and isinstance(target, RefPicker)
    assert "Main warehouse · MAIN" in [source.itemText(i) for i in range(source.count())]
    _type(qtbot, source.edit(), "MAIN")  # the code, as on the shelf label (or scanned)
    _type(qtbot, target.edit(), "shop fl")  # part of the name
    lines = form.fields["lines"].input
    assert isinstance(lines, RowsInput)
    lines.table.item(0, 0).setText("MUG-CER-01")  # type: ignore[union-attr]
    lines.table.item(0, 1).setText("2")  # type: ignore[union-attr]
    assert not [e for e in dialog.findChildren(QLineEdit) if "JSON" in e.placeholderText()]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)
    made = ws.record
    assert made is not None
    assert made.from_location_id == location_id("demo", "MAIN")  # type: ignore[attr-defined]
    assert made.to_location_id == location_id("demo", "STORE")  # type: ignore[attr-defined]
    assert [(line.sku, line.quantity) for line in made.lines] == [("MUG-CER-01", 2)]  # type: ignore[attr-defined]
    # The record names its locations as people know them; the ids are in tooltips only.
    link = ws.findChild(QPushButton, "link-from_location_id")
    assert link is not None
    qtbot.waitUntil(lambda: link.text() == "Main warehouse · MAIN", timeout=30_000)
    # In a sentence the record's name is a plain noun ("Open this Location" before).
    assert link.toolTip() == f"Open this location (id {location_id('demo', 'MAIN')})"
    shown = [w.text() for w in ws.findChildren(QLabel) if w.isVisibleTo(ws)]
    shown += [w.text() for w in ws.findChildren(QPushButton) if w.isVisibleTo(ws)]
    assert not [t for t in shown if made.id in t or location_id("demo", "MAIN") in t]  # type: ignore[attr-defined]
    ws.copy_id.click()
    assert QApplication.clipboard().text() == made.id  # type: ignore[attr-defined]


def test_a_wrong_location_code_is_named_on_its_field_and_nothing_is_made(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    dialog = _open_new(qtbot, ws, "inventory:/transfers")
    before = ws.model.total  # type: ignore[union-attr]
    form = dialog.form
    _type(qtbot, form.fields["from_location_id"].input.edit(), "NOWHERE-9")  # type: ignore[attr-defined]
    _type(qtbot, form.fields["to_location_id"].input.edit(), "MAIN")  # type: ignore[attr-defined]
    lines = form.fields["lines"].input
    lines.table.item(0, 0).setText("MUG-CER-01")  # type: ignore[attr-defined]
    lines.table.item(0, 1).setText("1")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(
        lambda: dialog.message.isVisible() or form.fields["from_location_id"].error.isVisible(), timeout=8000
    )
    assert dialog.isVisible()
    assert execute(ws.session.ctx(), ws.current.listing, query={"limit": 1}).total == before  # type: ignore[union-attr]


def test_a_product_gets_its_category_by_name_and_attributes_as_names_and_values(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    dialog = _open_new(qtbot, ws, "catalog:/products")
    form = dialog.form
    form.fields["sku"].input.setText("SPK-MINI-01")  # type: ignore[attr-defined]
    form.fields["name"].input.setText("Mini speaker")  # type: ignore[attr-defined]
    cats = form.fields["category_ids"].input
    assert isinstance(cats, RefList)
    qtbot.waitUntil(lambda: cats.count() >= 5, timeout=30_000)
    audio = next(cats.item(i) for i in range(cats.count()) if cats.item(i).text() == "Audio")
    assert audio.toolTip() == "id " + demo_id("catalog-category", "demo", "audio")
    rect = cats.visualItemRect(audio)
    qtbot.mouseClick(cats.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    if audio.checkState() != Qt.CheckState.Checked:  # a click on the text selects; space ticks
        cats.setCurrentItem(audio)
        QTest.keyClick(cats, Qt.Key.Key_Space)
    assert audio.checkState() == Qt.CheckState.Checked
    attrs = form.fields["attributes"].input
    assert isinstance(attrs, PairsInput)
    qtbot.mouseClick(attrs.add, Qt.MouseButton.LeftButton)
    attrs.table.item(0, 0).setText("watts")  # type: ignore[union-attr]
    attrs.table.item(0, 1).setText("5")  # type: ignore[union-attr]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: ws.record is not None and getattr(ws.record, "sku", "") == "SPK-MINI-01", timeout=30_000)
    assert ws.record.category_ids == [demo_id("catalog-category", "demo", "audio")]  # type: ignore[union-attr]
    assert ws.record.attributes == {"watts": 5}  # type: ignore[union-attr]
    names = ws.findChild(QLabel, "names-category_ids")
    assert names is not None
    qtbot.waitUntil(lambda: names.text() == "Audio", timeout=30_000)


def test_a_date_is_picked_on_the_calendar_and_an_optional_one_stays_empty(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    dialog = _open_new(qtbot, ws, "tax:/certificates")
    form = dialog.form
    signed, expires = form.fields["signed_date"].input, form.fields["expiration_date"].input
    assert isinstance(signed, DateInput) and isinstance(expires, DateInput)
    # Empty is an empty field that says "—" (it was Qt's date edit showing "—" as its text).
    assert signed.calendarPopup() and signed.text() == "" and signed.placeholderText() == "—"
    assert signed.value() is None
    # The calendar by keyboard: F4 opens it on today (the date is empty), the arrows move, Enter picks.
    signed.setFocus()
    QTest.keyClick(signed, Qt.Key.Key_F4)
    cal = signed.calendarWidget()
    qtbot.waitUntil(lambda: cal.window().isVisible(), timeout=30_000)
    assert cal.selectedDate() == QDate.currentDate()  # an empty date opens on today, not in 1900
    cal.setSelectedDate(QDate(2026, 1, 14))
    grid = cal.focusWidget() or cal
    QTest.keyClick(grid, Qt.Key.Key_Right)  # a day on
    QTest.keyClick(grid, Qt.Key.Key_Return)  # Enter picks it and closes the calendar
    assert signed.value() == "2026-01-15" and not cal.window().isVisible()
    form.fields["customer_name"].input.setText("Acme Resale")  # type: ignore[attr-defined]
    form.fields["state"].input.setText("CA")  # type: ignore[attr-defined]
    form.fields["exemption_number"].input.setText("SR-1234")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: getattr(ws.record, "exemption_number", "") == "SR-1234", timeout=30_000)
    assert str(ws.record.signed_date) == "2026-01-15"  # type: ignore[union-attr]
    assert ws.record.expiration_date is None  # type: ignore[union-attr]


def test_no_create_or_action_form_asks_for_json_but_a_list_of_free_maps(
    open_ws: Callable[..., RecordsWorkspace],
) -> None:
    ws = open_ws()
    ctx = ws.session.ctx()
    found = []
    for res in ws.resources:
        for op in (res.create, res.update, *res.actions):
            if op is None or op.body is None or not may(ctx, op):
                continue
            ws.current = res
            form = ModelForm(op.body, refs=ws.refs())
            found += [(op.name, e.objectName()) for e in form.findChildren(QLineEdit) if "JSON" in e.placeholderText()]
            form.deleteLater()
    # Left as JSON: a flow's steps and a gateway's machine events (lists of free maps).
    assert set(found) <= {
        ("campaign.flows.create", "field-steps"),
        ("campaign.flows.update", "field-steps"),
        ("mes.machines.events", "field-events"),
    }, found


def test_new_sign_document_from_a_pdf_and_a_file_that_is_not_one_is_refused(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, tmp_path: Path
) -> None:
    ws = open_ws()
    ws.show_resource("sign:/documents")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    assert ws.new_button.isVisibleTo(ws)
    before = ws.model.total  # type: ignore[union-attr]
    # Not a PDF: the service says so in the form, nothing is made.
    fake = tmp_path / "contract.pdf"
    fake.write_bytes(b"hello, not a pdf")
    ws.create_record(upload_path=str(fake))
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    dialog.form.fields["title"].input.setText("Broken")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.message.isVisible(), timeout=30_000)
    assert dialog.isVisible() and "{" not in dialog.message.text()
    dialog.reject()
    assert execute(ws.session.ctx(), ws.current.listing, query={"limit": 1}).total == before  # type: ignore[union-attr]
    # A real PDF with its title: a draft document, opened.
    pdf = tmp_path / "lease.pdf"
    pdf.write_bytes(make_pdf(2))
    ws.create_record(upload_path=str(pdf))
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    assert dialog.windowTitle() == "New document from lease.pdf"
    dialog.form.fields["title"].input.setText("Lease 2027")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: getattr(ws.record, "title", "") == "Lease 2027", timeout=30_000)
    assert ws.record.status == "draft" and ws.record.pages == 2  # type: ignore[union-attr]


def test_a_new_order_is_taken_with_its_lines_and_one_without_lines_is_refused(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    dialog = _open_new(qtbot, ws, "fulfillment:/orders")
    assert dialog.windowTitle() == "New order"
    before = ws.model.total  # type: ignore[union-attr]
    form = dialog.form
    form.fields["customer_name"].input.setText("Counter sale")  # type: ignore[attr-defined]
    dialog.submit()  # no lines
    qtbot.waitUntil(lambda: form.fields["lines"].error.isVisible() or dialog.message.isVisible(), timeout=30_000)
    assert dialog.isVisible()
    assert execute(ws.session.ctx(), "fulfillment.orders.list", query={"limit": 1}).total == before
    lines = form.fields["lines"].input
    assert isinstance(lines, RowsInput)
    lines.table.item(0, 0).setText("MUG-CER-01")  # type: ignore[union-attr]
    lines.table.item(0, 1).setText("2")  # type: ignore[union-attr]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: getattr(ws.record, "customer_name", "") == "Counter sale", timeout=30_000)
    made = ws.record
    assert made.status == "pending" and made.order_number.startswith("SO-")  # type: ignore[union-attr]
    assert [(li.sku, li.quantity) for li in made.lines] == [("MUG-CER-01", 2)]  # type: ignore[union-attr]


def test_a_variant_form_names_its_kind_once_and_in_words(qtbot: QtBot) -> None:
    """The German walk ("Auftrag kommissionieren…"): "Arbeitsgang: pick", and a second
    "Arbeitsgang" label under it with no field beside it."""
    from PySide6.QtWidgets import QLabel

    from services.fulfillment.schemas import OperationRequest
    from views.records.forms import label_of

    form = ModelForm(OperationRequest)
    qtbot.addWidget(form)
    form.show()
    shown = [lbl for lbl in form.findChildren(QLabel) if lbl.isVisibleTo(form) and lbl.text() == label_of("operation")]
    assert len(shown) == 1
    assert form.kind is not None and form.kind.findData("pick") >= 0
    assert form.value()["operation"] == form.kind.currentData()
