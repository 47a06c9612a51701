"""The translation files: every .ts complete, every .qm compiled from its .ts as it is now."""

from __future__ import annotations

import re
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


# Common English words that are not German words too ("Scan", "Status", "Code" are both): one of
# them in a German translation is a half-translated template or a value put into one.
ENGLISH_WORDS = (
    "the", "and", "you", "your", "before", "with", "order", "orders", "please", "cannot", "file", "files",
    "item", "items", "change", "changes", "from", "this", "that", "when", "which", "should", "again", "here",
)  # fmt: skip
_ENGLISH = re.compile(r"(?<![\w{])(" + "|".join(ENGLISH_WORDS) + r")(?![\w}])", re.IGNORECASE)


def english_in_german(ts: Path) -> list[str]:
    """German translations holding an English word, or a plural spelt out ("Datei(en)") instead of
    Qt's numerus forms; and sources counting with %n that are not plurals (one form for every count)."""
    found = []
    for e in entries(ts):
        if ("%n" in e.source or "%Ln" in e.source) and not e.numerus:
            found.append(f"{e.source!r}: a count without plural forms (tr(text, '', n) with a number)")
        forms = e.translation if isinstance(e.translation, list) else [e.translation or ""]
        for form in forms:
            bare = re.sub(r"\{[^}]*\}|<[^>]+>|&\w+;", " ", form)  # placeholders and markup are not words
            if _ENGLISH.search(bare) or re.search(r"\w\((e?n|s|e)\)", bare):
                found.append(f"{e.source!r} -> {form!r}")
    return found


@pytest.mark.parametrize("ts", sorted(I18N_DIR.glob("de/*.ts")), ids=lambda p: p.name)
def test_no_english_words_and_no_spelt_out_plurals_in_german(ts: Path) -> None:
    assert english_in_german(ts) == []


def test_the_english_and_plural_check_can_fail(tmp_path: Path) -> None:
    ts = tmp_path / "x.ts"
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de_DE"><context>'
        "<name>C</name>"
        "<message><source>Open an order before you {what}</source>"
        "<translation>Öffnen Sie einen Auftrag, bevor Sie {what}</translation></message>"
        "<message><source>{count} file(s) attached</source><translation>{count} Datei(en) angehängt</translation>"
        "</message><message><source>%n rows</source><translation>%n Zeilen</translation></message>"
        "<message><source>Reply to the customer</source><translation>Antwort to the Kunde</translation></message>"
        "</context></TS>",
        encoding="utf-8",
    )
    found = english_in_german(ts)
    assert len(found) == 3 and "Datei(en)" in found[0] and "a count without plural forms" in found[1], found
    assert "Antwort to the Kunde" in found[2]


def test_counts_read_right_in_english_and_german(qapp: object) -> None:
    from PySide6.QtCore import QCoreApplication

    from tests.views.german import app_language
    from views.i18n import install

    tr = QCoreApplication.translate
    with app_language("en"):  # afterwards, as the other tests expect: no translator, the locale as before
        assert tr("AdminWorkspace", "%n modules enabled", "", 1) == "1 module enabled"
        assert tr("TicketTab", "%n file(s) attached", "", 3) == "3 files attached"
        install(QCoreApplication.instance(), "de")  # type: ignore[arg-type]
        assert tr("TicketTab", "%n file(s) attached", "", 1) == "1 Datei angehängt"
        assert tr("TicketTab", "%n file(s) attached", "", 2) == "2 Dateien angehängt"
