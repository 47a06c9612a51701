"""Pure rules of the events module: filters, target safety, retry settings."""

from __future__ import annotations

import ipaddress

import pytest

from services.core.safety import BlockedAddress, UnsafeTarget, address_problem, check_url, vet_addresses
from services.events.fanout import POLICIES, DeliveryConfig, matches


@pytest.mark.parametrize(
    ("flt", "data", "ok"),
    [
        (None, {"a": 1}, True),
        ({}, {"a": 1}, True),
        ({"carrier": "UPS"}, {"carrier": "UPS", "x": 1}, True),
        ({"carrier": "UPS"}, {"carrier": "ups"}, False),
        ({"carrier": "UPS"}, {}, False),
        ({"carrier": None}, {}, False),  # missing is not null
        ({"carrier": None}, {"carrier": None}, True),
        ({"a.b.c": 3}, {"a": {"b": {"c": 3}}}, True),
        ({"a.b.c": 3}, {"a": {"b": {"c": 3.0}}}, True),
        ({"a.b.c": 3}, {"a": {"b": 3}}, False),
        ({"a.b": 1}, {"a": [1]}, False),
        ({"flag": True}, {"flag": 1}, False),
        ({"flag": 1}, {"flag": True}, False),
        ({"tags": ["x"]}, {"tags": ["x"]}, True),
        ({"a": 1, "b": 2}, {"a": 1, "b": 3}, False),
    ],
)
def test_filter_matching(flt: dict[str, object] | None, data: dict[str, object], ok: bool) -> None:
    assert matches(flt, data) is ok


@pytest.mark.parametrize(
    "addr",
    [
        "127.0.0.1",
        "10.0.0.1",
        "172.31.255.255",
        "192.168.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "100.127.255.254",
        "224.0.0.251",
        "239.255.255.250",
        "0.0.0.0",
        "240.0.0.1",
        "255.255.255.255",
        "192.0.2.1",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:169.254.169.254",
        "2002:7f00:1::1",
        "64:ff9b::a00:1",
        "2001:db8::1",
    ],
)
def test_refused_addresses(addr: str) -> None:
    assert address_problem(ipaddress.ip_address(addr)) is not None


@pytest.mark.parametrize("addr", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"])
def test_public_addresses(addr: str) -> None:
    assert address_problem(ipaddress.ip_address(addr)) is None


def test_check_url_rules() -> None:
    with pytest.raises(UnsafeTarget, match="https"):
        check_url("http://93.184.216.34/", allow_private=True)
    with pytest.raises(UnsafeTarget, match="credentials"):
        check_url("https://a:b@93.184.216.34/", allow_private=True)
    with pytest.raises(UnsafeTarget, match="local name"):
        check_url("https://printer.local/", allow_private=False)
    with pytest.raises(UnsafeTarget, match="local name"):
        check_url("https://localhost:8443/x", allow_private=False)
    with pytest.raises(UnsafeTarget, match="loopback"):
        check_url("https://[::ffff:7f00:1]/x", allow_private=False)
    with pytest.raises(UnsafeTarget):
        check_url("https://93.184.216.34:99999/", allow_private=False)
    assert check_url("https://127.0.0.1:8443/x", allow_private=True) == "https://127.0.0.1:8443/x"
    assert check_url("https://93.184.216.34/x?a=1", allow_private=False)


def test_vet_addresses_refuses_if_any_is_internal() -> None:
    assert vet_addresses("h", ["93.184.216.34", "93.184.216.34"]) == ["93.184.216.34"]
    with pytest.raises(BlockedAddress, match="127.0.0.1"):
        vet_addresses("h", ["93.184.216.34", "127.0.0.1"])
    with pytest.raises(BlockedAddress):
        vet_addresses("h", [])


def test_retry_settings() -> None:
    a = DeliveryConfig.from_settings()
    assert a.delays == (0, 30, 120, 900, 3600) and a.timeout == 10 and a.max_attempts == 5
    b = DeliveryConfig.from_settings(policy="b")
    assert b.delays == POLICIES["B"][0] and b.timeout == 30 and b.max_attempts == 6
    fast = DeliveryConfig.from_settings(delays="0,0.05, 0.05,0.05,0.05", timeout=0.5)
    assert fast.delays == (0, 0.05, 0.05, 0.05, 0.05) and fast.timeout == 0.5
    for bad in [{"policy": "C"}, {"delays": "1,x"}, {"delays": "-1"}, {"delays": ","}, {"timeout": 0}]:
        with pytest.raises(ValueError):
            DeliveryConfig.from_settings(**bad)  # type: ignore[arg-type]
