"""The records workspace walked generically: every declared resource the owner may list is listed,
a record is opened, its create form matches the request schema, and its actions follow permissions.

Like the tenant-scoping test walks every table, this walks every declaration: a new module is
covered by being declared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.records import may, resources
from tests.views.workspaces import workspace_factory
from views.records.forms import ModelForm
from views.records.workspace import ActionDialog, RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _wait_loaded(qtbot: QtBot, ws: RecordsWorkspace) -> None:
    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy, timeout=30_000)


def test_every_declared_resource_lists_opens_and_offers_its_forms(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ctx = ws.session.ctx()
    declared = {r.key for r in resources() if may(ctx, r.listing)}
    shown = {r.key for r in ws.resources}
    # The owner may list every staff resource of the demo tenant (every module is enabled); an API
    # for integrations only (API keys: /v1/qr) is not a person's list.
    assert shown == declared, declared - shown
    assert "qr:/v1/qr" not in shown and "qr:/qr" in shown
    assert len(shown) >= 10
    for res in ws.resources:
        ws.show_resource(res.key)
        assert ws.current is res
        _wait_loaded(qtbot, ws)
        assert ws.model is not None
        assert re.fullmatch(r"([\d,.]+ of )?[\d,.]+ records?", ws.count.text()), (
            res.key,
            ws.count.text(),
        )  # "1 record" too
        assert ws.model.columnCount() > 0, res.key
        if ws.model.rowCount():
            ws.table.setCurrentIndex(ws.model.index(0, 0))
            ws._open_row(ws.model.index(0, 0))
            qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)
            assert ws.detail_form.rowCount() > 0, res.key
            # Every action the owner may call is offered, and no other.
            names = {b.objectName() for b in ws.findChildren(QPushButton) if b.objectName().startswith("action-")}
            ctx = ws.session.ctx()
            wanted = {f"action-{o.name}" for o in (res.update, res.delete, *res.actions, *res.files) if may(ctx, o)}
            assert names == wanted, (res.key, names ^ wanted)
        assert ws.new_button.isVisibleTo(ws) == may(ws.session.ctx(), res.create), res.key
        if res.create is not None and res.create.body is not None:
            form = ModelForm(res.create.body)
            assert (
                set(form.fields) | ({form.variants[0]} if form.variants else set()) <= set(res.create.body.model_fields)
                or form.variants
            ), res.key


def test_a_create_form_shows_the_services_errors_on_the_field_and_creates(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("upgrade:/admin/valuations")
    _wait_loaded(qtbot, ws)
    before = ws.model.total if ws.model else 0
    ws.create_record()
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    form = dialog.form
    form.fields["product_id"].input.setText("PIXEL-9")  # type: ignore[attr-defined]
    dialog.submit()  # product name and base value are missing
    qtbot.waitUntil(lambda: form.fields["product_name"].error.isVisible(), timeout=30_000)
    assert dialog.isVisible()
    form.fields["product_name"].input.setText("Pixel 9")  # type: ignore[attr-defined]
    form.fields["base_value"].input.setText("420.00")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    # The commit tells the list: it reloads by itself.
    qtbot.waitUntil(lambda: ws.model is not None and ws.model.total == before + 1, timeout=30_000)


def test_actions_follow_the_role_and_irreversible_ones_ask_first(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    operator = open_ws("operator@demo.test")
    operator.show_resource("upgrade:/admin/valuations")
    _wait_loaded(qtbot, operator)
    assert not operator.new_button.isVisibleTo(operator)  # valuations are set by owners and admins
    assert "platform" not in {r.module for r in operator.resources}  # users and keys: managers only
    owner = open_ws()
    owner.show_resource("upgrade:/admin/valuations")
    _wait_loaded(qtbot, owner)
    owner._open_row(owner.model.index(0, 0))  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: owner.record is not None, timeout=30_000)
    delete = owner.findChild(QPushButton, "action-upgrade.valuations.delete")
    assert delete is not None
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    total = owner.model.total  # type: ignore[union-attr]
    delete.click()
    assert asked and "cannot be undone" in asked[0]
    QApplication.processEvents()
    assert owner.model.total == total  # type: ignore[union-attr]


def test_csv_export_writes_every_row_of_the_filtered_list(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, tmp_path: Path
) -> None:
    ws = open_ws()
    ws.show_resource("fulfillment:/orders")
    _wait_loaded(qtbot, ws)
    total = ws.model.total  # type: ignore[union-attr]
    assert total > 20
    out = tmp_path / "orders.csv"
    ws.export_csv(str(out))
    qtbot.waitUntil(lambda: out.exists() and len(out.read_text().splitlines()) == total + 1, timeout=30_000)
    status = ws.filter_inputs["status"]  # a filter of the list's query schema
    assert isinstance(status, QLineEdit)
    QTest.keyClicks(status, "pending")
    QTest.keyClick(status, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ws.model.query.get("status") == "pending", timeout=30_000)  # type: ignore[union-attr]
    _wait_loaded(qtbot, ws)
    assert 0 < ws.model.total < total  # type: ignore[union-attr]


def test_ctrl_k_finds_an_order_and_a_ticket_and_opens_it(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    QTest.keyClick(ws, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.finder.isVisible(), timeout=30_000)
    field: QLineEdit = ws.finder.input
    QTest.keyClicks(field, "SO-1006")
    qtbot.waitUntil(lambda: ws.finder.results.count() > 0, timeout=30_000)
    assert "SO-1006" in ws.finder.results.item(0).text()
    QTest.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: ws.record is not None and getattr(ws.record, "order_number", "") == "SO-1006", timeout=30_000
    )
    assert ws.current is not None and ws.current.module == "fulfillment"


def test_a_column_the_service_cannot_sort_by_says_which_can(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("fulfillment:/orders")
    _wait_loaded(qtbot, ws)
    first = ws.model.rows[0]  # type: ignore[union-attr]
    ws.model.sort(ws.model.columns.index("customer_name"))  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: "sorts by" in ws.count.text(), timeout=30_000)
    assert "created at" in ws.count.text() and ws.model.rows[0] is first  # type: ignore[union-attr]
    assert "sort" not in ws.model.query  # type: ignore[union-attr]


def test_a_record_shows_the_lists_under_it(runtime: Runtime, qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QLabel

    from services.core.commands import execute

    # On the platform: a subscription carries a signing secret, so it is never made on a station.
    ws = next(workspace_factory(runtime, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800)))()
    execute(
        ws.session.ctx(),
        "events.subscriptions.create",
        body={
            "webhook_url": "https://hooks.example.com/orders",
            "event_types": ["order.shipped"],
            "secret": "whsec_" + "s" * 32,
        },
    )
    ws.show_resource("events:/subscriptions")
    _wait_loaded(qtbot, ws)
    assert ws.model is not None and ws.model.rowCount() > 0
    box = ws.findChild(QLabel, "children-events.subscriptions.deliveries")
    assert box is not None
    qtbot.waitUntil(lambda: "reading" not in box.text(), timeout=30_000)
    assert box.text()  # its deliveries, or that there are none yet


def test_a_change_that_makes_a_secret_is_made_on_the_platform_online(
    station: Runtime, server: Any, client: Any, qtbot: QtBot
) -> None:
    """An API key made in the records workspace of a station is made on its platform (never queued):
    the key shown once works there at once. With the platform away, the form says so and keeps it."""
    from PySide6.QtWidgets import QMessageBox

    from tests.conftest import login

    ws = next(workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800)))()
    token = login(client, "owner@demo.test")
    ws.session.platform_url, ws.session.platform_token = server.url, lambda: token
    ws.show_resource("platform:/api/tenants/{tenant}/api-keys")
    _wait_loaded(qtbot, ws)
    ws.create_record()
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    dialog.form.fields["name"].input.setText("ERP")  # type: ignore[attr-defined]
    dialog.form.fields["modules"].input.setText("fulfillment")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: ws.findChild(QMessageBox, "shown-once") is not None, timeout=30_000)
    text = ws.findChild(QMessageBox, "shown-once").text()
    key = text.split("Key: ", 1)[1].strip()
    assert key.startswith("pk_live_")
    assert client.get("/demo/fulfillment/api/orders", headers={"X-API-Key": key}).status_code == 200
    from services.sync import station as st

    assert st.pending_count(station, ws.session.tenant.id) == 0  # nothing queued here
    # The platform away: the form stays open and says what to do.
    ws.session.platform_url = "http://127.0.0.1:9"
    ws.create_record()
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    dialog.form.fields["name"].input.setText("Later")  # type: ignore[attr-defined]
    dialog.form.fields["modules"].input.setText("fulfillment")  # type: ignore[attr-defined]
    dialog.submit()
    qtbot.waitUntil(lambda: "does not answer" in dialog.message.text(), timeout=30_000)
    assert dialog.isVisible()


def test_the_record_ctrl_k_opened_is_the_lists_current_row(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    """The walk: Ctrl+K opened SO-1003, no row of the list was current, and Tab into the list made
    its first row (SO-1030) current: the record the person had asked for was gone."""
    ws = open_ws()
    QTest.keyClick(ws, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.finder.isVisible())
    QTest.keyClicks(ws.finder.input, "SO-1003")
    qtbot.waitUntil(lambda: ws.finder.results.count() > 0)
    QTest.keyClick(ws.finder.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ws.record is not None and getattr(ws.record, "order_number", "") == "SO-1003")
    _wait_loaded(qtbot, ws)
    assert ws.model is not None
    qtbot.waitUntil(lambda: ws.table.currentIndex().isValid())
    row = ws.table.currentIndex().row()
    assert ws.model.rows[row].order_number == "SO-1003"
    assert ws.table.selectionModel().isRowSelected(row)
    # ... and shown: the list scrolls to it (row 27 of 30 is below the fold at 1280x800).
    qtbot.waitUntil(lambda: ws.table.viewport().rect().contains(ws.table.visualRect(ws.table.currentIndex()).center()))
    # Tab into the list keeps it (the table had no current row and took its first).
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QFocusEvent

    QApplication.sendEvent(ws.table, QFocusEvent(QEvent.Type.FocusIn, Qt.FocusReason.TabFocusReason))
    _wait_loaded(qtbot, ws)
    assert ws.table.currentIndex().row() == row
    assert getattr(ws.record, "order_number", "") == "SO-1003" and ws.asked in (None, ws._id_of(ws.record))


def test_tab_goes_from_copy_id_to_the_records_actions(open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot) -> None:
    """The German walk: Tab from "ID kopieren" went up to the filters (Status, Von, Bis) before
    "Auftrag kommissionieren…": the buttons are made after the filters, so they came last."""
    ws = open_ws()
    ws.show_resource("fulfillment:/orders")
    _wait_loaded(qtbot, ws)
    qtbot.waitUntil(lambda: ws.action_box.count() > 0 and ws.copy_id.isVisible())
    first = ws.action_box.itemAt(0).widget()
    nxt = ws.copy_id.nextInFocusChain()
    while nxt is not first and not (nxt.focusPolicy() & Qt.FocusPolicy.TabFocus and nxt.isVisibleTo(ws)):
        nxt = nxt.nextInFocusChain()
    assert nxt is first, (nxt.objectName(), nxt.accessibleName())
