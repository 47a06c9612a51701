"""``serve --workers 2`` on PostgreSQL: one command starts two worker processes on one port; the
rate limit is counted once across them (the sixth sign-in a minute is 429 with the limit's
headers, whichever worker answers); a worker killed with SIGKILL is replaced while the other
keeps answering."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ON_POSTGRES, TEST_SECRET, _pg_admin, _pg_template, _pg_url

pytestmark = pytest.mark.skipif(not ON_POSTGRES, reason="several workers run on PostgreSQL (PLATFORM_TEST_BACKEND)")
ROOT = Path(__file__).resolve().parents[2]


def worker_pids(parent: int) -> set[int]:
    """The parent's uvicorn worker processes (multiprocessing spawns them)."""
    out = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(parent)], capture_output=True, text=True
    ).stdout
    return {int(line.split()[0]) for line in out.splitlines() if "spawn_main" in line}


@pytest.fixture
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    template = _pg_template(tmp_path_factory)
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    yield _pg_url(name)
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.dispose()


@pytest.mark.timeout(300)  # three processes start on a machine that may be busy
def test_two_workers_share_the_limit_and_a_killed_worker_is_replaced(database: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PLATFORM_DATABASE_URL": database,
        "PLATFORM_SECRET_KEY": TEST_SECRET,
        "PLATFORM_FORCE_HTTPS": "0",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--workers", "2", "--port", "0", "--data-dir", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:"), line + (proc.stderr.read() if proc.stderr else "")
        url = line.split()[-1]
        deadline = time.monotonic() + 120
        while len(worker_pids(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        first = worker_pids(proc.pid)
        assert len(first) == 2
        creds = {"email": "owner@demo.test", "password": "demo-password"}
        # A new connection per request: the kernel hands them to either worker.
        answers = [httpx.post(f"{url}/api/auth/login", json=creds) for _ in range(7)]
        assert [r.status_code for r in answers] == [200] * 5 + [429] * 2
        assert [r.headers["x-ratelimit-remaining"] for r in answers] == ["4", "3", "2", "1", "0", "0", "0"]
        refused = answers[5]
        assert refused.headers["x-ratelimit-limit"] == "5" and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["code"] == "RATE_LIMITED"
        # Whichever worker answers /metrics counts every worker's requests (multiprocess mode).
        for _ in range(4):
            text = httpx.get(f"{url}/metrics").text
            assert 'platform_http_requests_total{method="POST",route="/api/auth/login",status="200"} 5.0' in text
            assert 'platform_http_requests_total{method="POST",route="/api/auth/login",status="429"} 2.0' in text

        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        assert httpx.get(f"{url}/health").json() == {"status": "ok"}  # the other one answers meanwhile
        while time.monotonic() < deadline:
            now = worker_pids(proc.pid)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.1)
        assert len(now) == 2 and victim not in now
    finally:
        proc.terminate()
        proc.wait(timeout=30)
