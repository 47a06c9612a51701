"""Generated PDFs shown in place in the records workspace: a formula's safety data sheet and
certificate are made with its action buttons and shown by the file view as rendered pages; a
formula that breaks a limit says why instead."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import demo_id
from services.core.records import file_query, resources
from tests.views.workspaces import workspace_factory
from views.records.files import FileViewer
from views.records.workspace import RecordsWorkspace


@pytest.fixture
def open_ws(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def _open_formula(qtbot: QtBot, ws: RecordsWorkspace, code: str) -> None:
    ws.show_resource("sds:/formulas")
    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy, timeout=30_000)
    ws.open_record(demo_id("sds-formula", "demo", code))
    qtbot.waitUntil(lambda: ws.record is not None and getattr(ws.record, "code", None) == code, timeout=30_000)


def _click(qtbot: QtBot, ws: RecordsWorkspace, name: str) -> None:
    button = ws.findChild(QPushButton, f"action-{name}")
    assert button is not None and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    # A change reloads the list and the open record (new buttons): let that finish first.
    qtbot.wait(150)
    qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.record is not None, timeout=30_000)


def test_the_sds_and_certificate_pdfs_show_in_place(open_ws: Callable[..., RecordsWorkspace], qtbot: QtBot) -> None:
    formulas = next(r for r in resources({"sds"}) if r.path == "/formulas")
    files = {op.name for op in formulas.files}
    assert files == {"sds.formulas.sds_get", "sds.formulas.certificate_get"}  # the record-or-PDF reads
    assert all(file_query(op) == {"format": "pdf"} for op in formulas.files)

    ws = open_ws()
    _open_formula(qtbot, ws, "CR-DAY")
    _click(qtbot, ws, "sds.formulas.sds")  # generate on this station
    _click(qtbot, ws, "sds.formulas.sds_get")
    qtbot.waitUntil(lambda: bool(ws.findChildren(FileViewer)), timeout=30_000)
    viewer = ws.findChildren(FileViewer)[-1]
    assert viewer.isVisible() and viewer.file.media_type == "application/pdf"
    assert len(viewer.pages) >= 2 and not viewer.pages[0].isNull()  # rendered pages, not text
    assert viewer.file.filename and viewer.file.filename.startswith("SDS-CR-DAY")
    viewer.close()

    _click(qtbot, ws, "sds.formulas.certificate")
    _click(qtbot, ws, "sds.formulas.certificate_get")
    qtbot.waitUntil(lambda: len(ws.findChildren(FileViewer)) >= 2, timeout=30_000)
    cert = ws.findChildren(FileViewer)[-1]
    assert cert.file.filename and cert.file.filename.startswith("certificate-CR-DAY") and cert.pages

    # The old lotion holds HICC: no certificate, and the workspace says why.
    _open_formula(qtbot, ws, "OLD-MUG")
    _click(qtbot, ws, "sds.formulas.certificate")
    assert "does not comply" in ws.count.text()
