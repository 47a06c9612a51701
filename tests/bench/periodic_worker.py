"""One server process's scheduler running one declared periodic job, for the kill -9 tests.

``python tests/bench/periodic_worker.py DATABASE_URL JOB_NAME LEASE_SECONDS SMTP_URL``: imports the
modules (every declaration), keeps only ``JOB_NAME`` among the periodic jobs (with a short lease, so
a killed process's run is taken again soon), sends mail to ``SMTP_URL`` and runs until killed.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
import threading
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import local_db.models  # noqa: E402, F401 - every table registered
import services.analytics  # noqa: E402, F401 - the declarations of the jobs under test
import services.events  # noqa: E402, F401
from local_db import Database  # noqa: E402
from services.core import scheduler  # noqa: E402
from services.core.context import Runtime  # noqa: E402
from services.core.mail import MailConfig  # noqa: E402


def main() -> None:
    url, name, lease, smtp = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    job = dataclasses.replace(scheduler.PERIODIC[name], lease=timedelta(seconds=lease))
    scheduler.PERIODIC.clear()
    scheduler.PERIODIC[name] = job
    rt = Runtime(db=Database(url, migrate=False), secret_key="periodic-test", data_dir=Path(tempfile.mkdtemp()))
    rt.provide(MailConfig(smtp_url=smtp))
    scheduler.Scheduler(rt, poll=0.05).start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
