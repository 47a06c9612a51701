"""The one state-machine helper: a module's table of transitions as data, checked in one place.

Each state machine (orders, trade-ins, tickets, webhook deliveries, outbox
entries) is a ``Machine`` built from ``Transition`` rows in its module's
``states.py``. A wrong state is 409 CONFLICT naming the current state; where
the table names who may make a move, anyone else is 403 FORBIDDEN.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from services.core.errors import Forbidden, conflict_state


@dataclass(frozen=True)
class Transition:
    source: str
    action: str
    target: str
    # Who may make the move ("customer", "staff", "agent", "system", ...); empty: anyone who may call the route.
    actors: frozenset[str] = frozenset()
    note: str = ""


def move(source: str, action: str, target: str, *actors: str, note: str = "") -> Transition:
    """A table row: ``move("offered", "accept", "accepted", "customer", "staff")``."""
    return Transition(source, action, target, frozenset(actors), note)


@dataclass(frozen=True)
class Machine:
    record: str  # how the record is named in errors ("order", "ticket")
    states: tuple[str, ...]
    transitions: tuple[Transition, ...]
    terminal: frozenset[str] = frozenset()
    # A move the table gives to others: 403 (default), or 409 where the rule reads as a state rule.
    wrong_actor: str = "forbidden"
    _table: dict[tuple[str, str], Transition] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table: dict[tuple[str, str], Transition] = {}
        for t in self.transitions:
            unknown = {t.source, t.target} - set(self.states)
            if unknown:
                raise ValueError(f"{self.record}: transition {t} names unknown states {sorted(unknown)}")
            if (t.source, t.action) in table:
                raise ValueError(f"{self.record}: {t.action} from {t.source} declared twice")
            table[(t.source, t.action)] = t
        object.__setattr__(self, "_table", table)

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.action for t in self.transitions))

    def find(self, state: str, action: str) -> Transition | None:
        return self._table.get((state, action))

    def allowed(self, state: str, action: str, actor: str | None = None) -> bool:
        t = self.find(state, action)
        return t is not None and (actor is None or not t.actors or actor in t.actors)

    def check(self, state: str, action: str, actor: str | None = None, *, verb: str | None = None) -> str:
        """The state ``action`` leads to from ``state``; 409 naming the current state, or 403 when the
        table names the actors and ``actor`` is not one of them. ``verb``: the action in the message."""
        t = self.find(state, action)
        verb = verb or action.replace("_", " ")
        if t is None or (actor is not None and t.actors and actor not in t.actors and self.wrong_actor == "conflict"):
            raise conflict_state(self.record, state, verb)
        if actor is not None and t.actors and actor not in t.actors:
            raise Forbidden(
                f"a {actor} may not {action.replace('_', ' ')} a {self.record}",
                {"state": state, "action": action, "allowed": sorted(t.actors)},
            )
        return t.target

    def actions_from(self, state: str, actor: str | None = None) -> list[str]:
        """The actions the current state allows (what a screen offers)."""
        return [t.action for t in self.transitions if t.source == state and self.allowed(state, t.action, actor)]

    def sources(self, action: str) -> frozenset[str]:
        """The states ``action`` may start from (for set-based updates: ``WHERE status IN ...``)."""
        return frozenset(t.source for t in self.transitions if t.action == action)

    def targets_from(self, state: str, actor: str | None = None) -> list[str]:
        return list(dict.fromkeys(self.find(state, a).target for a in self.actions_from(state, actor)))  # type: ignore[union-attr]


def machine(
    record: str,
    states: Iterable[str],
    transitions: Iterable[Transition],
    terminal: Iterable[str] = (),
    wrong_actor: str = "forbidden",
) -> Machine:
    return Machine(record, tuple(states), tuple(transitions), frozenset(terminal), wrong_actor)
