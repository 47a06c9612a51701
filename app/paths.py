"""Names the desktop needs before anything heavy is imported (kept free of pydantic: start-up time)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

VERSION = "0.1.0"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("platform-station", "platform"))
