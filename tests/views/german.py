"""German in a test: the workspace's ``.ts`` compiled by the real ``pyside6-lrelease`` and installed
as the application's translator, and the English sources a ``.ts`` translates (to find any left)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTranslator

ROOT = Path(__file__).resolve().parents[2]
TS_DIR = ROOT / "views" / "i18n" / "de"
LRELEASE = Path(sys.executable).with_name("pyside6-lrelease")


def entries(package: str) -> list[tuple[str, str, list[str], bool]]:
    """(context, source, translations, finished) of every message in ``views/i18n/de/<package>.ts``."""
    found = []
    for ctx in ET.parse(TS_DIR / f"{package}.ts").getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            tr = m.find("translation")
            assert tr is not None
            forms = [f.text or "" for f in tr.iter("numerusform")] or [tr.text or ""]
            finished = tr.get("type") not in ("unfinished", "vanished", "obsolete") and all(forms)
            found.append((name, m.findtext("source") or "", forms, finished))
    return found


def english_left(texts: list[str], package: str) -> list[str]:
    """The texts shown that are still an English source whose German differs (left untranslated)."""
    changed = {src for _c, src, forms, _f in entries(package) if src not in forms}
    return [t for t in texts if t.rstrip("…") in changed or t in changed]


@contextmanager
def german(tmp: Path, *packages: str) -> Iterator[None]:
    """The packages' German installed for the duration (the app's own loader may add more)."""
    translators = []
    for package in packages:
        qm = tmp / f"{package}.qm"
        subprocess.run([str(LRELEASE), str(TS_DIR / f"{package}.ts"), "-qm", str(qm)], check=True, capture_output=True)
        tr = QTranslator()
        assert tr.load(str(qm)), qm
        QCoreApplication.installTranslator(tr)
        translators.append(tr)
    try:
        yield
    finally:
        for tr in translators:
            QCoreApplication.removeTranslator(tr)
