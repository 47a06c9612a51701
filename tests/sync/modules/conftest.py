"""One platform server per module test file (in this process, on SQLite or, in the PostgreSQL
pass of make test, on PostgreSQL), so the sixteen files do not each pay for a server a test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.sync.modules.kit import Platform, start_platform


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    p = start_platform(tmp_path_factory)
    yield p
    p.stop()


@pytest.fixture
def pair(platform: Platform, make_station: Any, request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """Two stations linked to the platform, named after the test (station ids are unique per platform)."""
    name = request.node.name.removeprefix("test_")[:40]
    return make_station(f"{name}-a", platform), make_station(f"{name}-b", platform)
