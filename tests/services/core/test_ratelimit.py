from __future__ import annotations

import pytest

from services.core.ratelimit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_020.0

    def __call__(self) -> float:
        return self.t


def test_variant_a_writes_per_user() -> None:
    clock = Clock()
    rl = RateLimiter("A", now=clock)
    results = [rl.check("write", tenant="t", subject="user:1", ip="1.1.1.1") for _ in range(31)]
    assert all(d and d.allowed for d in results[:30])
    last = results[30]
    assert last is not None and not last.allowed and last.remaining == 0 and last.limit == 30
    assert 1 <= last.retry_after <= 60
    # Another user is not affected.
    other = rl.check("write", tenant="t", subject="user:2", ip="1.1.1.1")
    assert other is not None and other.allowed
    clock.t += 60
    again = rl.check("write", tenant="t", subject="user:1", ip="1.1.1.1")
    assert again is not None and again.allowed


def test_variant_a_api_key_burst() -> None:
    rl = RateLimiter("A", now=Clock())
    decisions = [rl.check("api_key", tenant="t", subject="api_key:k", ip="x") for _ in range(101)]
    assert decisions[99] is not None and decisions[99].allowed
    assert decisions[100] is not None and not decisions[100].allowed and decisions[100].limit == 100


def test_auth_is_per_ip() -> None:
    rl = RateLimiter("A", now=Clock())
    for _ in range(5):
        assert rl.check("auth", tenant="-", subject="", ip="9.9.9.9").allowed  # type: ignore[union-attr]
    assert not rl.check("auth", tenant="-", subject="", ip="9.9.9.9").allowed  # type: ignore[union-attr]
    assert rl.check("auth", tenant="-", subject="", ip="8.8.8.8").allowed  # type: ignore[union-attr]


def test_public_ticket_is_per_ip_per_tenant_per_hour() -> None:
    clock = Clock()
    rl = RateLimiter("A", now=clock)
    for _ in range(5):
        assert rl.check("public_ticket", tenant="a", subject="", ip="1.2.3.4").allowed  # type: ignore[union-attr]
    d = rl.check("public_ticket", tenant="a", subject="", ip="1.2.3.4")
    assert d is not None and not d.allowed and d.retry_after > 60
    assert rl.check("public_ticket", tenant="b", subject="", ip="1.2.3.4").allowed  # type: ignore[union-attr]


def test_variant_b_is_per_tenant() -> None:
    rl = RateLimiter("B", now=Clock())
    for i in range(100):
        assert rl.check("read", tenant="t", subject=f"user:{i}", ip="x").allowed  # type: ignore[union-attr]
    assert not rl.check("read", tenant="t", subject="user:999", ip="y").allowed  # type: ignore[union-attr]
    assert rl.category(method="POST", principal_kind="user", override="upload") == "upload"


def test_off_and_bad_variant() -> None:
    assert RateLimiter("off").check("write", tenant="t", subject="s", ip="i") is None
    with pytest.raises(ValueError):
        RateLimiter("C")


def test_no_double_limit_across_a_window_boundary() -> None:
    """The issue's case: 30 writes just before a minute boundary and 30 just after used to
    all pass (fixed windows); a sliding window lets through no more than 30 in any 60 s."""
    clock = Clock()
    clock.t = 1_000_019.0  # one second before a multiple of 60
    rl = RateLimiter("A", now=clock)
    first = [rl.check("write", tenant="t", subject="user:1", ip="x") for _ in range(30)]
    assert all(d is not None and d.allowed for d in first)
    clock.t += 2  # across the old boundary
    d = rl.check("write", tenant="t", subject="user:1", ip="x")
    assert d is not None and not d.allowed and d.remaining == 0
    assert d.reset == 1_000_019 + 60 and d.retry_after == 58
    clock.t = 1_000_019.0 + 60  # the first 30 leave the window together
    again = [rl.check("write", tenant="t", subject="user:1", ip="x") for _ in range(31)]
    assert [x is not None and x.allowed for x in again] == [True] * 30 + [False]


def test_headers_count_down_and_refusals_are_not_counted() -> None:
    clock = Clock()
    rl = RateLimiter("A", now=clock)
    seen = []
    for _ in range(5):
        d = rl.check("auth", tenant="-", subject="", ip="7.7.7.7")
        assert d is not None
        seen.append(d.remaining)
        clock.t += 10
    assert seen == [4, 3, 2, 1, 0]
    for _ in range(3):  # refused attempts do not push the window further
        d = rl.check("auth", tenant="-", subject="", ip="7.7.7.7")
        assert d is not None and not d.allowed
    # The first attempt (at t0) leaves the window at t0 + 60: one slot frees then.
    assert d.reset == 1_000_080 and d.retry_after == 10
    clock.t = 1_000_080.0
    d = rl.check("auth", tenant="-", subject="", ip="7.7.7.7")
    assert d is not None and d.allowed and d.remaining == 0


def test_api_key_burst_refusal_does_not_use_the_sustained_budget() -> None:
    clock = Clock()
    rl = RateLimiter("A", now=clock)
    for _ in range(100):
        assert rl.check("api_key", tenant="t", subject="api_key:k", ip="x").allowed  # type: ignore[union-attr]
    for _ in range(50):
        d = rl.check("api_key", tenant="t", subject="api_key:k", ip="x")
        assert d is not None and not d.allowed and d.limit == 100
    clock.t += 10
    d = rl.check("api_key", tenant="t", subject="api_key:k", ip="x")
    # 101 counted against the 1,000 a minute: the 50 refused ones were not.
    assert d is not None and d.allowed and d.remaining == 99
