"""MES: machines and their gateway events, production runs, OEE by machine and shift, ISA-18.2 alarms, shifts (docs/mes.md).

Importing the package imports the modules that declare its use cases, event types and demo
content; the composition root imports every services/<module> package.
"""

from services.core.modules import Module
from services.mes import alarms, boms, demo, events, machines, reasons, reports, runs, shifts  # noqa: F401 - declarations, event types and demo seeders register on import

MODULE = Module(
    name="mes",
    depends=("inventory",),  # a run's location checked against Inventory's (inventory.production)
    events=(
        "machine.alarm",
        "machine.status_changed",
        "production.run_completed",
        "production.run_started",
        "production.run_paused",
        "production.run_aborted",
        "machine.alarm_acknowledged",
        "machine.alarm_cleared",
    ),
    records=("mes.machine", "mes.run", "mes.alarm", "mes.shift"),
    seeders=(demo.seed_mes,),
    position=150,
    title="Manufacturing",
)
