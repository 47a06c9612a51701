"""A change made to the station's file by another process reaches the open workspaces, with real
widgets and a real second process (``python -m app call`` on the same data dir)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot
from sqlalchemy import text

from services.core.context import CommitInfo, Runtime
from services.core.watch import OtherWriters
from tests.views.test_pull_refresh import opened
from views.records.workspace import RecordsWorkspace


def test_a_commit_by_another_process_refreshes_the_open_workspace(qtbot: QtBot, station: Runtime) -> None:
    ws = opened(qtbot, station, RecordsWorkspace)
    seen: list[CommitInfo] = []
    ws.session.ops.changed.connect(seen.append)
    data_dir = Path(station.data_dir)
    body = {"subject": "From the command line", "email": "cli@example.com", "name": "Cli", "description": "x"}
    r = subprocess.run(
        [sys.executable, "-m", "app", "call", "--data-dir", str(data_dir), "--user", "operator@demo.test",
         "support.tickets.create", "--body", json.dumps(body)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    qtbot.waitUntil(lambda: any(c.origin == "process" for c in seen), timeout=30_000)


def test_this_process_own_commits_are_not_taken_for_another_s(station: Runtime) -> None:
    writers = OtherWriters(station)
    told: list[CommitInfo] = []
    station.after_commit.append(told.append)
    try:
        assert writers.active and not writers.poll()
        with station.db.transaction(None) as s:  # a commit of this process, on its own engine
            s.execute(text("update tenants set name = name || '!'"))
        assert not writers.poll() and not writers.poll()
        assert not any(c.origin == "process" for c in told)
        with sqlite3.connect(Path(station.data_dir) / "data.db") as other:  # any connection not ours
            other.execute("update tenants set name = name || '?'")
        assert writers.poll() and writers.poll() is False
        assert [c.origin for c in told if c.origin == "process"] == ["process"]
    finally:
        station.after_commit.remove(told.append)
        writers.close()
