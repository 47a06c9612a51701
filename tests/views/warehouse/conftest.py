"""The warehouse view tests' one setup: the workspace as a signed-in person opens it (``make_ws``),
and the scanner bursts and keys that drive it (``tests.views.warehouse.drive``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.workspaces import workspace_factory
from views.warehouse.workspace import WORKSPACE


@pytest.fixture
def make_ws(station: Runtime, qtbot: QtBot) -> Iterator[object]:
    yield from workspace_factory(station, qtbot, WORKSPACE, "device@demo.test", (1400, 900))
