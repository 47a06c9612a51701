"""The event-types route and subscriptions to every type (``*``) or a module's (``<module>.*``)."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import func, select

from local_db.models.events import Delivery, Subscription
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import ValidationFailed
from services.core.events import emit
from tests.conftest import auth_headers
from tests.services.events.conftest import ctx_for
from tests.services.events.test_events_worker import SHIPPED


def _sub(rt: Runtime, types: list[str]) -> str:
    body = {"event_types": types, "webhook_url": "https://hooks.example.com/x", "secret": "k"}
    return str(execute(ctx_for(rt), "events.subscriptions.create", body=body).id)


def _deliveries(rt: Runtime) -> dict[str, int]:
    with rt.db.reading(None) as s:
        rows = s.execute(select(Delivery.subscription_id, func.count()).group_by(Delivery.subscription_id)).all()
    return {sid: n for sid, n in rows}


def test_star_and_module_subscriptions_take_the_catalogues_types(runtime: Runtime) -> None:
    every, fulfillment, one, qr = (
        _sub(runtime, ["*"]),
        _sub(runtime, ["fulfillment.*"]),
        _sub(runtime, ["order.shipped"]),
        _sub(runtime, ["qr.*"]),
    )
    ctx = ctx_for(runtime)
    execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})
    with ctx.write():
        emit(ctx, "qr.scanned", {"code": "x"})
    assert _deliveries(runtime) == {every: 2, fulfillment: 1, one: 1, qr: 1}


@pytest.mark.parametrize(
    ("types", "said"),
    [
        (["nosuch.*"], "unknown module 'nosuch'"),
        (["no.such"], "unknown event type"),
        (["*", "sign.*", "x.*"], "unknown module 'x'"),
    ],
)
def test_an_unknown_type_or_module_is_refused_and_nothing_stored(runtime: Runtime, types: list[str], said: str) -> None:
    with runtime.db.reading(None) as s:
        before = s.execute(select(func.count()).select_from(Subscription)).scalar_one()
    with pytest.raises(ValidationFailed) as e:
        _sub(runtime, types)
    assert said in f"{e.value.message} {e.value.details}"
    with runtime.db.reading(None) as s:
        assert s.execute(select(func.count()).select_from(Subscription)).scalar_one() == before


def test_the_event_types_route_lists_type_module_description_and_schema(client: httpx.Client) -> None:
    r = client.get("/demo/events/api/event-types", headers=auth_headers(client, "admin@demo.test"))
    assert r.status_code == 200, r.text
    items = {i["type"]: i for i in r.json()["data"]["items"]}
    shipped = items["order.shipped"]
    assert shipped["module"] == "fulfillment" and shipped["description"]
    assert {"order_id", "tracking_number", "carrier"} <= set(shipped["schema"]["properties"])
    assert items["qr.scanned"]["schema"] == {"type": "object"}  # no payload model declared
    assert client.get("/demo/events/api/event-types").status_code == 401


def test_resend_answers_202_with_the_new_delivery(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    body = {"event_types": ["fulfillment.*"], "webhook_url": "https://hooks.example.com/r", "secret": "k"}
    sub = client.post("/demo/events/api/subscriptions", json=body, headers=h)
    assert sub.status_code == 201, sub.text
    sid = sub.json()["data"]["id"]
    assert (
        client.post("/demo/events/api/events", json={"type": "order.shipped", "data": SHIPPED}, headers=h).status_code
        == 201
    )
    listed = client.get(f"/demo/events/api/subscriptions/{sid}/deliveries", headers=h).json()["data"]
    r = client.post(f"/demo/events/api/deliveries/{listed[0]['id']}/resend", headers=h)
    assert r.status_code == 202, r.text
    assert set(r.json()["data"]) == {"id", "status"} and r.json()["data"]["id"] != listed[0]["id"]
    assert client.post("/demo/events/api/deliveries/nope/resend", headers=h).status_code == 404
