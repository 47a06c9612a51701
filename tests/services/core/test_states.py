"""The one state-machine helper, and every module's table built on it."""

from __future__ import annotations

import pytest

from services.core.errors import Conflict, Forbidden
from services.core.states import machine, move
from services.events.states import DELIVERY
from services.fulfillment.states import ORDER
from services.support.states import TICKET
from services.sync.states import OUTBOX
from services.upgrade.states import SUBMISSION

DOOR = machine(
    "door",
    ("shut", "open", "locked"),
    [move("shut", "open", "open"), move("open", "shut", "shut"), move("shut", "lock", "locked", "keeper")],
    terminal=(),
)


def test_a_move_leads_where_the_table_says() -> None:
    assert DOOR.check("shut", "open") == "open"
    assert DOOR.check("shut", "lock", "keeper") == "locked"
    assert DOOR.actions_from("shut") == ["open", "lock"]
    assert DOOR.actions_from("shut", "guest") == ["open"]
    assert DOOR.sources("shut") == frozenset({"open"})
    assert DOOR.targets_from("shut", "keeper") == ["open", "locked"]


def test_a_wrong_state_is_409_naming_the_current_state() -> None:
    with pytest.raises(Conflict) as e:
        DOOR.check("locked", "open")
    assert e.value.details == {"current_state": "locked", "action": "open"}


def test_an_actor_the_table_does_not_name_is_403() -> None:
    with pytest.raises(Forbidden) as e:
        DOOR.check("shut", "lock", "guest")
    assert e.value.details["allowed"] == ["keeper"]
    # Without an actor (the system's own step) the table's state rule alone applies.
    assert DOOR.check("shut", "lock") == "locked"


def test_a_table_naming_unknown_states_or_a_move_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown states"):
        machine("x", ("a",), [move("a", "go", "b")])
    with pytest.raises(ValueError, match="twice"):
        machine("x", ("a", "b"), [move("a", "go", "b"), move("a", "go", "a")])


def test_every_module_uses_the_helper_and_enforces_its_actors() -> None:
    for m in (ORDER, SUBMISSION, TICKET, DELIVERY, OUTBOX):
        assert m.transitions and set(m.terminal) <= set(m.states)
    # Trade-ins: staff actions are not the customer's, the credit step is the system's.
    with pytest.raises(Forbidden):
        SUBMISSION.check("submitted", "reject", "customer")
    with pytest.raises(Forbidden):
        SUBMISSION.check("inspected", "complete", "staff")
    assert SUBMISSION.check("offered", "accept", "staff") == "accepted"  # recorded on the customer's behalf
    assert SUBMISSION.actions_from("offered", "customer") == ["accept", "decline"]
    # Tickets read a move the table gives to others as a state rule (409), as they always have.
    with pytest.raises(Conflict):
        TICKET.check("open", "resolved", "customer")
    assert OUTBOX.check("conflict", "retry", "person") == "discarded"
    with pytest.raises(Conflict):
        OUTBOX.check("sent", "discard", "person")
