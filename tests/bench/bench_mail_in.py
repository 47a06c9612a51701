"""Inbound helpdesk mail benchmark (not part of `make test`): run

    .venv/bin/python tests/bench/bench_mail_in.py [mails]

On a platform database (file SQLite, the demo tenant) it delivers ``mails`` (default 2,000) to a
real IMAP server on loopback (tests/imap_server.py) and polls the mailbox once: every mail fetched,
filed as a new ticket (its first message, the log row; a tenth carry a PDF attachment, a tenth
answer an earlier mail and become messages on its ticket) and marked seen. Then the same number sent
to the SMTP endpoint (aiosmtpd) over one connection. It prints mails per second for each source,
and fails when a mail is lost or filed twice. No asserts on time.
"""

from __future__ import annotations

import os
import smtplib
import socket
import sys
import tempfile
import time
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import func, select  # noqa: E402
from timing import size  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from local_db.models.support import SupportInboundMail  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM  # noqa: E402
from services.core.demo import seed_demo  # noqa: E402
from services.support import smtp_in  # noqa: E402
from services.support.inbound import tenant_ctx  # noqa: E402
from services.support.mailbox import Mailbox, poll_mailbox  # noqa: E402
from tests.imap_server import ImapServer  # noqa: E402

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def make_mail(i: int, prefix: str) -> bytes:
    m = EmailMessage(policy=default)
    m["From"] = f"Customer {i} <customer{i % 500}@example.com>"
    m["To"] = "help@demo.test"
    m["Subject"] = f"{prefix} question {i} about my order"
    m["Message-ID"] = f"<{prefix}-{i}@bench.example>"
    if i % 10 == 9:  # an answer to an earlier mail
        m["In-Reply-To"] = f"<{prefix}-{i - 5}@bench.example>"
    m.set_content(f"Hello, my order {i} has a problem: it arrived late and the box was damaged.\n")
    if i % 10 == 3:
        m.add_attachment(PDF + str(i).encode(), maintype="application", subtype="pdf", filename=f"photo-{i}.pdf")
    return m.as_bytes()


def filed(rt: object, source: str) -> int:
    with rt.db.reading(None) as s:  # type: ignore[attr-defined]
        return int(
            s.scalar(select(func.count()).select_from(SupportInboundMail).where(SupportInboundMail.source == source))
            or 0
        )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else size(2000, 20)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), secret_key="bench-secret-key-0123456789abcdef", demo=True)
        rt = platform_runtime(settings)
        seed_demo(rt)
        # A high hourly limit: thousands of mails from 500 senders are a load, not a loop.
        ctx = tenant_ctx(rt, "demo")
        cfg = execute(ctx.with_principal(SYSTEM), "support.helpdesk.get").model_dump(mode="json")
        cfg["mail"] = {**cfg["mail"], "address": "help@demo.test", "max_mails_per_sender_per_hour": 10000}
        execute(ctx.with_principal(SYSTEM), "support.helpdesk.put", body=cfg)

        with ImapServer() as imap:
            for i in range(n):
                imap.deliver(make_mail(i, "imap"))
            t0 = time.perf_counter()
            got = poll_mailbox(rt, Mailbox.parse(imap.url()))
            took = time.perf_counter() - t0
            outcomes = {o: sum(1 for r in got if r.outcome == o) for o in {r.outcome for r in got}}
            if len(got) != n or filed(rt, "imap") != n or len(imap.seen()) != n:
                raise SystemExit(f"IMAP: {len(got)} filed of {n}, {len(imap.seen())} marked seen")
            print(f"IMAP poll: {n} mails in {took:.2f} s = {n / took:.0f} mails/s  {outcomes}")
            again = poll_mailbox(rt, Mailbox.parse(imap.url()))
            if again or filed(rt, "imap") != n:
                raise SystemExit("IMAP: a second poll filed mails again")

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        controller = smtp_in.start(rt, "127.0.0.1", port)
        try:
            mails = [make_mail(i, "smtp") for i in range(n)]
            t0 = time.perf_counter()
            with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
                for raw in mails:
                    smtp.sendmail("customer@example.com", ["help@demo.test"], raw)
            took = time.perf_counter() - t0
        finally:
            controller.stop()
        if filed(rt, "smtp") != n:
            raise SystemExit(f"SMTP: {filed(rt, 'smtp')} filed of {n}")
        print(f"SMTP endpoint: {n} mails in {took:.2f} s = {n / took:.0f} mails/s")
        rt.db.dispose()


if __name__ == "__main__":
    main()
