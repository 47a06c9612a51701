"""Issue 32 part 2: New… for trade-ins in Records. A customer at the desk hands a device over: the
form is built from the desk's create schema, the customer picked by name or e-mail, the product by
name or its SKU typed or scanned (from the valuations), the condition from its four grades. An IMEI
with a wrong check digit is refused under the field and nothing is stored; put right, the trade-in
is made, submitted for review, and opens in the panel."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.workspaces import workspace_factory
from views.records.inputs import RefPicker
from views.records.workspace import ActionDialog, RecordsWorkspace

SERIAL = "DESK-SN-0001"


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "operator@demo.test", (1280, 800))


def _count(ws: RecordsWorkspace) -> int:
    return int(execute(ws.session.ctx(), "upgrade.admin.submissions.list", query={"search": SERIAL}).total)


def test_new_trade_in_at_the_desk_with_pickers_and_grades(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("upgrade:/admin/submissions")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    assert ws.new_button.isVisibleTo(ws)
    qtbot.mouseClick(ws.new_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(ActionDialog)), timeout=30_000)
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    form = dialog.form
    customer, product = form.fields["customer_id"].input, form.fields["product_id"].input
    condition = form.fields["condition"].input
    assert isinstance(customer, RefPicker) and isinstance(product, RefPicker) and isinstance(condition, QComboBox)
    shown = [product.itemText(i) for i in range(product.count())]
    assert "iPhone 14 128 GB · IPH14-128" in shown and not any("{" in t for t in shown)
    assert [condition.itemData(i) for i in range(condition.count())][-4:] == ["excellent", "good", "fair", "poor"]
    customer.edit().setFocus()
    QTest.keyClicks(customer.edit(), "customer@demo.test")
    product.edit().setFocus()
    QTest.keyClicks(product.edit(), "IPH14-128")  # the SKU, as a scanner types it
    QTest.keyClick(product.edit(), Qt.Key.Key_Return)
    # The scanner's Enter takes the product and goes on to the next field; it does not send the
    # half-filled form (it did: the dialog's default button took the key, "serial number missing").
    assert ws.session.ops.active == 0 and not dialog.message.isVisible()
    assert not product.hasFocus() and not product.edit().hasFocus()
    assert product.value() == "IPH14-128"
    assert customer.value() == demo_id("upgrade", "demo", "customer", "0")
    serial = form.fields["serial_number"].input
    assert isinstance(serial, QLineEdit)
    serial.setText(SERIAL)
    condition.setCurrentIndex(condition.findData("good"))

    imei = form.fields["imei"].input
    assert isinstance(imei, QLineEdit)
    imei.setText("490154203237519")  # a wrong check digit: under the field
    dialog.submit()
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    qtbot.waitUntil(lambda: form.fields["imei"].error.isVisible(), timeout=30_000)
    assert "check digit" in form.fields["imei"].error.text() and _count(ws) == 0

    imei.setText("49-015420-323751-8")  # as printed: dashes are fine
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: getattr(ws.record, "serial_number", "") == SERIAL, timeout=30_000)
    assert ws.record.status == "submitted" and ws.record.condition == "good"  # type: ignore[union-attr]
    assert ws.record.imei == "490154203237518" and _count(ws) == 1  # type: ignore[union-attr]


def test_a_trade_ins_photos_show_as_a_count_not_as_ids(open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot) -> None:
    """Seen in the screenshot at 1280x800: the panel listed a trade-in's photos as raw ids."""
    import re

    from PySide6.QtWidgets import QLabel

    ws = open_ws()
    ws.show_resource("upgrade:/admin/submissions")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    assert ws.model is not None
    row = next(i for i, r in enumerate(ws.model.rows) if getattr(r, "photos", None))
    ws.table.selectRow(row)
    photos = ws.model.rows[row].photos  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: getattr(ws.record, "photos", None) == photos and ws.session.ops.active == 0, timeout=30_000)
    uuid = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-")

    def labels() -> list[str]:
        return [lab.text() for lab in ws.detail_scroll.findChildren(QLabel) if lab.isVisibleTo(ws)]

    # The panel's fields are laid out after the record arrives: wait for them, not only for the record.
    qtbot.waitUntil(lambda: len(labels()) > 1, timeout=30_000)
    shown = labels()
    assert not [s for s in shown if uuid.search(s)], shown
    assert f"{len(photos)} linked" in shown, shown
