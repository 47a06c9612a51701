"""Custom ticket fields per tenant: text, number, choice, date; validated; filterable."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import ValidationFailed
from tests.services.support.test_support_automation import TICKET, _configure
from tests.services.support.test_support_service import agent

FIELDS = [
    {"key": "order_ref", "label": "Order reference", "type": "text"},
    {"key": "units", "label": "Units affected", "type": "number"},
    {"key": "channel", "label": "Bought at", "type": "choice", "choices": ["web", "store"], "required": True},
    {"key": "bought_on", "label": "Bought on", "type": "date"},
]


def test_custom_fields_are_checked_stored_and_filterable(runtime: Runtime) -> None:
    _configure(runtime, custom_fields=FIELDS)
    op = agent(runtime)

    def make(**values: Any) -> Any:
        return execute(op, "support.tickets.create", body={**TICKET, "custom_fields": values})

    a = make(order_ref="SO-1", units=3, channel="web", bought_on="2026-01-31")
    b = make(units=2.5, channel="store")
    assert a.custom_fields == {"order_ref": "SO-1", "units": 3, "channel": "web", "bought_on": "2026-01-31"}
    got = execute(op, "support.tickets.get", ticket_id=b.id)
    assert got.custom_fields == {"units": 2.5, "channel": "store"}
    # Update: the keys given change, null clears, the others stay.
    upd = execute(
        op, "support.tickets.update", ticket_id=b.id, body={"custom_fields": {"units": None, "order_ref": "X"}}
    )
    assert upd.custom_fields == {"channel": "store", "order_ref": "X"}
    listed = execute(op, "support.tickets.list", query={"field": "channel:web"})
    assert [t.id for t in listed.items] == [a.id]
    assert [t.id for t in execute(op, "support.tickets.list", query={"field": "units:3"}).items] == [a.id]
    assert execute(op, "support.tickets.list", query={"field": "bought_on:2026-01-31"}).total == 1
    # Bad values: 400 naming the field; nothing stored.
    bad: list[tuple[dict[str, Any], str]] = [
        ({"channel": "phone"}, "channel"),
        ({"channel": "web", "units": "three"}, "units"),
        ({"channel": "web", "units": True}, "units"),
        ({"channel": "web", "bought_on": "31/01/2026"}, "bought_on"),
        ({"channel": "web", "bought_on": "2026-02-30"}, "bought_on"),
        ({"channel": "web", "colour": "red"}, "unknown"),
        ({"units": 1}, "required"),
    ]
    before = execute(op, "support.tickets.list", query={}).total
    for values, word in bad:
        with pytest.raises(ValidationFailed) as e:
            make(**values)
        assert word in str(e.value) + str(e.value.details)
    assert execute(op, "support.tickets.list", query={}).total == before
    with pytest.raises(ValidationFailed, match="required"):
        execute(op, "support.tickets.update", ticket_id=a.id, body={"custom_fields": {"channel": None}})
    with pytest.raises(ValidationFailed, match="field filter"):
        execute(op, "support.tickets.list", query={"field": "colour:red"})
    for wrong in (
        [{"key": "Bad Key", "label": "x", "type": "text"}],
        [{"key": "c", "label": "x", "type": "choice"}],  # a choice without choices
        [FIELDS[0], FIELDS[0]],
    ):
        with pytest.raises(ValidationFailed):
            _configure(runtime, custom_fields=wrong)
