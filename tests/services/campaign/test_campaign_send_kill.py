"""Issue 35: nothing sent twice after a kill -9 of the mail sender. A worker process sending a
campaign is killed while a message is on the wire (the SMTP server stored it and keeps its answer
back); the campaign is resumed in another process, and no reader gets the campaign twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from local_db.models.campaign import CampaignMessage
from services.campaign.sending import CampaignConfig
from services.core.commands import execute
from services.core.context import Runtime
from services.core.mail import MailConfig
from tests.services.campaign.test_campaign_pause import READERS, _big_campaign, ctx_for, run_jobs
from tests.smtp_server import SmtpServer

WORKER = Path(__file__).resolve().parents[2] / "bench" / "job_worker.py"
KILL_AT = 40


class _KillAt(list[dict[str, Any]]):
    """The server's inbox: when message ``at`` is stored (its answer not yet given), the sending
    process is killed with -9, so its batch is on the wire and never recorded."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at
        self.proc: subprocess.Popen[str] | None = None

    def append(self, item: dict[str, Any]) -> None:
        super().append(item)
        if len(self) == self.at and self.proc is not None:
            self.proc.kill()


def _rows(rt: Runtime, campaign_id: str) -> dict[str, int]:
    with rt.db.reading(None) as s:
        q = select(CampaignMessage.status, func.count()).where(CampaignMessage.campaign_id == campaign_id)
        return {st: int(n) for st, n in s.execute(q.group_by(CampaignMessage.status))}


def test_a_send_killed_mid_batch_never_sends_a_reader_the_campaign_twice(runtime: Runtime) -> None:
    camp = _big_campaign(runtime)
    with SmtpServer() as smtp:
        inbox = _KillAt(KILL_AT)
        smtp.messages = inbox
        execute(ctx_for(runtime), "campaign.campaigns.send", id=camp.id, body={})  # queued, not run here
        url = runtime.db.engine.url.render_as_string(hide_password=False)
        proc = subprocess.Popen([sys.executable, str(WORKER), url, smtp.url], stdout=subprocess.PIPE, text=True)
        inbox.proc = proc
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            assert proc.wait(120) == -9  # killed by the inbox at message KILL_AT
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
        before = len(smtp.messages)
        assert before >= KILL_AT
        # The batch was claimed before it left: its rows wait as `sending`, none recorded as sent.
        assert _rows(runtime, camp.id) == {"sending": READERS}
        # Staff resume it (pause, run): another process sends to whoever has no row: nobody.
        runtime.provide(MailConfig(smtp_url=smtp.url, sender="Shop <news@shop.test>"))
        runtime.provide(CampaignConfig(public_url="https://mail.shop.test", connections=2))
        for status in ("paused", "running"):
            execute(ctx_for(runtime), "campaign.campaigns.update", id=camp.id, body={"status": status})
        run_jobs(runtime)
    rcpts = [m["rcpt"][0] for m in smtp.messages]
    assert len(rcpts) == len(set(rcpts)) == before  # at most once: lost in flight, never doubled
    done = execute(ctx_for(runtime), "campaign.campaigns.get", id=camp.id)
    stats = execute(ctx_for(runtime), "campaign.campaigns.stats", id=camp.id)
    assert done.status == "finished" and stats.recipients == READERS and stats.sent == 0
