"""German in a test: a package's committed ``.qm`` installed as a translator for the duration, and
the English sources its ``.ts`` translates (to find a visible one left in English)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from views.i18n import I18N_DIR
from views.i18n.ts import entries as ts_entries


def entries(package: str) -> list[tuple[str, str, list[str], bool]]:
    """(context, source, translations, finished) of every message in ``views/i18n/de/<package>.ts``."""
    found = []
    for e in ts_entries(I18N_DIR / "de" / f"{package}.ts"):
        forms = e.translation if isinstance(e.translation, list) else [e.translation or ""]
        found.append((e.context, e.source, forms, e.translation is not None and all(forms)))
    return found


def english_left(texts: list[str], package: str) -> list[str]:
    """The texts shown that are still an English source whose German differs (left untranslated)."""
    changed = {src for _c, src, forms, _f in entries(package) if src not in forms}
    return [t for t in texts if t.rstrip("…") in changed or t in changed]


@contextmanager
def german(*packages: str) -> Iterator[None]:
    """The packages' German (their committed ``.qm``) installed for the duration."""
    translators = []
    for package in packages:
        tr = QTranslator()
        assert tr.load(str(I18N_DIR / "de" / f"{package}.qm")), package
        QCoreApplication.installTranslator(tr)
        translators.append(tr)
    try:
        yield
    finally:
        for tr in translators:
            QCoreApplication.removeTranslator(tr)


@contextmanager
def german_locale() -> Iterator[None]:
    """Germany's locale as the default (numbers, money, dates) for the duration, then the one before."""
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        yield
    finally:
        QLocale.setDefault(before)


@contextmanager
def app_language(language: str) -> Iterator[None]:
    """The desktop's own language set-up (``views.i18n.install``: every package's translators and
    the locale) for the duration, then none and the locale before, as the other tests expect."""
    import views.i18n

    app = QCoreApplication.instance()
    assert app is not None
    before = QLocale()
    views.i18n.install(app, language)
    try:
        yield
    finally:
        for old in views.i18n._installed:
            QCoreApplication.removeTranslator(old)
        views.i18n._installed.clear()
        QLocale.setDefault(before)
