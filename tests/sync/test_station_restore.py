"""``python -m app register-station --restore``: a station whose disk is lost is made again from the
platform alone (a real platform process, a real station, the command as a person types it)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from services.core.demo import DEMO_PASSWORD
from tests.sync.conftest import PlatformProcess, Station, owner_token

ROOT = Path(__file__).resolve().parents[2]


def app(*args: str, password: str = DEMO_PASSWORD) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PLATFORM_PASSWORD": password}
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=180, env=env
    )


def restore(data_dir: Path, url: str, station_id: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return app(
        "register-station", "--restore", "--data-dir", str(data_dir), "--platform-url", url,
        "--tenant", "demo", "--email", "owner@demo.test", "--station-id", station_id, **kw,
    )  # fmt: skip


def ticket(s: Station, subject: str) -> Any:
    return s.do("support.tickets.create", body={"subject": subject, "description": "It broke.",
                                                "email": "ann@example.test", "name": "Ann"})  # fmt: skip


def demo_rows(db: Path, table: str) -> set[str]:
    with sqlite3.connect(db) as c:
        tenant = c.execute("SELECT id FROM tenants WHERE slug = 'demo'").fetchone()[0]
        return {r[0] for r in c.execute(f"SELECT id FROM {table} WHERE tenant_id = ?", (tenant,))}


def test_a_lost_station_is_restored_from_the_platform_alone(
    platform: PlatformProcess, make_station: Any, tmp_path: Path
) -> None:
    lost = make_station("bench-lost", platform)
    sent = ticket(lost, "sent before the disk died")
    assert lost.sync().pending == 0
    unsent = ticket(lost, "made offline, never sent")
    lost.close()  # the disk is gone, with the change it had not sent

    new_dir = tmp_path / "bench-new"
    r = restore(new_dir, platform.url, "bench-lost")
    assert r.returncode == 0, r.stderr
    assert f"station bench-lost restored from {platform.url} for demo: Synced" in r.stdout
    assert "not yet sent to the platform are not there, and are lost" in r.stdout

    back = Station(new_dir, "bench-lost")
    try:
        assert (new_dir / "station-id").read_text() == "bench-lost"
        # Every record of the tenant came back from the platform; the unsent change did not.
        for table in ("support_tickets", "fulfillment_orders", "inventory_items", "memberships"):
            assert demo_rows(new_dir / "data.db", table) == demo_rows(platform.data_dir / "data.db", table), table
        tickets = demo_rows(new_dir / "data.db", "support_tickets")
        assert sent.id in tickets and unsent.id not in tickets
        # People sign in on it as before (users and memberships were pulled).
        assert back.ctx("operator@demo.test").principal.role == "operator"

        # Its next change goes on after the platform's last number from this station: applied, no issue.
        later = ticket(back, "made on the restored station")
        status = back.sync()
        assert (status.pending, status.issues) == (0, 0), back.outbox()
        assert later.id in demo_rows(platform.data_dir / "data.db", "support_tickets")
    finally:
        back.close()
    # The lost station's secret is revoked: a copy of the old disk found later cannot push.
    listed = httpx.get(
        f"{platform.url}/api/tenants/demo/sync/stations",
        headers={"Authorization": f"Bearer {owner_token(platform.url)}"},
        timeout=10,
    ).json()["data"]
    assert [s["revokedAt"] for s in listed if s["stationId"] == "bench-lost"] == [None]


def test_restore_refuses_a_used_data_dir_an_unknown_station_and_a_wrong_password(
    platform: PlatformProcess, make_station: Any, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    from app.__main__ import main

    def restore_here(data_dir: Path, station_id: str, password: str = DEMO_PASSWORD) -> tuple[int, str]:
        # In this process (the command's parsing and code, without a Python start per refusal).
        monkeypatch.setenv("PLATFORM_PASSWORD", password)
        argv = ["register-station", "--restore", "--data-dir", str(data_dir), "--platform-url", platform.url,
                "--tenant", "demo", "--email", "owner@demo.test", "--station-id", station_id]  # fmt: skip
        code = main(argv)
        return code, capsys.readouterr().err

    used = make_station("bench-used", platform)
    before = sorted(p.name for p in used.data_dir.iterdir())
    code, err = restore_here(used.data_dir, "bench-used")
    assert code == 1 and "is not empty; --restore takes a new or empty data dir" in err
    assert sorted(p.name for p in used.data_dir.iterdir()) == before

    nowhere = tmp_path / "nowhere"
    code, err = restore_here(nowhere, "never-registered")
    assert code == 1 and "station 'never-registered' is not registered with the platform" in err
    assert not nowhere.exists()  # nothing made

    code, err = restore_here(nowhere, "bench-used", password="not-the-password")
    assert code == 1 and "signing in failed" in err and "not-the-password" not in err
    assert not nowhere.exists()
    assert used.sync().issues == 0  # the station itself was left registered

    r = app("register-station", "--restore", "--data-dir", str(nowhere), "--platform-url", platform.url,
            "--tenant", "demo", "--email", "owner@demo.test")  # fmt: skip
    assert r.returncode == 2 and "--restore and --station-id go together" in r.stderr
