"""MES state machines as data (services/core/states.py): machine status, production run, alarm.

* Machine status: any status may follow any other (the machine or its gateway says what it does);
  setting the status it already has is 409.
* Production run (PackML Held/Complete/Aborted): planned -> running <-> paused -> completed, and
  aborted from planned, running or paused. Counts freeze when the run ends.
* Alarm (ISA-18.2): active_unacknowledged -> active_acknowledged (acknowledge) -> cleared (clear);
  clearing first gives cleared_unacknowledged, which acknowledge ends. Raised again while it
  returned to normal unacknowledged, it is active and unacknowledged again.
"""

from services.core.states import machine, move

MACHINE_STATES: tuple[str, ...] = ("running", "idle", "setup", "down", "offline")
MACHINE_STATUS = machine(
    "machine",
    MACHINE_STATES,
    [move(a, b, b) for a in MACHINE_STATES for b in MACHINE_STATES if a != b],
)

RUN_STATES: tuple[str, ...] = ("planned", "running", "paused", "completed", "aborted")
RUN_ENDED = frozenset({"completed", "aborted"})
RUN = machine(
    "production run",
    RUN_STATES,
    [
        move("planned", "start", "running"),
        move("running", "pause", "paused"),
        move("paused", "resume", "running"),
        move("running", "complete", "completed"),
        move("paused", "complete", "completed"),
        move("planned", "abort", "aborted"),
        move("running", "abort", "aborted"),
        move("paused", "abort", "aborted"),
    ],
    terminal=RUN_ENDED,
)
# PUT production/runs/[id] {"status": target}: the action that reaches the target from a state.
RUN_ACTION_TO = {"paused": "pause", "completed": "complete", "aborted": "abort"}

ALARM_STATES: tuple[str, ...] = ("active_unacknowledged", "active_acknowledged", "cleared_unacknowledged", "cleared")
ALARM = machine(
    "alarm",
    ALARM_STATES,
    [
        move("active_unacknowledged", "acknowledge", "active_acknowledged"),
        move("cleared_unacknowledged", "acknowledge", "cleared"),
        move("active_unacknowledged", "clear", "cleared_unacknowledged"),
        move("active_acknowledged", "clear", "cleared"),
        move("cleared_unacknowledged", "raise", "active_unacknowledged"),
    ],
    terminal=("cleared",),
)
# On the active list until both cleared and acknowledged (ISA-18.2).
ALARM_LISTED = frozenset({"active_unacknowledged", "active_acknowledged", "cleared_unacknowledged"})


def run_action(current: str, target: str) -> str:
    """The run action a PUT's ``status`` asks for (``running`` is start or resume by the state)."""
    if target == "running":
        return "resume" if current == "paused" else "start"
    return RUN_ACTION_TO.get(target, target)
