"""Render docs/screenshots/sync.png: the Sync panel with sync issues, and the status bar.

QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_sync.py [--out FILE] [--theme kiosk]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.desktop import sync_screenshot  # noqa: E402

if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path("docs/screenshots/sync.png"))
    p.add_argument("--theme", choices=["light", "dark", "kiosk"])
    p.add_argument("--size", default="1280x860")
    a = p.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    raise SystemExit(sync_screenshot(a.out, (w, h), a.theme))
