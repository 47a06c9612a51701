"""The review queue with real widgets and real keys: receipts approved and declined from the
keyboard, the image zoomed, a dealer request approved, a claim started."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest
from PIL import Image
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.demo import demo_id
from services.core.files import Upload
from tests.views.workspaces import settle, workspace_factory
from views.review.workspace import ReviewWorkspace


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., ReviewWorkspace]]:
    yield from workspace_factory(runtime, qtbot, ReviewWorkspace, "owner@demo.test", (1100, 700))


def submit_receipt(rt: Runtime) -> str:
    tenant = auth.load_tenant(rt.db, "demo")
    dealer = Principal(
        kind="customer", id=demo_id("rewards-dealer", "east"), customer_module="rewards", modules=frozenset({"rewards"})
    )
    ctx = Ctx(rt, tenant, dealer)
    out = io.BytesIO()
    Image.new("RGB", (300, 400), "white").save(out, "PNG")
    f = execute(ctx, "rewards.files.upload", upload=Upload("r.png", "image/png", out.getvalue()))
    r = execute(
        ctx,
        "rewards.receipts.create",
        body={"file_id": f.id, "retailer": "Zoom Shop", "purchase_date": "2026-01-02", "total": "40.00"},
    )
    return str(r.id)


def test_receipts_by_keyboard(make: Callable[..., ReviewWorkspace], runtime: Runtime, qtbot: QtBot) -> None:
    rid = submit_receipt(runtime)
    ws = make()
    n = ws.receipts.count()
    assert n >= 4
    # Walk down to the new receipt with the arrow keys: its image shows and zooms.
    while ws.current("receipts").id != rid:
        qtbot.keyClick(ws.receipts, Qt.Key.Key_Down)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.pixmap is not None)
    assert ws.points.value() == 400  # 10 points a dollar, suggested
    before = ws.image.width()
    qtbot.keyClick(ws.receipts, Qt.Key.Key_Plus)
    assert ws.image.width() > before
    qtbot.keyClick(ws.receipts, Qt.Key.Key_Minus)
    qtbot.keyClick(ws.receipts, Qt.Key.Key_Minus)
    assert ws.image.width() < before
    # A approves with the points in the box.
    ws.points.setValue(450)
    qtbot.keyClick(ws.receipts, Qt.Key.Key_A)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.receipts.count() == n - 1)
    assert "450 points" in ws.banner.text()
    assert (
        execute(
            Ctx(
                runtime,
                auth.load_tenant(runtime.db, "demo"),
                auth.user_principal(
                    runtime.db, demo_id("user", "owner@demo.test"), auth.load_tenant(runtime.db, "demo")
                ),
            ),
            "rewards.receipts.get",
            id=rid,
        ).status
        == "approved"
    )
    # D asks for a reason; Return declines.
    declined = ws.current("receipts")
    qtbot.keyClick(ws.receipts, Qt.Key.Key_D)
    assert ws.dialog is not None and ws.dialog.isVisible()
    qtbot.keyClicks(ws.dialog.reason, "Blurry photo")
    qtbot.keyClick(ws.dialog.reason, Qt.Key.Key_Return)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.receipts.count() == n - 2)
    assert declined.id not in [r.id for r in ws.rows["receipts"]] and "Declined" in ws.banner.text()


def test_dealer_requests_and_claims(make: Callable[..., ReviewWorkspace], qtbot: QtBot) -> None:
    ws = make()
    qtbot.keyClick(ws.receipts, Qt.Key.Key_2)
    assert ws.tabs.currentIndex() == 1 and ws.dealers.count() == 1
    qtbot.keyClick(ws.dealers, Qt.Key.Key_A)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.dealers.count() == 0)
    assert "Approved New Leaf Hardware" in ws.banner.text()
    qtbot.keyClick(ws.dealers, Qt.Key.Key_3)
    assert ws.tabs.currentIndex() == 2
    first = ws.current("claims")
    assert first.status == "open"
    qtbot.keyClick(ws.claims, Qt.Key.Key_A)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: any(c.id == first.id and c.status == "in_progress" for c in ws.rows["claims"]))


def test_the_key_hint_does_not_read_as_counts(make: Callable[..., ReviewWorkspace]) -> None:
    """The hint "1 receipts · 2 dealer requests · 3 claims" was read as counts ("1 receipts", and
    "3 claims" beside the tab's "Warranty claims (2)"): the queue keys say what they do."""
    from PySide6.QtWidgets import QLabel

    ws = make()
    hint = ws.findChild(QLabel, "hint")
    assert hint is not None
    text = hint.text()
    for key, queue in (("1", "receipts"), ("2", "dealer requests"), ("3", "claims")):
        assert f"{key} {queue}" not in text, text
        assert f"{key} go to {queue}" in text, text


def test_the_approval_says_the_points_as_the_suggestion_does(
    make: Callable[..., ReviewWorkspace], qtbot: QtBot
) -> None:
    """The walk: "Suggested 2,340 points" above, then "Approved BuildMart Main St: 2340 points"."""
    ws = make()
    n = ws.receipts.count()
    ws.points.setValue(2340)
    qtbot.keyClick(ws.receipts, Qt.Key.Key_A)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.receipts.count() == n - 1)
    assert ws.banner.text().endswith(": 2,340 points")


def test_an_empty_queue_keeps_no_points_of_the_last_receipt(make: Callable[..., ReviewWorkspace], qtbot: QtBot) -> None:
    """The walk: the last receipt approved, "Nothing to review" stood beside "Points 890"."""
    ws = make()
    while ws.receipts.count():
        n = ws.receipts.count()
        qtbot.keyClick(ws.receipts, Qt.Key.Key_A)
        settle(qtbot, ws)
        qtbot.waitUntil(lambda n=n: ws.receipts.count() == n - 1)
    assert ws.numbers.text() == "Nothing to review"
    assert ws.points.value() == 0
