"""Events syncs: events published and the settings changed offline reach the platform once. A
subscription is made on the platform only (it carries a signing secret), and its test delivery
reaches the subscriber's address, which a station does not: both refused on a station at once."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.errors import Conflict
from tests.sync.modules.kit import Platform, applied_once, offline, row


def test_events(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        ev = a.do("events.publish", body={"type": "machine.alarm", "data": {"code": "E7"}})
        a.do("events.settings.update", body={"public_publish": False})
    # The event log is the platform's (stations keep their own events until sent): not pulled.
    applied_once(platform, a, b, [row("events", ev.id, type="machine.alarm")], pulled=False)
    with pytest.raises(Conflict) as made:
        a.do("events.subscriptions.create", "owner@demo.test", body={
            "webhook_url": "https://hooks.example.com/x", "event_types": ["order.shipped"], "secret": "s" * 32})  # fmt: skip
    assert made.value.details["reason"] == "online_only"
    with pytest.raises(Conflict) as tried:
        a.do("events.subscriptions.test", "owner@demo.test", sub_id=ev.id)
    assert tried.value.details["reason"] == "needs_service"
