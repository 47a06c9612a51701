"""MES: machines and their gateway events, production runs, OEE by machine and shift, ISA-18.2 alarms, shifts (docs/mes.md).

Importing the package imports the modules that declare its use cases, event types and demo
content; the composition root imports every services/<module> package.
"""

from services.mes import alarms, demo, events, machines, reports, runs, shifts  # noqa: F401 - declarations and demo seeders register on import
