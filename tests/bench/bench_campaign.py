"""Campaign figures (plain script): `python tests/bench/bench_campaign.py` (full: 2,000 messages,
100,000 contacts) or `BENCH_TINY=1 python tests/bench/bench_campaign.py` (a few seconds).

1. Sending: messages per second of a campaign send (the job: recipients evaluated, each message
   rendered for its contact in the sandbox, List-Unsubscribe headers, tracked links, messages
   and counters written in batches) to the SMTP server of the tests on loopback, next to a bare
   smtplib loop sending the same messages over one connection to the same server in the same run.
2. Import of 100,000 contacts from CSV with 1 % bad rows (the use case the route runs).
"""

from __future__ import annotations

import io
import os
import smtplib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM, Ctx  # noqa: E402
from services.core.demo import seed_demo  # noqa: E402
from services.core.files import Upload  # noqa: E402
from services.core.jobs import JobWorker  # noqa: E402
from services.core.mail import MailConfig  # noqa: E402
from tests.smtp_server import SmtpServer  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1" or "--tiny" in sys.argv
MESSAGES = 50 if TINY else 2_000
IMPORT_ROWS = 2_000 if TINY else 100_000
HTML = (
    "<html><body><h1>Hello {{ contact.first_name }}</h1><p>Our spring sale starts today: 20 % off.</p>"
    '<p><a href="https://shop.example.com/sale">Shop the sale</a> or <a href="https://shop.example.com/new">see what is new</a>.</p>'
    '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>'
)
TEXT = "Hello {{ contact.first_name }},\nOur spring sale starts today: https://shop.example.com/sale\n"


def csv_rows(n: int, bad_every: int = 100, prefix: str = "c") -> bytes:
    out = io.StringIO(newline="")
    out.write("email,name,phone,city,orders\r\n")
    for i in range(n):
        if i % bad_every == bad_every - 1:
            out.write(f"not-an-email-{i},Broken Row,,Nowhere,0\r\n")  # 1 % bad rows
        else:
            out.write(f"{prefix}{i}@shop.test,Reader {i},+1555{i:07d},City {i % 50},{i % 9}\r\n")
    return out.getvalue().encode()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, SmtpServer() as sink:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret-0123456789abcdef"))
        seed_demo(rt)
        rt.provide(MailConfig(smtp_url=f"smtp://127.0.0.1:{sink.server_address[1]}", sender="Shop <news@shop.test>"))
        tenant = auth.load_tenant(rt.db, "demo")
        ctx = Ctx(rt, tenant, SYSTEM)

        # --- sending ---
        lst = execute(ctx, "campaign.lists.create", body={"name": "Bench"})
        execute(
            ctx,
            "campaign.contacts.import",
            query={"list_id": lst.id},
            upload=Upload("s.csv", "text/csv", csv_rows(MESSAGES, 10**9, "s")),
        )
        tpl = execute(
            ctx,
            "campaign.templates.email.create",
            body={"name": "B", "subject": "Hi {{ contact.first_name }}", "html": HTML, "text": TEXT},
        )
        camp = execute(
            ctx, "campaign.campaigns.create", body={"name": "Bench", "template_id": tpl.id, "list_ids": [lst.id]}
        )
        execute(ctx, "campaign.campaigns.send", id=camp.id, body={})
        worker = JobWorker(rt)
        t = time.perf_counter()
        while worker.run_one():
            pass
        ours = time.perf_counter() - t
        got = execute(ctx, "campaign.campaigns.stats", id=camp.id)
        assert got.sent == MESSAGES and len(sink.messages) == MESSAGES, (got, len(sink.messages))

        # The bare loop: the messages the send wrote, as bytes, sent again over one connection.
        wire = [(m["rcpt"][0], m["data"]) for m in sink.messages]
        sink.messages.clear()
        t = time.perf_counter()
        with smtplib.SMTP("127.0.0.1", sink.server_address[1]) as smtp:
            for to, data in wire:
                smtp.sendmail("news@shop.test", [to], data)
        bare = time.perf_counter() - t
        print(f"campaign send, {MESSAGES:,} messages over loopback SMTP: {MESSAGES / ours:,.0f} msg/s ({ours:.2f} s)")
        print(f"bare smtplib loop, same messages, same server:     {MESSAGES / bare:,.0f} msg/s ({bare:.2f} s)")
        print(f"ratio (campaign / bare):                           {bare / ours:.2f}")

        # --- import ---
        data = csv_rows(IMPORT_ROWS)
        t = time.perf_counter()
        out = execute(ctx, "campaign.contacts.import", query={}, upload=Upload("c.csv", "text/csv", data))
        took = time.perf_counter() - t
        assert out.imported == IMPORT_ROWS - IMPORT_ROWS // 100 and len(out.errors) == IMPORT_ROWS // 100, out.imported
        print(f"import of {IMPORT_ROWS:,} contacts (1 % bad rows): {took:.2f} s ({IMPORT_ROWS / took:,.0f} rows/s)")
        rt.db.dispose()


if __name__ == "__main__":
    main()
