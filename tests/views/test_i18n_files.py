"""The translation files: every .ts complete, every .qm compiled from its .ts as it is now."""

from __future__ import annotations

from pathlib import Path

import pytest

from views.i18n import I18N_DIR, qm_files, release
from views.i18n.ts import entries, fill, missing

TS_FILES = sorted(I18N_DIR.glob("*/*.ts"))


def test_there_are_translations() -> None:
    assert {p.stem for p in TS_FILES} >= {"shell"}


@pytest.mark.parametrize("ts", TS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_unfinished_entry(ts: Path) -> None:
    gaps = missing(ts)
    assert not gaps, f"{ts.name}: untranslated (python -m views.i18n missing {ts.stem}): {gaps}"
    for e in entries(ts):
        # A template's placeholders must survive translation, or .format() raises in German.
        forms = e.translation if isinstance(e.translation, list) else [e.translation or ""]
        for form in forms:
            for ph in _placeholders(e.source):
                assert ph in form, f"{ts.name}: {e.source!r} -> {form!r} lost {ph}"


@pytest.mark.parametrize("ts", TS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_qm_is_current(ts: Path, tmp_path: Path) -> None:
    qm = ts.with_suffix(".qm")
    if not qm.exists():
        # Not committed: the loader compiles it when the app starts (views.i18n.qm_files).
        (built,) = [p for p in qm_files(ts.parent.name) if p.name == qm.name]
        assert built.stat().st_size > 0 and built != qm
        return
    fresh = release(ts, tmp_path / qm.name)
    assert fresh.read_bytes() == qm.read_bytes(), f"{qm.name} is stale: run make translations"


def _placeholders(text: str) -> set[str]:
    import re

    return set(re.findall(r"\{[a-z_]\w*\}|%n", text))


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """An unfinished entry is found, a filled one is not, a lost placeholder is caught."""
    ts = tmp_path / "x.ts"
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de_DE"><context>'
        "<name>C</name><message><source>Order {number}</source>"
        '<translation type="unfinished"></translation></message></context></TS>',
        encoding="utf-8",
    )
    assert missing(ts) == {"C": {"Order {number}": ""}}
    assert fill(ts, {"C": {"Order {number}": "Auftrag {nummer}"}}) == 1
    assert missing(ts) == {}
    (e,) = entries(ts)
    assert _placeholders(e.source) - _placeholders(str(e.translation)) == {"{number}"}
    qm = release(ts, tmp_path / "x.qm")
    assert qm.stat().st_size > 0
