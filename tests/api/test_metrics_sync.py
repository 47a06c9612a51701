"""The figures of issue 37's list that /metrics lacked: stations' pushes and pulls and their lag, the
scheduler's jobs due, running and failed (a real server, a real station syncing with it)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from local_db.models.scheduler import ScheduledJob
from services.core.context import Runtime
from tests.conftest import LiveServer


def metric(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample (labels in any order), or None when it is not there."""
    for line in text.splitlines():
        m = re.match(rf"^{name}\{{(.*)\}} (\S+)$", line)
        if m and all(f'{k}="{v}"' in m.group(1) for k, v in labels.items()):
            return float(m.group(2))
    return None


def test_sync_pushes_and_pulls_per_station_and_their_last_time(
    server: LiveServer, client: httpx.Client, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from tests.sync.conftest import Station, new_station_dir

    s = Station(new_station_dir(tmp_path, "metrics-a", tmp_path_factory), "metrics-a")
    try:
        s.link(server.url)
        s.do("support.tickets.create", body={"subject": "Counted", "description": "x", "email": "a@example.test",
                                             "name": "A"})  # fmt: skip
        assert s.sync().pending == 0
    finally:
        s.close()
    # A forged station id is refused and names no label.
    forged = client.get("/api/tenants/demo/sync/pull", headers={"X-Station-Id": "forged-1"})
    assert forged.status_code == 401
    text = client.get("/metrics").text
    pushes = metric(text, "platform_sync_requests_total", station="metrics-a", kind="push", outcome="ok")
    pulls = metric(text, "platform_sync_requests_total", station="metrics-a", kind="pull", outcome="ok")
    assert pushes is not None and pushes >= 1 and pulls is not None and pulls >= 1
    assert "forged-1" not in text
    assert (metric(text, "platform_sync_requests_total", station="-", kind="pull", outcome="refused") or 0) >= 1
    last_pull = metric(text, "platform_sync_last_success_timestamp_seconds", station="metrics-a", kind="pull")
    seen = metric(text, "platform_sync_station_last_seen_seconds", station="metrics-a")
    assert last_pull is not None and last_pull > 1.7e9 and seen is not None and seen >= 0


def test_scheduler_jobs_due_running_and_failed(server: LiveServer, client: httpx.Client) -> None:
    def states() -> dict[str, float]:
        text = client.get("/metrics").text
        assert "# TYPE platform_scheduled_jobs gauge" in text
        return {k: metric(text, "platform_scheduled_jobs", state=k) or 0.0 for k in ("due", "running", "failed")}

    before = states()
    rt: Runtime = server.runtime
    now = rt.clock.now()
    with rt.db.transaction(None) as s:
        s.add_all([
            ScheduledJob(name="t:due", kind="t", status="scheduled", next_run_at=now - timedelta(minutes=1)),
            ScheduledJob(name="t:later", kind="t", status="scheduled", next_run_at=now + timedelta(hours=1)),
            ScheduledJob(name="t:running", kind="t", status="scheduled", next_run_at=now - timedelta(minutes=1),
                         lease_owner="p1", lease_until=now + timedelta(minutes=5)),
            ScheduledJob(name="t:gave-up", kind="t", status="failed", last_status="failed"),
            ScheduledJob(name="t:last-failed", kind="t", status="scheduled", last_status="failed",
                         next_run_at=now + timedelta(hours=1)),
        ])  # fmt: skip
    after = states()
    assert {k: after[k] - before[k] for k in after} == {"due": 1, "running": 1, "failed": 2}
