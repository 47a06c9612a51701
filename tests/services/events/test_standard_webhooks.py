"""Standard Webhooks signing per subscription, checked by the standard's own library against
deliveries received by a real HTTPS receiver."""

from __future__ import annotations

import asyncio
import base64
import json
import time

import pytest
from sqlalchemy import select
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from local_db.models.events import Subscription
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.events import delivery
from tests.api.events.receiver import Certs, Receiver
from tests.services.events.conftest import ctx_for
from tests.services.events.test_events_worker import SHIPPED, configure, run_worker

STD = {"event_types": ["order.shipped"], "signing": "standard-webhooks"}


def _said(exc: pytest.ExceptionInfo[ValidationFailed]) -> str:
    return f"{exc.value.message} {exc.value.details}"


def _deliver(rt: Runtime, receiver: Receiver, path: str, n: int) -> None:
    async def body(ws: list[delivery.DeliveryWorker]) -> None:
        await asyncio.to_thread(execute, ctx_for(rt), "events.publish", body={"type": "order.shipped", "data": SHIPPED})
        for _ in range(500):
            if len(receiver.hits(path)) >= n:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("no delivery arrived")

    run_worker(rt, body)


def test_a_standard_webhooks_subscription_is_signed_as_the_standard_says(
    runtime: Runtime, certs: Certs, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(runtime, certs)
    made = execute(
        ctx_for(runtime), "events.subscriptions.create", body={**STD, "webhook_url": receiver.script("/std")}
    )
    answer = made.model_dump(mode="json")
    secret = answer["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32
    assert answer["signing"] == "standard-webhooks"
    read = execute(ctx_for(runtime), "events.subscriptions.get", sub_id=made.id).model_dump(mode="json")
    assert "secret" not in read  # shown once
    # An hmac-sha256 subscription next to it keeps today's headers, and no secret comes back.
    hmac_sub = execute(
        ctx_for(runtime),
        "events.subscriptions.create",
        body={"event_types": ["order.shipped"], "webhook_url": receiver.script("/old"), "secret": "k"},
    )
    assert "secret" not in hmac_sub.model_dump(mode="json") and hmac_sub.signing == "hmac-sha256"

    _deliver(runtime, receiver, "/std", 1)
    (hit,) = receiver.hits("/std")
    payload = Webhook(secret).verify(hit.body, hit.headers)  # the standard's library accepts it
    assert payload["type"] == "order.shipped" and payload["data"] == SHIPPED
    assert json.loads(hit.body) == payload  # today's body
    assert not [h for h in hit.headers if h.startswith("x-service-")]
    assert abs(int(hit.headers["webhook-timestamp"]) - time.time()) < 300
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + base64.b64encode(b"another key of thirty-two bytes!").decode()).verify(hit.body, hit.headers)
    (old,) = receiver.hits("/old")
    assert "x-service-signature" in old.headers and "webhook-signature" not in old.headers

    # A delivery whose timestamp is six minutes old (a captured one replayed) is refused by it.
    monkeypatch.setattr(delivery, "_unix_now", lambda: time.time() - 360)
    _deliver(runtime, receiver, "/std", 2)
    stale = receiver.hits("/std")[1]
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(secret).verify(stale.body, stale.headers)


def test_a_given_standard_secret_is_kept_and_bad_ones_are_refused(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    mine = "whsec_" + base64.b64encode(b"k" * 24).decode()
    made = execute(
        ctx, "events.subscriptions.create", body={**STD, "webhook_url": "https://h.example.com/a", "secret": mine}
    )
    assert "secret" not in made.model_dump(mode="json")
    for bad, why in (
        ("plain-secret", "starts with whsec_"),
        ("whsec_not base64!", "base64"),
        ("whsec_" + base64.b64encode(b"short").decode(), "24 to 64 bytes"),
    ):
        with pytest.raises(ValidationFailed) as e:
            execute(
                ctx,
                "events.subscriptions.create",
                body={**STD, "webhook_url": "https://h.example.com/b", "secret": bad},
            )
        assert why in _said(e)
        with pytest.raises(ValidationFailed) as e:
            execute(ctx, "events.subscriptions.rotate_secret", sub_id=made.id, body={"secret": bad})
        assert why in _said(e)
    with pytest.raises(ValidationFailed) as e:
        execute(
            ctx,
            "events.subscriptions.create",
            body={"event_types": ["order.shipped"], "webhook_url": "https://h.example.com/c"},
        )
    assert "secret is required" in _said(e)
    with pytest.raises(ValidationFailed):
        execute(
            ctx, "events.subscriptions.create", body={**STD, "webhook_url": "https://h.example.com/d", "signing": "md5"}
        )
    with runtime.db.reading(None) as s:  # nothing stored by the refused calls
        assert [u for (u,) in s.execute(select(Subscription.webhook_url))] == ["https://h.example.com/a"]


def test_resend_sends_one_delivery_again_to_its_one_endpoint(
    runtime: Runtime, certs: Certs, receiver: Receiver
) -> None:
    configure(runtime, certs)
    ctx = ctx_for(runtime)
    body = {"event_types": ["order.shipped"], "secret": "k"}
    execute(ctx, "events.subscriptions.create", body={**body, "webhook_url": receiver.script("/one")})
    execute(ctx, "events.subscriptions.create", body={**body, "webhook_url": receiver.script("/other")})
    _deliver(runtime, receiver, "/one", 1)
    first = receiver.hits("/one")[0]
    again = execute(ctx, "events.deliveries.resend", delivery_id=first.headers["x-service-delivery-id"])
    assert again.status == "pending" and again.id != first.headers["x-service-delivery-id"]

    async def wait(ws: list[delivery.DeliveryWorker]) -> None:
        for _ in range(500):
            if len(receiver.hits("/one")) == 2:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the resend did not arrive")

    run_worker(runtime, wait)
    second = receiver.hits("/one")[1]
    assert second.body == first.body and second.headers["x-service-delivery-id"] == again.id
    assert second.headers["x-service-replay"] == "true"
    assert len(receiver.hits("/other")) == 1  # only the one endpoint
    with pytest.raises(NotFound):
        execute(ctx, "events.deliveries.resend", delivery_id="no-such-delivery")
    sub_id = execute(ctx, "events.deliveries.get", delivery_id=again.id).subscription_id
    execute(ctx, "events.subscriptions.deactivate", sub_id=sub_id)
    with pytest.raises(Conflict):
        execute(ctx, "events.deliveries.resend", delivery_id=again.id)
