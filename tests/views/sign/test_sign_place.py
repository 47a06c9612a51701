"""Placing a signer's fields with the mouse on the rendered pages of a draft, from Records, then
sending it: the field is where the person clicked; on a sent document nothing more is placed."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.files import Upload
from tests.services.sign.sign_helpers import make_pdf
from tests.views.workspaces import session_for, workspace_factory
from views.records.workspace import RecordsWorkspace
from views.sign.place import FieldPlacer


def test_a_field_is_placed_where_the_person_clicks_and_the_document_is_sent(qtbot: QtBot, station: Runtime) -> None:
    ctx = session_for(station, "owner@demo.test").ctx
    doc = execute(
        ctx(),
        "sign.documents.create",
        upload=Upload("lease.pdf", "application/pdf", make_pdf(2)),
        query={"title": "Lease"},
    )
    signer = execute(ctx(), "sign.signers.add", id=doc.id, body={"name": "Ana Reyes", "email": "ana@example.com"})
    ws = next(workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800)))()
    ws.show_resource("sign:/documents")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy, timeout=30_000)
    ws.open_record(doc.id)
    qtbot.waitUntil(lambda: ws.record is not None and ws.record.id == doc.id, timeout=30_000)  # type: ignore[attr-defined]

    # The panel is laid out twice (the list's row, then the record read in full): a button found
    # after the first is deleted by the second. Take it once nothing is on its way.
    def place_button() -> QPushButton | None:
        found = [b for b in ws.findChildren(QPushButton) if b.objectName() == "action-sign.fields.add"]
        return found[0] if len(found) == 1 and found[0].isVisible() else None

    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and place_button() is not None, timeout=30_000)
    place = place_button()
    assert place is not None
    qtbot.mouseClick(place, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in ws.findChildren(FieldPlacer)), timeout=30_000)
    placer = next(d for d in ws.findChildren(FieldPlacer) if d.isVisible())
    qtbot.waitUntil(lambda: len(placer.pages) == 2 and placer.signer.count() == 1, timeout=30_000)
    assert placer.signer.currentText() == "Ana Reyes (signer)"
    page2 = placer.pages[1]
    page2.parentWidget().parentWidget().parentWidget().ensureWidgetVisible(page2)  # type: ignore[union-attr]
    QApplication.processEvents()
    at = page2.point_of(0.5, 0.8).toPoint()
    qtbot.mouseClick(page2, Qt.MouseButton.LeftButton, pos=QPoint(at.x(), at.y()))
    qtbot.waitUntil(lambda: len(page2.fields) == 1, timeout=30_000)
    fields = execute(ctx(), "sign.fields.list", id=doc.id).items
    assert [(f.signer_id, f.type, f.page) for f in fields] == [(signer.id, "signature", 2)]
    assert abs(fields[0].x - 0.5) < 0.01 and abs(fields[0].y - 0.8) < 0.01
    placer.accept()

    execute(ctx(), "sign.documents.send", id=doc.id, body={})
    # Sent: a click places nothing and the window says why.
    again = FieldPlacer(ws.session, doc.id, ws)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: len(again.pages) == 2 and again.signer.count() == 1, timeout=30_000)
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    again.place(1, 0.2, 0.2)
    qtbot.waitUntil(again.message.isVisible, timeout=30_000)
    assert len(execute(ctx(), "sign.fields.list", id=doc.id).items) == 1
    assert all(not v.fields or len(v.fields) == 1 for v in again.pages)
    again.reject()
