"""A server's and a station's data dir are readable by their owner only (issue 13, item 14)."""

from __future__ import annotations

import stat
from pathlib import Path

from sqlalchemy import text

from app.settings import Settings
from app.wiring import platform_runtime, station_runtime
from services.core.context import Runtime


def _modes(data_dir: Path) -> dict[str, int]:
    out = {".": stat.S_IMODE(data_dir.stat().st_mode)}
    for p in data_dir.rglob("*"):
        out[str(p.relative_to(data_dir))] = stat.S_IMODE(p.stat().st_mode)
    return out


def _world_readable_leftovers(data_dir: Path) -> None:
    """The issue's state: a data dir written before, data.db and a blob 0644, the dir 0755."""
    (data_dir / "blobs" / "t1").mkdir(parents=True)
    (data_dir / "blobs" / "t1" / "ab12").write_bytes(b"file")
    (data_dir / "mail").mkdir()
    (data_dir / "mail" / "1.eml").write_text("To: someone@example.test")
    for p in [data_dir, *data_dir.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)


def _check(rt: Runtime, data_dir: Path) -> None:
    with rt.db.engine.begin() as conn:  # a write: -wal and -shm exist
        conn.execute(text("CREATE TABLE IF NOT EXISTS probe (x INTEGER)"))
        conn.execute(text("INSERT INTO probe VALUES (1)"))
    (data_dir / "blobs" / "t1" / "new").write_bytes(b"written after opening")
    modes = _modes(data_dir)
    for name in ("data.db", "data.db-wal", "data.db-shm", "secret.key", "blobs/t1/ab12", "blobs/t1/new", "mail/1.eml"):
        assert modes.get(name) == 0o600, (name, oct(modes.get(name, 0)))
    for name in (".", "blobs", "blobs/t1", "mail"):
        assert modes[name] == 0o700, (name, oct(modes[name]))
    assert all(m & 0o077 == 0 for m in modes.values()), {k: oct(v) for k, v in modes.items()}


def test_a_server_data_dir_is_owner_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "server"
    data_dir.mkdir()
    (data_dir / "data.db").touch()
    _world_readable_leftovers(data_dir)
    rt = platform_runtime(Settings(data_dir=data_dir))  # no configured secret: secret.key is made here
    try:
        _check(rt, data_dir)
    finally:
        rt.db.engine.dispose()


def test_a_station_data_dir_is_owner_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "station"
    data_dir.mkdir()
    _world_readable_leftovers(data_dir)
    rt = station_runtime(data_dir, "station-test")
    try:
        _check(rt, data_dir)
    finally:
        rt.db.engine.dispose()
