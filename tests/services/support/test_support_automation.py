"""Macros (changes plus a reply in one action) and automatic assignment (round robin by category)."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from tests.services.support.test_support_service import agent

TICKET = {"email": "r@example.com", "name": "Rita Round", "subject": "s", "description": "d"}


def _configure(rt: Runtime, **changes: Any) -> None:
    admin = agent(rt, "admin@demo.test")
    cfg = execute(admin, "support.helpdesk.get").model_dump(mode="json")
    execute(admin, "support.helpdesk.put", body={**cfg, **changes})


def test_a_macro_replies_and_changes_the_ticket_in_one_action(runtime: Runtime) -> None:
    op = agent(runtime)
    macro = {
        "id": "refund-done",
        "title": "Refund done",
        "changes": {"state": "resolved", "priority": "low", "assignee_id": "me", "add_tags": ["refund"]},
        "reply": {"body": "Hello {requester_name}, your refund for {ticket_number} is on its way."},
    }
    close = {"id": "close", "title": "Close", "changes": {"state": "closed"}, "reply": {"body": "Closing now."}}
    _configure(runtime, macros=[macro, close])
    t = execute(op, "support.tickets.create", body=TICKET)
    out = execute(op, "support.macros.apply", ticket_id=t.id, macro_id="refund-done")
    assert (out.state, out.priority, out.assignee_id, out.tags) == ("resolved", "low", op.principal.id, ["refund"])
    assert out.first_response_at is not None  # the reply came first
    last = execute(op, "support.messages.list", ticket_id=t.id).root[-1]
    assert last.body == f"Hello Rita Round, your refund for {t.number} is on its way." and not last.internal
    # A move the state table refuses: nothing of the macro happens, its reply neither.
    other = execute(op, "support.tickets.create", body=TICKET)
    with pytest.raises(Conflict):
        execute(op, "support.macros.apply", ticket_id=other.id, macro_id="close")
    assert len(execute(op, "support.messages.list", ticket_id=other.id).root) == 1
    with pytest.raises(NotFound):
        execute(op, "support.macros.apply", ticket_id=other.id, macro_id="nope")
    # Bad macros are refused when the configuration is saved.
    with pytest.raises(ValidationFailed, match="unique"):
        _configure(runtime, macros=[macro, macro])
    with pytest.raises(ValidationFailed, match="category"):
        _configure(runtime, macros=[{**macro, "changes": {"category_id": "no-such-category"}}])


def test_round_robin_among_the_available_agents_of_a_category(runtime: Runtime) -> None:
    op = agent(runtime)
    agents = [a.id for a in execute(op, "support.agents.list").root][:2]
    first, second = agents
    cats = {c.name: c.id for c in execute(op, "support.categories.list").root}
    _configure(runtime, auto_assign={"enabled": True, "agents": {"*": agents, cats["Billing"]: [second]}})

    def made(**over: Any) -> str | None:
        return execute(op, "support.tickets.create", body={**TICKET, **over}).assignee_id

    assert [made(), made(), made()] == [first, second, first]
    assert made(category_id=cats["Billing"]) == second
    # An unassigned ticket that gets a category is assigned then.
    _configure(runtime, auto_assign={"enabled": False})
    t = execute(op, "support.tickets.create", body=TICKET)
    assert t.assignee_id is None
    _configure(runtime, auto_assign={"enabled": True, "agents": {cats["Billing"]: [second]}, "away": []})
    upd = execute(op, "support.tickets.update", ticket_id=t.id, body={"category_id": cats["Billing"]})
    assert upd.assignee_id == second
    # Away: skipped; nobody available: left unassigned.
    _configure(runtime, auto_assign={"enabled": True, "agents": {"*": agents}, "away": [first]})
    assert [made(), made()] == [second, second]
    _configure(runtime, auto_assign={"enabled": True, "agents": {"*": [first]}, "away": [first]})
    assert made() is None
    with pytest.raises(ValidationFailed, match="assignee"):
        _configure(runtime, auto_assign={"enabled": True, "agents": {"*": ["no-such-user"]}})
