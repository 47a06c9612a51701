"""Names the desktop needs before anything heavy is imported (kept free of pydantic: start-up time)."""

from __future__ import annotations

from pathlib import Path

VERSION = "0.2.0"


def default_data_dir() -> Path:
    import platformdirs  # on use: ~5 ms of start-up when --data-dir is given

    return Path(platformdirs.user_data_dir("platform-station", "platform"))


def secure_data_dir(data_dir: Path) -> None:
    """Make a data dir readable by its owner only: the dir and its subdirs 0700, its files 0600
    (data.db, -wal, -shm, secret.key, blobs, mail). New files follow: the process's umask becomes
    0077 (set once, when a data dir is opened at start), and SQLite gives -wal and -shm the mode of
    data.db."""
    import os
    import stat

    os.umask(0o077)
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(data_dir, 0o700)
    for root, dirs, files in os.walk(data_dir):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o700)
        for name in files:
            path = os.path.join(root, name)
            if stat.S_ISREG(os.lstat(path).st_mode):
                os.chmod(path, 0o600)
