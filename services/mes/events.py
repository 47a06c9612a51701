"""MES event types beyond the spec's three (machine.alarm, machine.status_changed,
production.run_completed), so every state change of a machine, run or alarm is announced."""

from services.core.events import register_event_type

M = "mes"

for _name, _desc in [
    ("production.run_started", "a production run started or resumed"),
    ("production.run_paused", "a production run was paused (held)"),
    ("production.run_aborted", "a production run was aborted"),
    ("machine.alarm_acknowledged", "an operator acknowledged an alarm"),
    ("machine.alarm_cleared", "an alarm returned to normal"),
]:
    register_event_type(_name, M, _desc)
