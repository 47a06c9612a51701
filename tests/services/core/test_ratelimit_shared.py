"""Rate limits shared by a server's processes through PostgreSQL: two limiters, each with its own
engine (as two worker processes have), count one limit; their decisions are the ones one
in-process limiter gives for the same requests (so the same headers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine

from services.core.ratelimit import MemoryStore, PostgresStore, RateLimiter, store_for
from tests.conftest import PG_URL, empty_pg_database

pytestmark = pytest.mark.skipif(not PG_URL, reason="needs PLATFORM_TEST_POSTGRES_URL (a PostgreSQL server)")


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_020.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def pg_url() -> Iterator[str]:
    with empty_pg_database("t_rl") as url:
        yield url


def test_two_processes_share_one_limit_with_the_same_decisions(pg_url: str) -> None:
    clock = Clock()
    engines: list[Engine] = [create_engine(pg_url), create_engine(pg_url)]
    try:
        assert isinstance(store_for(engines[0]), PostgresStore)
        a, b = (RateLimiter("A", store_for(e), now=clock) for e in engines)
        alone = RateLimiter("A", MemoryStore(), now=clock)
        for i in range(7):
            shared = (a if i % 2 else b).check("auth", tenant="-", subject="", ip="10.0.0.1")
            single = alone.check("auth", tenant="-", subject="", ip="10.0.0.1")
            assert shared == single, i  # allowed, limit, remaining, reset, retry after
            clock.t += 1
        # The sixth and seventh, whichever process took them, were refused: 5 a minute in all.
        assert shared is not None and not shared.allowed and shared.remaining == 0 and shared.limit == 5
        assert b.check("auth", tenant="-", subject="", ip="10.0.0.2") is not None  # another IP is not affected
        clock.t += 60
        again = a.check("auth", tenant="-", subject="", ip="10.0.0.1")
        assert again is not None and again.allowed and again.remaining == 4
        # Two rules (API key burst and sustained) count in one step.
        for _ in range(100):
            assert (d := b.check("api_key", tenant="t", subject="api_key:k", ip="x")) and d.allowed
        refused = a.check("api_key", tenant="t", subject="api_key:k", ip="x")
        assert refused is not None and not refused.allowed and refused.limit == 100
    finally:
        for e in engines:
            e.dispose()


def test_sqlite_counts_in_the_process() -> None:
    assert isinstance(store_for(create_engine("sqlite://")), MemoryStore)
