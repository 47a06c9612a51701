"""The record panel fits its record at 1280x800: seen in the screenshot after the list's columns were
fitted, the splitter left the panel its 300 px minimum and a trade-in's panel ran past its right
edge ("Copy id", "Open customer" and the second action of each row cut off; the panel does not
scroll sideways). The panel now widens to what the record's widest row needs."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.workspaces import settle, workspace_factory
from views.records.workspace import RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


@pytest.mark.parametrize(
    "resource", ["upgrade:/admin/submissions", "sign:/documents", "fulfillment:/orders", "tax:/certificates"]
)
def test_the_panel_is_as_wide_as_its_record_needs(
    open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot, resource: str
) -> None:
    ws = open_ws()
    ws.show_resource(resource)
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.session.ops.active == 0, timeout=30_000)
    ws.table.selectRow(0)
    qtbot.waitUntil(lambda: ws.record is not None and ws.session.ops.active == 0, timeout=30_000)
    settle(qtbot, ws)
    detail, viewport = ws.detail_scroll.widget(), ws.detail_scroll.viewport()
    assert detail is not None

    def fits() -> bool:
        # Laid out within the panel's visible width, its widest row too, so nothing is drawn past
        # its edge; waited for, as the record's buttons and names arrive after it.
        return (
            detail.width() <= viewport.width()
            and detail.minimumSizeHint().width() <= viewport.width()
            and ws.copy_id.mapToGlobal(ws.copy_id.rect().topRight()).x()
            <= viewport.mapToGlobal(viewport.rect().topRight()).x()
        )

    qtbot.waitUntil(fits, timeout=30_000)
