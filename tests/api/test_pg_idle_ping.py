"""PostgreSQL connections are pinged only after being idle (local_db.engine.make_engine): a pooled
connection whose server side ended while it sat idle is replaced, not handed to a request."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import Engine, exc, text

from local_db import engine as E

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


def _pooled_then_killed() -> tuple[Engine, int]:
    """An engine with one pooled connection whose backend another connection has terminated."""
    assert URL
    eng = E.make_engine(URL)
    with eng.connect() as c:
        pid = c.execute(text("SELECT pg_backend_pid()")).scalar_one()
    other = E.make_engine(URL)
    with other.connect() as admin:
        assert admin.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
    other.dispose()
    return eng, pid


def test_an_idle_connection_that_died_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    eng, pid = _pooled_then_killed()
    monkeypatch.setattr(E, "IDLE_PING_SECONDS", 0.0)  # idle long enough: pinged at checkout
    try:
        with eng.connect() as c:
            assert c.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
    finally:
        eng.dispose()


def test_a_connection_used_a_moment_ago_is_not_pinged(monkeypatch: pytest.MonkeyPatch) -> None:
    # The other side of the rule (and proof the test above depends on the ping): no ping within
    # the idle time, so the dead connection's error reaches the caller, and the pool is renewed.
    eng, pid = _pooled_then_killed()
    monkeypatch.setattr(E, "IDLE_PING_SECONDS", 3600.0)
    try:
        with pytest.raises(exc.OperationalError), eng.connect() as c:
            c.execute(text("SELECT 1"))
        with eng.connect() as c:
            assert c.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
    finally:
        eng.dispose()
