"""Backup while the app writes, restore into a new data dir: a database that passes its integrity
check and holds every write acknowledged before the backup began, with no gap after."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from app.backup import BackupError, backup, restore
from app.wiring import station_runtime
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from tests.conftest import PG_URL, TEST_SECRET, _pg_admin, _pg_url, new_pg_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_a_backup_taken_during_writes_restores_every_acknowledged_write(station: Runtime, tmp_path: Path) -> None:
    tenant = auth.load_tenant(station.db, "demo")
    principal = auth.user_principal(station.db, demo_id("user", "admin@demo.test"), tenant)
    acked: list[str] = []
    stop = threading.Event()

    def write() -> None:
        i = 0
        while not stop.is_set() and i < 400:
            body = {"subject": f"Backup write {i:04d}", "description": "x", "email": "b@example.test", "name": "B"}
            execute(Ctx(station, tenant, principal), "support.tickets.create", body=body)
            acked.append(f"Backup write {i:04d}")  # acknowledged: the call returned after its commit
            i += 1

    writer = threading.Thread(target=write)
    writer.start()
    while len(acked) < 20:
        threading.Event().wait(0.01)
    before = list(acked)
    (station.data_dir / "files").mkdir(exist_ok=True)
    (station.data_dir / "files" / "kept.bin").write_bytes(b"file bytes")
    out = backup(station.data_dir, tmp_path / "backups" / "station.tar.gz")
    stop.set()
    writer.join(timeout=120)
    restored = restore(tmp_path / "restored", out)
    with sqlite3.connect(restored / "data.db") as c:
        assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        have = {s for (s,) in c.execute("SELECT subject FROM support_tickets WHERE subject LIKE 'Backup write %'")}
    assert set(before) <= have  # every write acknowledged before the backup began
    assert have == set(acked[: len(have)])  # one moment: a prefix of the writes, no gap
    assert (restored / "files" / "kept.bin").read_bytes() == b"file bytes"
    assert (restored / "secret.key").read_text() == (station.data_dir / "secret.key").read_text()
    rt = station_runtime(restored, "restored")  # the restored dir opens as a station
    try:
        with rt.db.reading(None) as s:
            assert s.connection().exec_driver_sql("SELECT count(*) FROM support_tickets").scalar_one() >= len(have)
    finally:
        rt.db.dispose()


def test_restore_refuses_a_data_dir_in_use_and_a_file_that_is_no_backup(station: Runtime, tmp_path: Path) -> None:
    out = backup(station.data_dir, tmp_path / "b.tar.gz")
    with pytest.raises(BackupError, match="not empty"):
        restore(station.data_dir, out)
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not a tar")
    with pytest.raises(BackupError, match="not a backup"):
        restore(tmp_path / "new", junk)
    assert not (tmp_path / "new").exists()  # nothing half-restored is left behind


def test_the_commands_back_up_and_restore(station: Runtime, tmp_path: Path) -> None:
    station.db.dispose()
    run = lambda *a: subprocess.run([sys.executable, "-m", "app", *a], cwd=ROOT, capture_output=True, text=True,  # noqa: E731
                                    timeout=120)  # fmt: skip
    r = run("backup", "--data-dir", str(station.data_dir), "--out", str(tmp_path / "x.tar.gz"))
    assert r.returncode == 0 and "backup written to" in r.stdout, r.stderr
    r = run("restore", "--data-dir", str(tmp_path / "again"), str(tmp_path / "x.tar.gz"))
    assert r.returncode == 0 and (tmp_path / "again" / "data.db").exists(), r.stderr
    r = run("restore", "--data-dir", str(tmp_path / "again"), str(tmp_path / "x.tar.gz"))
    assert r.returncode == 1 and r.stderr.startswith("error: ") and "not empty" in r.stderr


@pytest.mark.skipif(not PG_URL, reason="needs PLATFORM_TEST_POSTGRES_URL")
def test_a_server_on_postgresql_backs_up_with_pg_dump_and_restores_into_an_empty_database(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import create_engine

    source, target = new_pg_database(tmp_path_factory), f"t_{uuid.uuid4().hex[:16]}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {target}")
    try:
        data = tmp_path / "server"
        data.mkdir()
        (data / "secret.key").write_text(TEST_SECRET)
        monkeypatch.setenv("PLATFORM_DATABASE_URL", _pg_url(source))
        out = backup(data, tmp_path / "server.tar.gz")
        monkeypatch.setenv("PLATFORM_DATABASE_URL", _pg_url(target))
        restore(tmp_path / "restored", out)
        counts = []
        for name in (source, target):
            eng = create_engine(_pg_url(name))
            with eng.connect() as c:
                counts.append(
                    [c.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar_one() for t in ("support_tickets", "users")]
                )
            eng.dispose()
        assert counts[0] == counts[1] and counts[0][0] > 0
        assert (tmp_path / "restored" / "secret.key").read_text() == TEST_SECRET
        assert not (tmp_path / "restored" / "database.pgdump").exists()
    finally:
        with admin.connect() as c:
            for name in (source, target):
                c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()
