"""One server process's job worker, for the kill -9 tests of jobs that send mail.

``python tests/bench/job_worker.py DATABASE_URL SMTP_URL``: imports the modules (every job kind),
sends mail to ``SMTP_URL`` (campaign mail over two connections) and runs queued jobs until killed.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import local_db.models  # noqa: E402, F401 - every table registered
import services.campaign  # noqa: E402, F401 - the job kinds under test
from local_db import Database  # noqa: E402
from services.campaign.sending import CampaignConfig  # noqa: E402
from services.core.context import Runtime  # noqa: E402
from services.core.jobs import JobWorker  # noqa: E402
from services.core.mail import MailConfig  # noqa: E402


def main() -> None:
    url, smtp = sys.argv[1], sys.argv[2]
    rt = Runtime(db=Database(url, migrate=False), secret_key="job-test", data_dir=Path(tempfile.mkdtemp()))
    rt.provide(MailConfig(smtp_url=smtp, sender="Shop <news@shop.test>"))
    rt.provide(CampaignConfig(public_url="https://mail.shop.test", connections=2))
    JobWorker(rt, poll=0.05).start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
