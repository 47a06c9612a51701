"""A pull refreshes every open workspace that shows what it wrote, with real widgets.

The platform's rows are written through the station's pull code path (``apply_changes``, as the
sync engine applies a pulled page); nothing is announced by hand: the pull's own commit names the
record kinds of the tables it wrote, and each workspace that shows one of them reads again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytestqt.qtbot import QtBot
from sqlalchemy import select

from services.core.context import CommitInfo, Runtime
from services.core.demo import demo_id
from services.sync import protocol as p
from services.sync.schemas import Change
from services.sync.station import apply_changes
from tests.views.workspaces import session_for, settle
from views.base import Workspace
from views.kb.workspace import KnowledgeBaseWorkspace
from views.qrdesign.workspace import QrDesignWorkspace
from views.records.workspace import RecordsWorkspace
from views.review.workspace import ReviewWorkspace
from views.shopfloor.workspace import ShopFloorWorkspace

TENANT = demo_id("tenant", "demo")


def pull(rt: Runtime, table: str, row_id: str, **changed: Any) -> None:
    """The platform's version of one row, changed, applied as a pulled page is."""
    t = p.synced_tables()[table]
    with rt.db.reading(None) as s:
        row = s.connection().execute(select(t).where(t.c.id == row_id)).mappings().one()
    encoded = p.encode_row(t, row)
    encoded.update(changed)
    assert apply_changes(rt, TENANT, [Change(table=table, id=row_id, row=encoded)], None)


def first_id(rt: Runtime, table: str, **where: Any) -> str:
    t = p.synced_tables()[table]
    stmt = select(t.c.id).where(t.c.tenant_id == TENANT, *(t.c[k] == v for k, v in where.items()))
    with rt.db.reading(None) as s:
        return str(s.connection().execute(stmt.order_by(t.c.id).limit(1)).scalar_one())


def opened(qtbot: QtBot, rt: Runtime, cls: type[Workspace], email: str = "owner@demo.test") -> Workspace:
    ws = cls(session_for(rt, email))
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    ws.show()
    settle(qtbot, ws)
    return ws


def list_texts(widget: Any) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def seen_pull(ws: Workspace) -> Callable[[], bool]:
    """Whether the workspace's runner announced a pull (so a refresh is the pull's doing)."""
    got: list[CommitInfo] = []
    ws.session.ops.changed.connect(got.append)
    return lambda: any(c.origin == "pull" for c in got)


def test_a_pull_refreshes_the_qr_designer(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, QrDesignWorkspace)
    assert isinstance(ws, QrDesignWorkspace)
    code = first_id(station, "qr_codes")
    assert not any(t.startswith("Pulled menu\n") for t in list_texts(ws.code_list))
    pulled = seen_pull(ws)
    pull(station, "qr_codes", code, name="Pulled menu")
    qtbot.waitUntil(lambda: any(t.startswith("Pulled menu\n") for t in list_texts(ws.code_list)), timeout=30_000)
    assert pulled()


def test_a_pull_refreshes_the_knowledge_base(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, KnowledgeBaseWorkspace, "admin@demo.test")
    assert isinstance(ws, KnowledgeBaseWorkspace)
    qtbot.waitUntil(lambda: ws.results.count() > 0, timeout=30_000)
    doc = ws.results.item(0).data(0x0100)  # Qt.ItemDataRole.UserRole: the listed article's id
    pull(station, "docs_documents", doc, title="Pulled article title")
    qtbot.waitUntil(lambda: any(t.startswith("Pulled article title") for t in list_texts(ws.results)), timeout=30_000)


def test_a_pull_refreshes_the_review_queue(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, ReviewWorkspace)
    assert isinstance(ws, ReviewWorkspace)
    qtbot.waitUntil(lambda: ws.receipts.count() > 0, timeout=30_000)
    receipt = ws.rows["receipts"][0].id
    assert not any("Pulled Hardware" in t for t in list_texts(ws.receipts))
    pull(station, "rewards_receipts", receipt, retailer="Pulled Hardware")
    qtbot.waitUntil(lambda: any("Pulled Hardware" in t for t in list_texts(ws.receipts)), timeout=30_000)


