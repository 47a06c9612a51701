"""The one state-machine helper: a module's table of transitions as data, checked in one place.

Each state machine (orders, trade-ins, tickets, webhook deliveries, outbox
entries) is a ``Machine`` built from ``Transition`` rows in its module's
``states.py``. A wrong state is 409 CONFLICT naming the current state; where
the table names who may make a move, anyone else is 403 FORBIDDEN.

A transition is a declared fact: besides its source, action and target it names
the timestamp field it stamps, the event it emits and whether it can be taken
back. The use case that performs it links to it (``use_case(..., moves=...)``),
so a record's response can say which actions its state allows to the caller
(``allowed_actions``) and the desktop greys out the others and asks before an
irreversible one, all from the same table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from services.core.errors import Forbidden, conflict_state

if TYPE_CHECKING:
    from services.core.commands import Operation
    from services.core.context import Ctx


@dataclass(frozen=True)
class Transition:
    source: str
    action: str
    target: str
    # Who may make the move ("customer", "staff", "agent", "system", ...); empty: anyone who may call the route.
    actors: frozenset[str] = frozenset()
    note: str = ""
    # The record's timestamp field the move sets to now ("shipped_at"), if any.
    stamps: str | None = None
    # The event type the move emits ("order.shipped"), if any.
    emits: str | None = None
    # Cannot be taken back: the desktop asks before it runs.
    irreversible: bool = False

    def announce(self, ctx: Ctx, data: dict[str, Any]) -> None:
        """Emit the event the move declares (``emits``), with ``data``, in the change's transaction."""
        if self.emits:
            from services.core.events import emit

            emit(ctx, self.emits, data)


def move(
    source: str,
    action: str,
    target: str,
    *actors: str,
    note: str = "",
    stamps: str | None = None,
    emits: str | None = None,
    irreversible: bool = False,
) -> Transition:
    """A table row: ``move("offered", "accept", "accepted", "customer", "staff", stamps="accepted_at")``."""
    return Transition(source, action, target, frozenset(actors), note, stamps, emits, irreversible)


@dataclass(frozen=True)
class Moves:
    """The transitions one use case performs: ``actions`` of ``machine``; ``field`` names the body
    field that picks one when the use case performs several (``{"action": "start"}``)."""

    machine: Machine
    actions: tuple[str, ...]
    field: str | None = None
    # The body value that names each action, where it is not the action itself (a transfer's
    # ``{"status": "in_transit"}`` is its ``ship``).
    values: tuple[tuple[str, str], ...] = ()

    def value_of(self, action: str) -> str:
        """What the body's ``field`` says to run ``action``."""
        return next((v for a, v in self.values if a == action), action)

    @property
    def irreversible(self) -> bool:
        """Every transition of every action it performs is irreversible."""
        found = [t for t in self.machine.transitions if t.action in self.actions]
        return bool(found) and all(t.irreversible for t in found)


# The call being run (set by ``services.core.commands.execute``): a response that carries its
# record's ``allowed_actions`` reads the caller from it, however deep it is built.
CURRENT_CTX: ContextVar[Ctx | None] = ContextVar("current_ctx", default=None)


@dataclass(frozen=True)
class Machine:
    record: str  # how the record is named in errors ("order", "ticket")
    states: tuple[str, ...]
    transitions: tuple[Transition, ...]
    terminal: frozenset[str] = frozenset()
    # A move the table gives to others: 403 (default), or 409 where the rule reads as a state rule.
    wrong_actor: str = "forbidden"
    # Which of the table's actors a caller is ("staff", "customer"); None: the table's actors are
    # not checked for the actions a response offers.
    actor_of: Callable[[Ctx], str | None] | None = field(default=None, compare=False)
    # The column holding the state.
    state_field: str = "status"
    _table: dict[tuple[str, str], Transition] = field(init=False, repr=False, compare=False)
    # The use cases that perform each action (filled by their declarations).
    _ops: dict[str, list[Operation]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _allowed: dict[tuple[Any, ...], tuple[str, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

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

    # -- declared facts -----------------------------------------------------------------------

    def moves(self, *actions: str, field: str | None = None, values: dict[str, str] | None = None) -> Moves:
        """Link a use case to the transitions it performs: ``ORDER.moves("ship")``, or
        ``CLAIM.moves("start", "close", "cancel", field="action")`` for one that performs the action
        its body names (``values``: the body's word for an action, where it is another: ``{"ship":
        "in_transit"}``). Unknown actions are refused at import."""
        unknown = [a for a in (*actions, *(values or {})) if a not in self.actions]
        if unknown or not actions:
            raise ValueError(f"{self.record}: no actions {unknown or '(none given)'} in its table {list(self.actions)}")
        return Moves(self, tuple(actions), field, tuple((values or {}).items()))

    def link(self, op: Operation) -> None:
        """Called by ``use_case``: ``op`` performs its ``moves``' actions."""
        self._allowed.clear()
        for a in op.moves.actions if op.moves else ():
            ops = self._ops.setdefault(a, [])
            if all(o.name != op.name for o in ops):
                ops.append(op)

    def performed_by(self, action: str) -> list[Operation]:
        return list(self._ops.get(action, ()))

    def allowed_for(self, ctx: Ctx | None, state: str) -> list[str]:
        """The actions ``state`` allows to the caller: the table's rule (and its actors), and, where
        use cases are linked to the action, one of them the caller may run."""
        if ctx is None:
            return self.actions_from(state)
        # The answer depends on the state and on who calls where only: a scan answers its order's
        # actions on every call, so each caller's answer is worked out once.
        key = (state, ctx.principal, ctx.tenant)
        found = self._allowed.get(key)
        if found is None:
            if len(self._allowed) > 4096:
                self._allowed.clear()
            found = self._allowed[key] = self._allowed_now(ctx, state)
        return list(found)

    def _allowed_now(self, ctx: Ctx, state: str) -> tuple[str, ...]:
        from services.core.commands import check_access
        from services.core.errors import ServiceError

        actor = self.actor_of(ctx) if self.actor_of is not None else None
        found = []
        for a in self.actions_from(state, actor):
            ops = self._ops.get(a)
            if ops:
                for op in ops:
                    try:
                        check_access(ctx, op)
                    except ServiceError:
                        continue
                    found.append(a)
                    break
            else:
                found.append(a)
        return tuple(found)

    def apply(
        self, ctx: Ctx, row: Any, action: str, actor: str | None = None, *, verb: str | None = None
    ) -> Transition:
        """Make the move on ``row``: check it (409/403 as ``check``), set the state and stamp the
        declared timestamp with ``ctx.now()``. Answers the transition (its ``emits`` names the event
        the caller emits with its payload)."""
        state = getattr(row, self.state_field)
        target = self.check(state, action, actor, verb=verb)
        t = self._table[(state, action)]
        setattr(row, self.state_field, target)
        if t.stamps:
            setattr(row, t.stamps, ctx.now())
        return t


def machine(
    record: str,
    states: Iterable[str],
    transitions: Iterable[Transition],
    terminal: Iterable[str] = (),
    wrong_actor: str = "forbidden",
    *,
    actor_of: Callable[[Ctx], str | None] | None = None,
    state_field: str = "status",
) -> Machine:
    return Machine(record, tuple(states), tuple(transitions), frozenset(terminal), wrong_actor, actor_of, state_field)
