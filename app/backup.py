"""``python -m app backup`` and ``restore``: a data dir (a station's or the server's) in one file.

The file is a gzip'd tar: the database and everything else of the data dir that is not derived
(the secret key, the station id, uploaded files under ``files/``, kept mail). SQLite is copied with
its online backup API, so a backup taken while the app writes is one consistent moment of the
database (never a file caught half-written); PostgreSQL is dumped by ``pg_dump`` in its custom
format (restored by ``pg_restore``). Restore goes into a new or empty data dir only: a restore never
mixes two data dirs.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from pathlib import Path

from sqlalchemy.engine import make_url

from app.settings import Settings

SQLITE_NAME = "data.db"
PG_NAME = "database.pgdump"
# Not copied: SQLite's journal files (the backup API copies their content), the metrics of running
# workers, and files a restore would make anew.
SKIPPED = {SQLITE_NAME, f"{SQLITE_NAME}-wal", f"{SQLITE_NAME}-shm", f"{SQLITE_NAME}-journal", "metrics"}


class BackupError(Exception):
    pass


def _pg_url(url: str) -> str:
    """The libpq form of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://`` -> ``postgresql://``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def backup(data_dir: Path, out: Path) -> Path:
    """Write the data dir's backup to ``out`` (a .tar.gz); answers ``out``."""
    if not data_dir.is_dir():
        raise BackupError(f"{data_dir} is not a data dir")
    url = Settings(data_dir=data_dir).resolved_database_url()
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp)
        if url.startswith("sqlite"):
            src_path = make_url(url).database or ""
            if not Path(src_path).exists():
                raise BackupError(f"no database at {src_path}")
            src = sqlite3.connect(src_path)
            dst = sqlite3.connect(staged / SQLITE_NAME)
            try:
                src.backup(dst)  # online: pages copied under SQLite's own locking, one consistent moment
            finally:
                dst.close()
                src.close()
        elif url.startswith("postgresql"):
            if shutil.which("pg_dump") is None:
                raise BackupError("pg_dump is not installed (Debian: postgresql-client)")
            done = subprocess.run(
                ["pg_dump", "--format=custom", "--no-owner", "--file", str(staged / PG_NAME), _pg_url(url)],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise BackupError(f"pg_dump failed: {done.stderr.strip()[:500]}")
        else:
            raise BackupError(f"cannot back up a database of this kind: {make_url(url).drivername}")
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(out.name + ".partial")
        with tarfile.open(partial, "w:gz") as tar:
            for entry in sorted(staged.iterdir()):
                tar.add(entry, arcname=entry.name)
            for entry in sorted(data_dir.iterdir()):
                if entry.name not in SKIPPED and not entry.name.startswith("."):
                    tar.add(entry, arcname=entry.name)
        os.replace(partial, out)  # a backup cut short never looks like a whole one
    return out


def restore(data_dir: Path, archive: Path) -> Path:
    """Unpack ``archive`` into a new or empty ``data_dir`` (and, for a PostgreSQL dump, into the empty
    database ``PLATFORM_DATABASE_URL`` names); answers the data dir."""
    if data_dir.exists() and any(data_dir.iterdir()):
        raise BackupError(f"{data_dir} is not empty: restore into a new or empty data dir")
    if not archive.is_file():
        raise BackupError(f"{archive} is not a backup file")
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(archive, "r:gz") as tar:
            tar.extractall(data_dir, filter="data")  # refuses absolute paths, .. and links out of the dir
    except (tarfile.TarError, OSError) as exc:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise BackupError(f"{archive} is not a backup this program wrote: {exc}") from exc
    db = data_dir / SQLITE_NAME
    dump = data_dir / PG_NAME
    if db.exists():
        with sqlite3.connect(db) as c:
            check = c.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise BackupError(f"the restored database fails its integrity check: {check}")
    elif dump.exists():
        url = os.environ.get("PLATFORM_DATABASE_URL", "")
        if not url.startswith("postgresql"):
            raise BackupError("a PostgreSQL backup restores into PLATFORM_DATABASE_URL (an empty database)")
        done = subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", _pg_url(url), str(dump)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed: {done.stderr.strip()[:500]}")
        dump.unlink()
    else:
        raise BackupError(f"{archive} holds no database")
    return data_dir
