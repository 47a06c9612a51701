"""One scheduler process over a shared database, for the scheduler's tests and benchmark.

``python tests/bench/scheduler_worker.py DATABASE_URL LOG_FILE [LEASE_SECONDS]``: runs delayed
jobs of kind ``test.mark`` until killed. Each run appends ``start N PID`` and then ``done N`` to the
log (O_APPEND, one write a line); a job with ``block`` blocks for ever on its first run (the
process is killed there), and runs through on the next.
"""

from __future__ import annotations

import os
import sys
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import local_db.models  # noqa: E402, F401 - every table registered
from local_db import Database  # noqa: E402
from services.core.context import Runtime  # noqa: E402
from services.core.scheduler import Scheduler, delayed  # noqa: E402


def _write(log: str, line: str) -> None:
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def main() -> None:
    url, log = sys.argv[1], sys.argv[2]
    lease = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0

    @delayed("test.mark", lease=timedelta(seconds=lease))
    def mark(rt: Runtime, tenant_id: str | None, params: dict[str, Any]) -> dict[str, Any]:
        _write(log, f"start {params['n']} {os.getpid()}\n")
        if params.get("block"):
            gate = Path(log + f".blocked-{params['n']}")
            if not gate.exists():
                # Written whole, then renamed: a reader never sees the file empty (it was read
                # between the create and the write once, under load).
                part = gate.with_name(gate.name + f".{os.getpid()}")
                part.write_text(str(os.getpid()))
                part.replace(gate)
                threading.Event().wait()  # until this process is killed
        _write(log, f"done {params['n']}\n")
        return {"n": params["n"]}

    data = Path(log).parent
    rt = Runtime(db=Database(url, migrate=False), secret_key="scheduler-test", data_dir=data)
    Scheduler(rt, poll=0.02, batch=100).start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
