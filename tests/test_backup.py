"""Issue 37, part 3: a backup taken while another connection writes restores to a database that
passes PRAGMA integrity_check and holds every write acknowledged before the backup began."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.__main__ import main
from app.backup import BackupError, backup, restore


def _writer(db: Path, acked: list[int], stop: threading.Event, started: threading.Event) -> None:
    conn = sqlite3.connect(db, timeout=60)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS backup_probe (n INTEGER PRIMARY KEY, pad TEXT)")
    n = 0
    while not stop.is_set():
        n += 1
        with conn:  # committed when the block ends: only then is the write acknowledged
            conn.execute("INSERT INTO backup_probe VALUES (?, ?)", (n, "x" * 2000))
        acked.append(n)
        if n == 200:
            started.set()
    conn.close()


def test_a_backup_during_writes_restores_whole_and_consistent(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "secret.key").write_text("k" * 40)
    (data / "files").mkdir()
    (data / "files" / "a.txt").write_text("kept file")
    sqlite3.connect(data / "data.db").execute("PRAGMA journal_mode=WAL").fetchall()
    acked: list[int] = []
    stop, started = threading.Event(), threading.Event()
    t = threading.Thread(target=_writer, args=(data / "data.db", acked, stop, started))
    t.start()
    try:
        assert started.wait(60)
        before = list(acked)  # acknowledged before the backup began
        out = tmp_path / "out" / "station.tar.gz"
        assert main(["backup", "--data-dir", str(data), "--out", str(out)]) == 0
        during = len(acked) - len(before)
    finally:
        stop.set()
        t.join(60)
    assert during >= 0 and out.stat().st_mode & 0o077 == 0
    target = tmp_path / "restored"
    assert main(["restore", "--data-dir", str(target), str(out)]) == 0
    conn = sqlite3.connect(target / "data.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    held = {r[0] for r in conn.execute("SELECT n FROM backup_probe")}
    conn.close()
    assert set(before) <= held
    # A snapshot, not a torn copy: the rows held are 1..max with no hole.
    assert held == set(range(1, max(held) + 1))
    assert (target / "secret.key").read_text() == "k" * 40
    assert (target / "files" / "a.txt").read_text() == "kept file"


def test_restore_refuses_a_non_empty_directory_and_a_file_that_is_no_backup(tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "data.db").write_bytes(b"")
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not an archive")
    with pytest.raises(BackupError, match="not empty"):
        restore(full, junk)
    with pytest.raises(BackupError, match="cannot be read"):
        restore(tmp_path / "new1", junk)
    assert not (tmp_path / "new1" / "data.db").exists()
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "missing", tmp_path / "x.tar.gz")
    assert not (tmp_path / "x.tar.gz").exists()
    with pytest.raises(SystemExit):
        main(["restore", "--data-dir", str(full), str(junk)])


def test_a_postgresql_data_dir_is_sent_to_pg_dump(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLATFORM_DATABASE_URL", "postgresql+psycopg://u@localhost/db")
    with pytest.raises(BackupError, match="pg_dump"):
        backup(tmp_path, tmp_path / "x.tar.gz")
