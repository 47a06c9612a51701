"""Generated bodies against a real server: whatever arrives, a handful of write routes of every
module answer in the envelope and never with a 5xx."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.core.commands import REGISTRY
from tests.conftest import LiveServer, auth_headers
from tests.services.fulfillment.fulfillment_helpers import order_in

# JSON values: scalars at the edges (huge and negative numbers, NUL, very long text), nested a little.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["", "\x00", "1", "true", "2026-01-01T00:00:00Z", "a" * 5000, "https://127.0.0.1./"]),
)
values = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                      max_leaves=12)  # fmt: skip


def bodies_for(op_name: str) -> st.SearchStrategy[bytes]:
    """Raw bodies: random JSON, objects using the schema's own field names, deep nesting, not JSON at all."""
    model = REGISTRY[op_name].body
    fields = sorted(model.model_fields) if model is not None and hasattr(model, "model_fields") else []
    if op_name == "fulfillment.orders.operate":
        fields += ["operation", "items", "box", "carrier"]
    named = st.dictionaries(st.sampled_from(fields or ["x"]), values, max_size=6) if fields else values
    deep = st.integers(min_value=1, max_value=3000).map(lambda n: ("[" * n + "]" * n).encode())
    raw = st.one_of(
        values.map(lambda v: json.dumps(v).encode()),
        named.map(lambda v: json.dumps(v).encode()),
        deep,
        st.binary(max_size=40),
        st.just(b"1e999999"),
        st.just(b'{"quantity": 99999999999999999999999999999999}'),
    )
    return raw


def check(r: httpx.Response) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        body = r.json()
        assert isinstance(body["error"], str) and isinstance(body["code"], str), body


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def targets(client: httpx.Client, server: LiveServer) -> dict[str, tuple[str, str, dict[str, str]]]:
    owner = auth_headers(client, "owner@demo.test")
    customer = client.post("/demo/upgrade/api/auth/login", json={"email": "customer@demo.test",
                                                                "password": "demo-password"})  # fmt: skip
    cust = {"Authorization": f"Bearer {customer.json()['data']['token']}"}
    order = order_in(server.runtime, "pending").id
    ticket = client.get("/api/tenants/demo/support/tickets", headers=owner).json()["data"][0]["id"]
    sub = client.post("/demo/events/api/subscriptions", headers=owner, json={
        "event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/", "secret": "s"}).json()["data"]["id"]  # fmt: skip
    sup = "/api/tenants/demo/support"
    return {
        "platform.api_keys.create": ("POST", "/api/tenants/demo/api-keys", owner),
        "platform.users.create": ("POST", "/api/tenants/demo/users", owner),
        "events.publish": ("POST", "/demo/events/api/events", owner),
        "events.publish_public": ("POST", "/demo/events/api/p/events", {}),
        "events.subscriptions.update": ("PATCH", f"/demo/events/api/subscriptions/{sub}", owner),
        "fulfillment.orders.operate": ("POST", f"/demo/fulfillment/api/orders/{order}/operations", owner),
        "fulfillment.settings.device.put": ("PUT", "/demo/fulfillment/api/settings/device", owner),
        "support.public.tickets.create": ("POST", f"{sup}/public/tickets", {}),
        "support.tickets.update": ("PATCH", f"{sup}/tickets/{ticket}", owner),
        "support.helpdesk.put": ("PUT", f"{sup}/helpdesk", owner),
        "upgrade.submissions.create": ("POST", "/demo/upgrade/api/submissions", cust),
        "upgrade.valuations.create": ("POST", "/demo/upgrade/api/admin/valuations", owner),
        "sync.stations.register": ("POST", "/api/tenants/demo/sync/stations", owner),
    }


OPS = [
    "platform.api_keys.create", "platform.users.create", "events.publish", "events.publish_public",
    "events.subscriptions.update", "fulfillment.orders.operate", "fulfillment.settings.device.put",
    "support.public.tickets.create", "support.tickets.update", "support.helpdesk.put",
    "upgrade.submissions.create", "upgrade.valuations.create", "sync.stations.register",
]  # fmt: skip


@pytest.mark.parametrize("op_name", OPS)
def test_generated_bodies_never_get_a_5xx(
    client: httpx.Client, targets: dict[str, tuple[str, str, dict[str, str]]], op_name: str
) -> None:
    method, path, headers = targets[op_name]

    @FUZZ
    @given(raw=bodies_for(op_name))
    def run(raw: bytes) -> None:
        check(client.request(method, path, content=raw, headers={**headers, "Content-Type": "application/json"}))

    run()
    # The connection and the server are still fine afterwards.
    assert client.get("/health").status_code == 200
