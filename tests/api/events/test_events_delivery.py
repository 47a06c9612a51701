"""Webhook delivery end to end: real server, real HTTPS receiver, independent signature check."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from gidgethub import ValidationFailure
from gidgethub.sansio import validate_event

from services.core.events import register_event_type
from tests.api.events.conftest import deliveries, publish, shipped, subscribe
from tests.api.events.receiver import Receiver, Reply
from tests.conftest import LiveServer, auth_headers

# A type of our own with no data schema, so other modules' schemas do not matter here.
PING = register_event_type("test.ping", "events", "test event type without a schema").name


def wait_status(
    client: httpx.Client, h: dict[str, str], sub_id: object, status: str, timeout: float = 5.0
) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while True:
        items = deliveries(client, h, sub_id)
        if items and all(d["status"] == status for d in items) or time.monotonic() > deadline:
            return items
        time.sleep(0.02)


def test_shipped_order_reaches_the_endpoint_signed(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    url = receiver.script("/hooks/ups")
    sub = subscribe(ev_client, owner, url, filter={"carrier": "UPS"})
    ev = publish(ev_client, owner, data=shipped("UPS"))
    assert ev["deliveries"] == 1 and ev["type"] == "order.shipped" and ev["source"] == "fulfillment"
    # How fast is measured in tests/bench/bench_events.py (publish -> receipt latency), not asserted here.
    got = receiver.wait_for(1, "/hooks/ups", timeout=10.0)
    assert len(got) == 1
    req = got[0]
    body = json.loads(req.body)
    assert list(body) == ["id", "type", "tenant_id", "source", "created_at", "data", "origin"]
    assert body["origin"] == "platform"
    assert body["id"] == ev["id"] and body["type"] == "order.shipped" and body["source"] == "fulfillment"
    assert body["tenant_id"] == ev["tenant_id"] and body["created_at"].endswith("Z")
    assert body["data"]["carrier"] == "UPS" and body["data"]["tracking_number"] == "1Z999"
    h = req.headers
    assert h["content-type"] == "application/json"
    assert h["x-service-event"] == "order.shipped"
    assert h["x-service-retry-count"] == "0"
    assert "x-service-replay" not in h
    # The signature, checked by an independent implementation (gidgethub), over the exact bytes received.
    validate_event(req.body, signature=h["x-service-signature"], secret="s3cret-key")
    changed = bytearray(req.body)
    changed[len(changed) // 2] ^= 0x01
    with pytest.raises(ValidationFailure):
        validate_event(bytes(changed), signature=h["x-service-signature"], secret="s3cret-key")
    with pytest.raises(ValidationFailure):
        validate_event(req.body, signature=h["x-service-signature"], secret="s3cret-kez")
    items = wait_status(ev_client, owner, sub["id"], "succeeded")
    assert len(items) == 1 and items[0]["id"] == h["x-service-delivery-id"]
    (attempt,) = items[0]["attempt_log"]
    assert attempt["status_code"] == 200 and attempt["response_body"] == "ok" and attempt["trigger"] == "scheduled"
    assert attempt["retry_count"] == 0 and attempt["error_class"] is None


def test_filter_missing_field_and_other_values_do_not_match(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    ups = receiver.script("/ups")
    nested = receiver.script("/nested")
    subscribe(ev_client, owner, ups, filter={"carrier": "UPS"})
    subscribe(ev_client, owner, nested, filter={"address.country": "DE", "priority": True})
    assert publish(ev_client, owner, data=shipped("FedEx"))["deliveries"] == 0
    # Nested path present and equal: matches; a missing field does not; 1 is not true.
    assert publish(ev_client, owner, data=shipped("DHL", address={"country": "DE"}, priority=True))["deliveries"] == 1
    assert publish(ev_client, owner, data=shipped("DHL", address={"country": "DE"}))["deliveries"] == 0
    assert publish(ev_client, owner, data=shipped("DHL", address={"country": "DE"}, priority=1))["deliveries"] == 0
    assert publish(ev_client, owner, data=shipped("DHL", address="DE", priority=True))["deliveries"] == 0
    assert len(receiver.wait_for(1, "/nested")) == 1
    time.sleep(0.2)
    assert receiver.hits("/ups") == [] and len(receiver.hits("/nested")) == 1
    # Another event type is not delivered to an order.shipped subscription.
    assert publish(ev_client, owner, PING, {"carrier": "UPS"}, "events")["deliveries"] == 0


def test_legacy_form_is_stored_as_event_types_and_can_ask_for_timestamp_body(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    url = receiver.script("/legacy")
    r = ev_client.post(
        "/demo/events/api/subscriptions",
        headers=owner,
        json={
            "event_type": PING,
            "target_module": "external",
            "webhook_url": url,
            "secret": "legacy-secret",
            "filter": {},
            "payload_format": "timestamp",
        },
    )
    assert r.status_code == 201, r.text
    sub = r.json()["data"]
    assert sub["event_types"] == [PING] and sub["active"] is True and "secret" not in sub
    listed = ev_client.get("/demo/events/api/subscriptions", headers=owner).json()
    assert [s["event_types"] for s in listed["data"]] == [[PING]]
    assert listed["meta"]["total"] == 1 and listed["pagination"]["total"] == 1
    publish(ev_client, owner, PING, {"n": 1}, "support")
    (req,) = receiver.wait_for(1, "/legacy")
    body = json.loads(req.body)
    assert list(body) == ["id", "type", "tenant_id", "timestamp", "data", "origin"]
    validate_event(req.body, signature=req.headers["x-service-signature"], secret="legacy-secret")


def test_500_three_times_then_200_ends_succeeded_with_4_attempts(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    url = receiver.script("/flaky", Reply(500, b"down"), Reply(500, b"down"), Reply(503, b"x" * 9000), Reply(200))
    sub = subscribe(ev_client, owner, url)
    publish(ev_client, owner)
    got = receiver.wait_for(4, "/flaky")
    assert [r.headers["x-service-retry-count"] for r in got] == ["0", "1", "2", "3"]
    assert len({r.headers["x-service-delivery-id"] for r in got}) == 1
    assert len({r.body for r in got}) == 1  # the same bytes every time
    (d,) = wait_status(ev_client, owner, sub["id"], "succeeded")
    assert d["status"] == "succeeded" and d["attempts"] == 4
    log = d["attempt_log"]
    assert [a["number"] for a in log] == [1, 2, 3, 4]
    assert [a["status_code"] for a in log] == [500, 500, 503, 200]
    assert [a["error_class"] for a in log] == ["http_5xx", "http_5xx", "http_5xx", None]
    assert log[0]["response_body"] == "down" and len(log[2]["response_body"]) == 4096
    assert all(a["duration_ms"] >= 0 and a["attempted_at"] for a in log)
    time.sleep(0.2)
    assert len(receiver.hits("/flaky")) == 4


def test_endpoint_down_fails_after_the_last_attempt_and_logs_an_alert(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    url = receiver.script("/down", Reply(404, b"gone"))
    sub = subscribe(ev_client, owner, url)
    with caplog.at_level("ERROR", logger="events.delivery"):
        publish(ev_client, owner)
        (d,) = wait_status(ev_client, owner, sub["id"], "failed")
        deadline = time.monotonic() + 2
        while "ALERT" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.02)
    assert d["status"] == "failed" and d["attempts"] == 5 and d["last_status_code"] == 404
    assert [r.headers["x-service-retry-count"] for r in receiver.hits("/down")] == ["0", "1", "2", "3", "4"]
    assert "ALERT webhook delivery failed after 5 attempts" in caplog.text and str(sub["id"]) in caplog.text


def test_redirect_is_a_failure_and_never_followed(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    target = receiver.script("/target")
    url = receiver.script("/moved", Reply(302, b"", {"location": target}))
    sub = subscribe(ev_client, owner, url)
    publish(ev_client, owner)
    (d,) = wait_status(ev_client, owner, sub["id"], "failed")
    assert {a["error_class"] for a in d["attempt_log"]} == {"redirect"}
    assert {a["status_code"] for a in d["attempt_log"]} == {302}
    assert len(receiver.hits("/moved")) == 5 and receiver.hits("/target") == []


def test_tls_errors_and_refused_connections_are_failed_attempts(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    # "localhost" is in the certificate; a name that is not fails verification.
    bad_name = subscribe(ev_client, owner, f"https://127.0.0.2:{receiver.port}/tls")
    closed = subscribe(ev_client, owner, "https://127.0.0.1:9/closed")
    publish(ev_client, owner)
    (a,) = wait_status(ev_client, owner, bad_name["id"], "failed")
    (b,) = wait_status(ev_client, owner, closed["id"], "failed")
    assert {x["error_class"] for x in a["attempt_log"]} <= {"tls_error", "connection_error"}
    assert {x["error_class"] for x in b["attempt_log"]} == {"connection_error"}
    assert receiver.hits("/tls") == []


def test_replay_one_event_and_a_range_carry_the_replay_header(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver, ev_server: LiveServer
) -> None:
    url = receiver.script("/replay")
    sub = subscribe(ev_client, owner, url)
    e1 = publish(ev_client, owner, data=shipped(order_id="a"))
    e2 = publish(ev_client, owner, data=shipped(order_id="b"))
    receiver.wait_for(2, "/replay")
    r = ev_client.post(f"/demo/events/api/events/{e1['id']}/replay", headers=owner)
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {
        "event_id": e1["id"],
        "event_type": "order.shipped",
        "events": 1,
        "deliveries": 1,
        "from": None,
        "to": None,
    }
    got = receiver.wait_for(3, "/replay")
    assert got[2].headers["x-service-replay"] == "true" and json.loads(got[2].body)["id"] == e1["id"]
    assert got[2].headers["x-service-delivery-id"] != got[0].headers["x-service-delivery-id"]
    validate_event(got[2].body, signature=got[2].headers["x-service-signature"], secret="s3cret-key")
    # The range covers e2 only.
    body = {"event_type": "order.shipped", "from": e2["created_at"], "to": e2["created_at"]}
    r = ev_client.post("/demo/events/api/events/replay", json=body, headers=owner)
    assert r.status_code == 200, r.text
    assert r.json()["data"]["events"] == 1 and r.json()["data"]["deliveries"] == 1
    got = receiver.wait_for(4, "/replay")
    assert json.loads(got[3].body)["id"] == e2["id"] and got[3].headers["x-service-replay"] == "true"
    items = deliveries(ev_client, owner, sub["id"])
    assert sorted(d["kind"] for d in items) == ["event", "event", "replay", "replay"]
    manual = [a for d in wait_status(ev_client, owner, sub["id"], "succeeded") if d["replay"] for a in d["attempt_log"]]
    assert {a["trigger"] for a in manual} == {"manual"}


def test_replay_bad_input(ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver) -> None:
    e = publish(ev_client, owner)
    base = "/demo/events/api/events/replay"
    r = ev_client.post(
        base,
        json={"event_type": "order.shipped", "from": "2026-02-02T00:00:00Z", "to": "2026-02-01T00:00:00Z"},
        headers=owner,
    )
    assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR" and "after" in r.text
    r = ev_client.post(
        base,
        json={"event_type": "order.shipped", "from": "2020-01-01T00:00:00Z", "to": "2020-02-01T00:00:00Z"},
        headers=owner,
    )
    assert r.status_code == 400 and "90-day" in r.json()["error"]
    assert r.json()["details"]["retention_days"] == 90
    r = ev_client.post(
        base,
        json={"event_type": "no.such", "from": "2026-01-01T00:00:00Z", "to": "2026-01-02T00:00:00Z"},
        headers=owner,
    )
    assert r.status_code == 400
    r = ev_client.post(base, json={"event_type": "order.shipped", "from": "yesterday", "to": "now"}, headers=owner)
    assert r.status_code == 400
    r = ev_client.post("/demo/events/api/events/00000000-0000-0000-0000-000000000000/replay", headers=owner)
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
    # Another tenant's event is unknown here.
    other = {"Authorization": owner["Authorization"]}
    r = ev_client.post(f"/other/events/api/events/{e['id']}/replay", headers=other)
    assert r.status_code in (403, 404)


def test_test_event_and_delivery_history(ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver) -> None:
    url = receiver.script("/test")
    sub = subscribe(ev_client, owner, url, secret="test-secret")
    r = ev_client.post(f"/demo/events/api/subscriptions/{sub['id']}/test", headers=owner)
    assert r.status_code == 200, r.text
    d = r.json()["data"]
    assert d["kind"] == "test" and d["status"] == "pending" and d["max_attempts"] == 1
    (req,) = receiver.wait_for(1, "/test")
    body = json.loads(req.body)
    assert body["type"] == "webhook.test" and body["data"]["subscription_id"] == sub["id"]
    assert req.headers["x-service-event"] == "webhook.test" and req.headers["x-service-delivery-id"] == d["id"]
    validate_event(req.body, signature=req.headers["x-service-signature"], secret="test-secret")
    (hist,) = wait_status(ev_client, owner, sub["id"], "succeeded")
    assert hist["attempt_log"][0]["trigger"] == "manual"
    one = ev_client.get(f"/demo/events/api/deliveries/{d['id']}", headers=owner)
    assert one.status_code == 200 and one.json()["data"]["status"] == "succeeded"
    # Filters and both pagination forms on the history.
    assert (
        ev_client.get(f"/demo/events/api/subscriptions/{sub['id']}/deliveries?status=failed", headers=owner).json()[
            "data"
        ]
        == []
    )
    r = ev_client.get(f"/demo/events/api/subscriptions/{sub['id']}/deliveries?offset=0&limit=5", headers=owner)
    assert r.json()["pagination"] == {"total": 1, "limit": 5, "offset": 0}


def test_deactivate_cancels_pending_and_stops_delivery(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    url = receiver.script("/off", Reply(500))
    sub = subscribe(ev_client, owner, url)
    base = f"/demo/events/api/subscriptions/{sub['id']}"
    assert ev_client.post(base + "/activate", headers=owner).status_code == 409
    publish(ev_client, owner)
    receiver.wait_for(1, "/off")
    r = ev_client.post(base + "/deactivate", headers=owner)
    assert r.status_code == 200 and r.json()["data"]["active"] is False
    r = ev_client.post(base + "/deactivate", headers=owner)
    assert r.status_code == 409 and r.json()["details"]["current_state"] == "inactive"
    assert publish(ev_client, owner)["deliveries"] == 0
    assert ev_client.post(base + "/test", headers=owner).status_code == 409
    n = len(receiver.hits("/off"))
    time.sleep(0.3)
    assert len(receiver.hits("/off")) == n
    (d,) = deliveries(ev_client, owner, sub["id"])
    assert d["status"] == "cancelled"
    assert ev_client.post(base + "/activate", headers=owner).json()["data"]["active"] is True


def test_secret_rotation_signs_with_both_secrets_during_the_grace_window(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    url = receiver.script("/rot")
    sub = subscribe(ev_client, owner, url, secret="old-secret")
    base = f"/demo/events/api/subscriptions/{sub['id']}/rotate-secret"
    assert ev_client.post(base, json={"secret": "old-secret"}, headers=owner).status_code == 400
    assert ev_client.post(base, json={"secret": ""}, headers=owner).status_code == 400
    r = ev_client.post(base, json={"secret": "new-secret", "grace_seconds": 3600}, headers=owner)
    assert r.status_code == 200 and r.json()["data"]["previous_secret_expires_at"]
    publish(ev_client, owner)
    (req,) = receiver.wait_for(1, "/rot")
    validate_event(req.body, signature=req.headers["x-service-signature"], secret="new-secret")
    validate_event(req.body, signature=req.headers["x-service-signature-previous"], secret="old-secret")
    r = ev_client.post(base, json={"secret": "newest-secret", "grace_seconds": 0}, headers=owner)
    assert r.status_code == 200 and r.json()["data"]["previous_secret_expires_at"] is None
    publish(ev_client, owner)
    got = receiver.wait_for(2, "/rot")
    assert "x-service-signature-previous" not in got[1].headers
    validate_event(got[1].body, signature=got[1].headers["x-service-signature"], secret="newest-secret")


def test_an_anonymously_published_event_is_delivered_marked_public_and_the_route_can_be_turned_off(
    ev_client: httpx.Client, owner: dict[str, str], receiver: Receiver
) -> None:
    """Issue 13, item 15: anyone can publish "order.shipped" through /p/events; the subscriber must
    be able to tell it from the platform's own, and the tenant can close the route. Issue 35: it is
    stored and delivered as public.order.shipped, only to subscriptions naming it or public.*."""
    url = receiver.script("/hooks/public")
    subscribe(ev_client, owner, url, event_types=["order.shipped", "public.order.shipped"])
    body = {"type": "order.shipped", "source": "fulfillment", "data": shipped()}
    r = ev_client.post("/demo/events/api/p/events", json=body)  # no credentials
    assert r.status_code == 201, r.text
    assert r.json()["data"]["type"] == "public.order.shipped"
    publish(ev_client, owner, data=shipped(order_id="ord-2"))  # the platform's own
    got = sorted(
        (json.loads(x.body) for x in receiver.wait_for(2, "/hooks/public")), key=lambda b: b["data"]["order_id"]
    )
    assert [(b["data"]["order_id"], b["type"], b["origin"]) for b in got] == [
        ("ord-1", "public.order.shipped", "public"),
        ("ord-2", "order.shipped", "platform"),
    ]
    # Signed all the same (the mark is inside the signed bytes).
    for req in receiver.hits("/hooks/public"):
        validate_event(req.body, signature=req.headers["x-service-signature"], secret="s3cret-key")

    # The setting: on by default, owner/admin turn it off, staff may read it.
    s = "/demo/events/api/settings"
    assert ev_client.get(s, headers=owner).json()["data"] == {"public_publish": True, "endpoint_disable_days": 5}
    operator = auth_headers(ev_client, "operator@demo.test")
    denied = ev_client.put(s, json={"public_publish": False}, headers=operator)
    assert denied.status_code == 403 and denied.json()["code"] == "FORBIDDEN"
    for bad in ({}, {"public_publish": "no"}, {"public_publish": False, "x": 1}):
        r = ev_client.put(s, json=bad, headers=owner)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", bad
    r = ev_client.put(s, json={"public_publish": False}, headers=auth_headers(ev_client, "admin@demo.test"))
    assert r.status_code == 200 and r.json()["data"] == {"public_publish": False, "endpoint_disable_days": 5}
    off = ev_client.post("/demo/events/api/p/events", json=body)
    assert off.status_code == 403
    assert off.json() == {"error": "public event publishing is turned off for this tenant", "code": "FORBIDDEN"}
    # Nothing was recorded or sent; the authenticated route still publishes.
    listed = ev_client.get("/demo/events/api/events", params={"type": "public.order.shipped"}, headers=owner).json()
    assert len(listed["data"]) == 1
    assert ev_client.post("/other/events/api/p/events", json=body).status_code == 201  # another tenant's setting
    assert ev_client.put(s, json={"public_publish": True}, headers=owner).status_code == 200
    assert ev_client.post("/demo/events/api/p/events", json=body).status_code == 201
