"""The signature pad driven as a customer does: a finger (mouse events) on the pad, the consent box,
the big Sign button; from the inspection bench (the trade-in agreement) and from the records workspace."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.workspaces import session_for, settle, workspace_factory
from views.inspection.workspace import WORKSPACE as INSPECTION
from views.sign.pad import SignaturePad, SignDialog


def draw(qtbot: QtBot, pad: SignaturePad, points: list[tuple[int, int]]) -> None:
    qtbot.mousePress(pad, Qt.MouseButton.LeftButton, pos=QPoint(*points[0]))
    for x, y in points[1:]:
        qtbot.mouseMove(pad, QPoint(x, y))
        # mouseMove carries no button state in QTest: send the move with the button held.
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QMouseEvent

        ev = QMouseEvent(
            QMouseEvent.Type.MouseMove,
            QPointF(x, y),
            pad.mapToGlobal(QPointF(x, y)),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(pad, ev)
    qtbot.mouseRelease(pad, Qt.MouseButton.LeftButton, pos=QPoint(*points[-1]))


def _dialog(qtbot: QtBot) -> SignDialog:
    found: list[SignDialog] = []

    def opened() -> bool:
        found[:] = [w for w in QApplication.topLevelWidgets() if isinstance(w, SignDialog) and w.isVisible()]
        return bool(found)

    qtbot.waitUntil(opened, timeout=30_000)
    return found[0]


def test_the_pad_draws_clears_and_exports_png(qtbot: QtBot) -> None:
    pad = SignaturePad()
    qtbot.addWidget(pad)
    pad.resize(700, 300)
    pad.show()
    assert pad.is_empty() and pad.to_png() == b""
    draw(qtbot, pad, [(50, 200), (120, 120), (200, 190), (320, 100), (500, 180)])
    assert not pad.is_empty()
    png = pad.to_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pad.clear()
    assert pad.is_empty()


def test_customer_signs_the_trade_in_agreement_at_the_inspection_bench(qtbot: QtBot, station: Runtime) -> None:
    make = workspace_factory(station, qtbot, INSPECTION, "owner@demo.test", (1400, 950))
    ws = next(make)()
    ws.open(demo_id("upgrade", "demo", "submission", "8"))
    settle(qtbot, ws)
    assert ws.sub is not None and ws.agreement_btn.isVisibleTo(ws)
    ws.sign_agreement(full_screen=False)
    dlg = _dialog(qtbot)
    dlg.resize(1200, 850)
    assert "Trade-in agreement" in dlg.windowTitle() and not dlg.submit_btn.isEnabled()
    draw(qtbot, dlg.pad, [(60, 150), (160, 80), (260, 160), (420, 70)])
    assert not dlg.submit_btn.isEnabled()  # consent and the agreement box first
    qtbot.mouseClick(dlg.consent, Qt.MouseButton.LeftButton, pos=QPoint(10, dlg.consent.height() // 2))
    for box in dlg.inputs.values():
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(10, box.height() // 2))
    assert dlg.submit_btn.isEnabled()
    doc_id = dlg.document.id
    results: list[object] = []
    dlg.signed.connect(results.append)
    qtbot.mouseClick(dlg.submit_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(results), timeout=30_000)
    assert "Signed. Thank you!" in dlg.status.text()
    ctx = session_for(station, "owner@demo.test").ctx()
    doc = execute(ctx, "sign.documents.get", id=doc_id)
    assert doc.status == "completed" and doc.signed_sha256
    trail = execute(session_for(station, "owner@demo.test").ctx(), "sign.documents.audit", id=doc_id).items
    assert "witnessed by owner@demo.test" in (trail[-2].user_agent or "")


def test_records_opens_the_pad_for_a_document(qtbot: QtBot, station: Runtime) -> None:
    from views.records.workspace import WORKSPACE as RECORDS

    session = session_for(station, "owner@demo.test")
    sub = demo_id("upgrade", "demo", "submission", "1")
    doc = execute(session.ctx(), "sign.documents.trade_in", body={"submission_id": sub})
    ws = next(workspace_factory(station, qtbot, RECORDS, "owner@demo.test", (1400, 900)))()
    ws.show_resource("sign:/documents")
    settle(qtbot, ws)
    res = ws.current
    assert res is not None
    op = next(a for a in res.actions if a.name == "sign.documents.sign_in_person")
    ws.run_action(op, doc.id)
    dlg = _dialog(qtbot)
    assert dlg.signer.in_person and dlg.document.id == doc.id
    dlg.reject()


def test_sign_in_person_says_why_nobody_signs_here_and_what_to_do(
    qtbot: QtBot, station: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk of issue 32: "Sign in person…" on the demo's sent Partner agreement (its one signer
    signs by mail) said only "No one signs this document in person now."."""
    from PySide6.QtWidgets import QMessageBox, QWidget

    from views.sign.pad import sign_at_station

    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text, *a, **k: said.append(text))
    parent = QWidget()
    qtbot.addWidget(parent)
    session = session_for(station, "owner@demo.test")
    sign_at_station(parent, session, demo_id("sign-doc", "sent"), full_screen=False)
    qtbot.waitUntil(lambda: bool(said), timeout=30_000)
    assert "Partner agreement" in said[0] and "Add signer" in said[0] and "In person" in said[0], said
    sign_at_station(parent, session, demo_id("sign-doc", "draft"), full_screen=False)
    qtbot.waitUntil(lambda: len(said) == 2, timeout=30_000)
    assert "draft" in said[1] and "send it for signature first" in said[1], said