def test_a_pull_refreshes_the_shop_floor(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, ShopFloorWorkspace)
    assert isinstance(ws, ShopFloorWorkspace)
    qtbot.waitUntil(lambda: bool(ws.tiles), timeout=30_000)
    machine = ws.machines[0].id
    pull(station, "mes_machines", machine, name="Pulled press")
    qtbot.waitUntil(lambda: machine in ws.tiles and "Pulled press" in ws.tiles[machine].text(), timeout=30_000)


def test_a_pull_refreshes_the_records_list(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, RecordsWorkspace)
    assert isinstance(ws, RecordsWorkspace)
    ws.show_resource("qr:/qr")
    qtbot.waitUntil(lambda: ws.model is not None and ws.model.rowCount() > 0 and not ws.model._busy, timeout=30_000)
    model = ws.model
    assert model is not None

    def cells() -> set[str]:
        return {str(model.data(model.index(r, c))) for r in range(model.rowCount()) for c in range(model.columnCount())}

    code = first_id(station, "qr_codes")
    assert "Pulled label" not in cells()
    pull(station, "qr_codes", code, name="Pulled label")
    qtbot.waitUntil(lambda: "Pulled label" in cells(), timeout=30_000)


def test_a_pull_leaves_workspaces_that_show_other_kinds_alone(qtbot: QtBot, station: Runtime) -> None:
    """The shop floor shows machines, runs and alarms: a pulled QR code is not its business."""
    ws = opened(qtbot, station, ShopFloorWorkspace)
    assert isinstance(ws, ShopFloorWorkspace)
    qtbot.waitUntil(lambda: bool(ws.tiles), timeout=30_000)
    refreshed: list[int] = []
    ws.refresh = lambda: refreshed.append(1)  # type: ignore[method-assign]
    pulled = seen_pull(ws)
    pull(station, "qr_codes", first_id(station, "qr_codes"), name="Not the floor's")
    qtbot.waitUntil(pulled, timeout=30_000)
    qtbot.wait(50)
    assert refreshed == []
    pull(station, "mes_machines", ws.machines[0].id, name="The floor's")
    qtbot.waitUntil(lambda: refreshed == [1], timeout=30_000)


def test_the_pull_names_record_kinds_from_its_tables_and_a_use_case_names_its_own(station: Runtime) -> None:
    from services.core.commands import execute
    from services.sync.kinds import kind_of_table
    from tests.services.fulfillment.fulfillment_helpers import ctx_for

    assert kind_of_table("fulfillment_orders") == "fulfillment.order"
    assert kind_of_table("support_tickets") == "support.ticket" and kind_of_table("support_categories") == "support.*"
    assert kind_of_table("campaigns") == "campaign.campaign" and kind_of_table("users") == "platform.user"
    assert kind_of_table("sign_audit") == "sign.*"  # no use case declares it: any record of sign
    seen: list[CommitInfo] = []
    station.after_commit.append(seen.append)
    try:
        code = first_id(station, "qr_codes")
        pull(station, "qr_codes", code, name="Pulled")
        body = {"name": "Renamed here"}
        execute(ctx_for(station, "owner@demo.test"), "qr.codes.update", id=code, body=body)
    finally:
        station.after_commit.remove(seen.append)
    pulled, local = seen
    assert (pulled.origin, pulled.records, pulled.ids, pulled.changed) == ("pull", {"qr.code"}, {code}, ())
    assert (local.origin, local.records, local.changed) == ("local", {"qr.code"}, ("qr.codes.update",))
    assert code in local.ids and local.touches(frozenset({"qr.*"})) and not local.touches(frozenset({"mes.*"}))
