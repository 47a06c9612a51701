"""Every words a person reads in Records, walked over every declared resource: the tree, the list's
title and count, each record's title, its action buttons (and their menus), the titles of the forms
they open. None may show a raw ``{placeholder}``, nor say what happened instead of what it does
("QR code deleted" on a button that deletes)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtWidgets import QComboBox, QPushButton
from pytestqt.qtbot import QtBot

from services.core.commands import REGISTRY
from services.core.context import Runtime
from services.core.records import may
from tests.views.workspaces import workspace_factory
from views.records.actions import button_title, choices
from views.records.workspace import ActionDialog, RecordsWorkspace

# A button that reads as a history line: a past participle first or last.
PAST = re.compile(r"^(\w+ed)\b|\b(deleted|changed|moved|shipped|received|revoked|authorised)$", re.I)
FINE = {"Need", "Shared"}  # first words that end in "ed" and are not the past tense


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _bad(text: str, *, button: bool = True) -> bool:
    """A raw placeholder anywhere; on a button, also a history line ("Scheduled reports" is a list)."""
    m = PAST.search(text.rstrip("…")) if button else None
    return "{" in text or "}" in text or (m is not None and m.group(0) not in FINE)


def test_no_label_in_records_shows_a_placeholder_or_a_history_line(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    seen: list[str] = []
    bad: list[tuple[str, str]] = []
    for i in range(ws.tree.topLevelItemCount()):
        top = ws.tree.topLevelItem(i)
        assert top is not None
        seen += [top.text(0)] + [top.child(j).text(0) for j in range(top.childCount())]
    for res in ws.resources:
        ws.show_resource(res.key)
        qtbot.waitUntil(
            lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy, timeout=8000
        )
        assert ws.model is not None
        seen += [ws.heading.text(), ws.count.text()]
        # "4 records" never stands above an empty table.
        if ws.model.rowCount() == 0:
            assert ws.count.text() == "0 records", (res.key, ws.count.text())
            continue
        ws.table.selectRow(0)
        qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)
        seen.append(ws.detail_title.text())
        for b in ws.findChildren(QPushButton):
            if b.objectName().startswith("action-"):  # the open record's (old ones are unparented)
                seen.append(b.toolTip())
                bad += [(res.key, b.text())] if _bad(b.text()) else []
                bad += [(res.key, a.text()) for a in (b.menu().actions() if b.menu() else []) if _bad(a.text())]
    bad += [("", t) for t in seen if _bad(t, button=False)]
    # Every action of every declaration, whether or not the demo data has a record to show it on.
    ctx = ws.session.ctx()
    for res in ws.resources:
        for op in (res.update, res.delete, *res.actions, *res.files):
            if op is not None and may(ctx, op):
                bad += [(op.name, t) for a in choices(op) or (None,) if _bad(t := button_title(op, a))]
    assert not bad, bad


def test_actions_are_named_from_the_moves_and_the_bodys_choices() -> None:
    transfer = REGISTRY["inventory.transfers.update"]
    assert [button_title(transfer, a) for a in choices(transfer)] == [
        "Ship transfer",
        "Complete transfer",
        "Cancel transfer",
    ]
    filing = REGISTRY["tax.filings.act"]
    assert [button_title(filing, a) for a in choices(filing)] == [
        "Approve filing",
        "File filing",
        "Accept filing",
        "Reject filing",
    ]
    assert button_title(REGISTRY["qr.codes.delete"]) == "Delete QR code"
    assert button_title(REGISTRY["qr.codes.destination"]) == "Change destination"
    assert button_title(REGISTRY["tax.certificates.delete"]) == "Revoke exemption certificate"
    assert button_title(REGISTRY["sign.documents.sign_in_person"]) == "Sign in person"
    assert button_title(REGISTRY["catalog.products.translate"]) == "Set product translation"


def test_a_filing_offers_only_the_moves_its_state_allows(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("tax:/filings")
    qtbot.waitUntil(lambda: ws.model is not None and ws.model.rowCount() > 0, timeout=30_000)
    ws.table.selectRow(0)
    qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)
    allowed = set(getattr(ws.record, "allowed_actions", []))

    def shown() -> dict[str, bool]:
        found = [b for b in ws.findChildren(QPushButton) if b.objectName() == "action-tax.filings.act"]
        return {b.text(): b.isEnabled() for b in found if b.isVisibleTo(ws)}

    qtbot.waitUntil(lambda: len(shown()) == 4, timeout=30_000)  # laid out when the event loop turns
    buttons = shown()
    assert set(buttons) == {"Approve filing…", "File filing…", "Accept filing…", "Reject filing…"}
    assert {t.split()[0].lower() for t, on in buttons.items() if on} == allowed
    # The form it opens is titled as the button, its choice already made.
    enabled = next(t for t, on in buttons.items() if on)
    next(b for b in ws.findChildren(QPushButton) if b.text() == enabled).click()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(ActionDialog)), timeout=30_000)
    dialog = next(d for d in ws.findChildren(ActionDialog) if d.isVisible())
    assert dialog.windowTitle() == enabled.rstrip("…")
    assert dialog.form.value()["action"] == enabled.split()[0].lower()
    dialog.reject()


def test_the_ticket_filters_read_in_full_at_1280(open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot) -> None:
    ws = open_ws()
    ws.show_resource("support:/api/tenants/{tenant}/support/tickets")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy, timeout=30_000)
    qtbot.waitUntil(lambda: ws.filter_row.isVisible() and ws.filter_row.height() > 0, timeout=30_000)
    inputs = ws.filter_inputs
    assert {"state", "priority", "category", "assignee", "queue", "requester"} <= set(inputs)
    for name, w in inputs.items():
        assert w.isVisible(), name
        words = w.currentText() if isinstance(w, QComboBox) else w.placeholderText()  # type: ignore[union-attr]
        # The words fit inside the input, with its frame and (a choice) its arrow.
        assert w.fontMetrics().horizontalAdvance(words) + 16 <= w.width(), (name, words, w.width())
        inside = w.geometry().translated(ws.filter_row.mapTo(ws, ws.filter_row.rect().topLeft()))
        assert ws.rect().contains(inside), name
    assert ws.filter_row.geometry().bottom() < ws.table.geometry().top()
    queue = inputs["queue"]
    assert isinstance(queue, QComboBox) and queue.currentText() == "Queue: any"


def test_every_button_of_a_sign_document_is_reachable_at_1280(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = open_ws()
    ws.show_resource("sign:/documents")
    qtbot.waitUntil(lambda: ws.model is not None and ws.model.rowCount() > 0, timeout=30_000)
    ws.table.selectRow(0)
    qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)

    def buttons() -> list[QPushButton]:
        return [b for b in ws.findChildren(QPushButton) if b.objectName().startswith("action-") and b.isVisibleTo(ws)]

    qtbot.waitUntil(lambda: len(buttons()) >= 5, timeout=30_000)
    qtbot.waitUntil(lambda: ws.actions_row.height() > 0, timeout=30_000)
    view = ws.detail_scroll.viewport()
    texts = {b.text() for b in buttons()}
    assert "Sign in person" in texts or "Sign in person…" in texts, texts
    boxes = []
    for b in buttons():
        top_left = b.mapTo(view, b.rect().topLeft())
        # Inside the panel's width (it never scrolls sideways) and wide enough for its words.
        assert top_left.x() >= 0 and top_left.x() + b.width() <= view.width(), (b.text(), top_left, view.width())
        assert b.width() >= b.fontMetrics().horizontalAdvance(b.text()), b.text()
        boxes.append(b.geometry())
    assert not [(a, c) for i, a in enumerate(boxes) for c in boxes[i + 1 :] if a.intersects(c)]
