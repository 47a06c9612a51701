"""``python -m app backup`` and ``restore``: a data dir (database, secret key, stored files) in one
archive, taken while the app runs, and put back into a new or empty directory.

The database is copied with SQLite's online backup API (a consistent snapshot even while another
process writes: each step copies pages under a read lock, and a write in between restarts it),
never by copying the file, whose WAL may hold committed pages not yet in it.
"""

from __future__ import annotations

import os
import sqlite3
import tarfile
import tempfile
from pathlib import Path

DB_NAME = "data.db"
# Beside the database: the key its sealed secrets need, the kept files and mail.
KEPT = ("secret.key", "files", "mail")


class BackupError(Exception):
    """A clear refusal: the message says what to change."""


def _sqlite_path(data_dir: Path) -> Path:
    url = os.environ.get("PLATFORM_DATABASE_URL")
    if url and not url.startswith("sqlite"):
        raise BackupError("this data dir's database is PostgreSQL: back it up with pg_dump -Fc (docs/operations.md)")
    path = data_dir / DB_NAME
    if not path.is_file():
        raise BackupError(f"no database in {data_dir} ({DB_NAME} not found)")
    return path


def backup(data_dir: Path, out: Path) -> int:
    """Write the archive to ``out`` (through a temporary file: a failed backup leaves no half file).
    Returns the number of pages copied."""
    src_path = _sqlite_path(data_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        snap = Path(tmp) / DB_NAME
        src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True, timeout=60)
        dst = sqlite3.connect(snap)
        try:
            with dst:
                src.backup(dst, pages=1024)
            pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file in the archive
        finally:
            dst.close()
            src.close()
        partial = Path(tmp) / "archive.tar.gz"
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(snap, arcname=DB_NAME)
            for name in KEPT:
                if (data_dir / name).exists():
                    tar.add(data_dir / name, arcname=name)
        os.chmod(partial, 0o600)  # it holds the secret key
        partial.replace(out)
    return pages


def restore(data_dir: Path, archive: Path) -> None:
    """Unpack into a new or empty ``data_dir`` and check the database; refuse anything else."""
    if data_dir.exists() and any(data_dir.iterdir()):
        raise BackupError(f"{data_dir} is not empty: restore into a new or empty directory")
    if not archive.is_file():
        raise BackupError(f"no backup file at {archive}")
    try:
        with tarfile.open(archive, "r:gz") as tar:
            names = tar.getnames()
            if DB_NAME not in names:
                raise BackupError(f"{archive} is not a backup of this app (no {DB_NAME} inside)")
            data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            tar.extractall(data_dir, filter="data")  # no absolute paths, links out or devices
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise BackupError(f"{archive} cannot be read as a backup ({type(exc).__name__})") from exc
    conn = sqlite3.connect(data_dir / DB_NAME)
    try:
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    if verdict != "ok":
        raise BackupError(f"the restored database fails its integrity check: {verdict}")
