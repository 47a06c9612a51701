"""The command line of CONTRACT.md, run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.settings import VERSION

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)  # fmt: skip


def test_version() -> None:
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"platform-station {VERSION}"


def test_bad_argument_is_one_line_and_exit_2() -> None:
    for args in (
        ["--bogus"],
        ["serve", "--port", "eighty"],
        ["screenshot", "--workspace", "moon", "--out", "x.png"],
        ["serve", "--workers", "0"],
        ["serve", "--workers", "2", "--data-dir", "/nonexistent/sqlite"],  # several workers need PostgreSQL
    ):
        r = run(*args)
        assert r.returncode == 2, args
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_seed_demo_is_idempotent(tmp_path: Path) -> None:
    import sqlite3

    for _ in range(2):
        r = run("seed-demo", "--data-dir", str(tmp_path))
        assert r.returncode == 0, r.stderr
    with sqlite3.connect(tmp_path / "data.db") as c:
        assert c.execute("select count(*) from users").fetchone()[0] == 5
        assert c.execute("select slug from tenants order by slug").fetchall() == [("demo",), ("other",)]


def test_serve_prints_listening_and_answers(tmp_path: Path) -> None:
    env = {**os.environ, "PLATFORM_SECRET_KEY": "cli-test-secret-0123456789abcdefghij"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--demo", "--port", "0", "--data-dir", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if line.startswith("listening on ") or proc.poll() is not None:
                break
        assert line.startswith("listening on http://127.0.0.1:"), line + (proc.stderr.read() if proc.stderr else "")
        url = line.split()[-1]
        assert httpx.get(f"{url}/health").json() == {"status": "ok"}
        r = httpx.post(f"{url}/api/auth/login", json={"email": "owner@demo.test", "password": "demo-password"})
        assert r.status_code == 200
        assert "service_token" in r.cookies or "service_token" in r.headers.get("set-cookie", "")
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_embedded_platform_server_for_demo(tmp_path: Path) -> None:
    from app.server import EmbeddedServer
    from app.settings import Settings

    srv = EmbeddedServer(Settings(data_dir=tmp_path / "platform", demo=True, secret_key="e" * 40))
    url = srv.start()
    try:
        assert srv.wait_started(60), srv.error
        assert httpx.get(f"{url}/health").json() == {"status": "ok"}
        r = httpx.post(f"{url}/api/auth/login", json={"email": "device@demo.test", "password": "demo-password"})
        assert r.status_code == 200
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo data dir for the ``call`` tests (each call is a process of its own)."""
    path = tmp_path_factory.mktemp("call")
    assert run("seed-demo", "--data-dir", str(path)).returncode == 0
    return path


def test_call_runs_a_use_case_by_name_as_a_person(seeded: Path) -> None:
    """``call``: a write queued in the station's outbox like a change made at the desk, read back by id."""
    import json
    import sqlite3

    body = {"subject": "Printer jam", "email": "ann@example.com", "name": "Ann", "description": "jammed"}
    r = run("call", "--data-dir", str(seeded), "--user", "operator@demo.test", "support.tickets.create",
            "--body", json.dumps(body))  # fmt: skip
    assert r.returncode == 0, r.stderr
    made = json.loads(r.stdout)["data"]
    assert made["subject"] == "Printer jam" and made["state"] == "open"
    with sqlite3.connect(seeded / "data.db") as c:
        assert c.execute("select command from outbox where status = 'pending'").fetchall() == [
            ("support.tickets.create",)
        ]
    r = run("call", "--data-dir", str(seeded), "--user", "operator@demo.test", "--tenant", "demo",
            "support.tickets.get", "--param", f"ticket_id={made['id']}")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["data"]["id"] == made["id"]
    r = run("call", "--data-dir", str(seeded), "--user", "owner@demo.test", "fulfillment.orders.list",
            "--param", "limit=2", "--param", "status=pending")  # fmt: skip
    page = json.loads(r.stdout)
    assert r.returncode == 0 and len(page["data"]) == 2 and page["meta"]["limit"] == 2
    assert {o["status"] for o in page["data"]} == {"pending"}


def test_call_failures_print_the_error_envelope_and_exit_1(seeded: Path) -> None:
    import json

    cases = [
        (["no.such.thing"], "NOT_FOUND"),
        (["support.tickets.create", "--body", '{"subject": 1}'], "VALIDATION_ERROR"),
        (["support.tickets.create", "--body", "{not json"], "VALIDATION_ERROR"),
        (["support.tickets.get", "--param", "ticket_id=missing"], "NOT_FOUND"),
        (["platform.users.list"], "FORBIDDEN"),  # an operator may not list the tenant's people
    ]
    for args, code in cases:
        r = run("call", "--data-dir", str(seeded), "--user", "operator@demo.test", *args)
        assert r.returncode == 1, (args, r.stdout)
        envelope = json.loads(r.stderr.strip().splitlines()[-1])
        assert envelope["code"] == code and envelope["error"], (args, envelope)
        assert r.stdout == ""
    r = run("call", "--data-dir", str(seeded), "--user", "operator@demo.test", "x.y", "--param", "oops")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
