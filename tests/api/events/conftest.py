"""Fixtures of the events HTTP tests: trustme certificates, an HTTPS receiver, a server that trusts it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.settings import Settings
from services.core.context import Runtime
from tests.api.events.receiver import Certs
from tests.conftest import LiveServer, auth_headers, start_server

FAST_DELAYS = "0,0.05,0.05,0.05,0.05"


def events_server(settings: Settings, runtime: Runtime, certs: Certs, **overrides: object) -> LiveServer:
    """A real server whose webhook client trusts the test CA and may call loopback (tests only)."""
    runtime.db.dispose()
    opts: dict[str, object] = {
        "rate_limits": "off",
        "webhook_allow_private": True,
        "webhook_ca_bundle": str(certs.ca),
        "retry_delays": FAST_DELAYS,
        "webhook_timeout": 2.0,
    }
    opts.update(overrides)
    return start_server(settings, **opts)


@pytest.fixture
def ev_server(settings: Settings, runtime: Runtime, certs: Certs) -> Iterator[LiveServer]:
    srv = events_server(settings, runtime, certs)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


@pytest.fixture
def ev_client(ev_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=ev_server.url, timeout=10) as c:
        yield c


@pytest.fixture
def owner(ev_client: httpx.Client) -> dict[str, str]:
    return auth_headers(ev_client, "owner@demo.test")


def subscribe(client: httpx.Client, headers: dict[str, str], url: str, **fields: object) -> dict[str, object]:
    body: dict[str, object] = {
        "event_types": ["order.shipped"],
        "target": "webhook",
        "webhook_url": url,
        "secret": "s3cret-key",
        "active": True,
    }
    body.update(fields)
    r = client.post("/demo/events/api/subscriptions", json=body, headers=headers)
    assert r.status_code == 201, r.text
    data: dict[str, object] = r.json()["data"]
    return data


def shipped(carrier: str = "UPS", order_id: str = "ord-1", **extra: object) -> dict[str, object]:
    return {
        "order_id": order_id,
        "tracking_number": "1Z999",
        "carrier": carrier,
        "shipped_at": "2026-01-06T09:00:00Z",
        **extra,
    }


def publish(
    client: httpx.Client,
    headers: dict[str, str],
    type_: str = "order.shipped",
    data: dict[str, object] | None = None,
    source: str = "fulfillment",
) -> dict[str, object]:
    r = client.post(
        "/demo/events/api/events", json={"type": type_, "source": source, "data": data or shipped()}, headers=headers
    )
    assert r.status_code == 201, r.text
    out: dict[str, object] = r.json()["data"]
    return out


def deliveries(client: httpx.Client, headers: dict[str, str], sub_id: object) -> list[dict[str, object]]:
    r = client.get(f"/demo/events/api/subscriptions/{sub_id}/deliveries", headers=headers)
    assert r.status_code == 200, r.text
    items: list[dict[str, object]] = r.json()["data"]
    return items
