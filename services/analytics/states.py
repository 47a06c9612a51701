"""The note's state machine as data (services/core/states.py): open -> archived."""

from services.core.states import machine, move

STATES: tuple[str, ...] = ("open", "archived")

NOTE = machine("note", STATES, [move("open", "archive", "archived")], terminal=("archived",))
check = NOTE.check
