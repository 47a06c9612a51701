"""The desktop in two languages: Qt's translators, the language choice, locale-aware formats.

Every string a person reads goes through Qt's translation (``self.tr`` in a QObject subclass,
``QCoreApplication.translate("<Context>", ...)`` elsewhere). The sources are one ``.ts`` file per
views package in ``views/i18n/de/`` (``make translations`` runs lupdate and lrelease); the compiled
``.qm`` files are committed beside them so a clean checkout, a wheel and the PyInstaller build
need no Qt tools at run time (tests/views/test_i18n_files.py fails when one is stale).

Numbers, dates and money are written through ``QLocale()`` (``fmt_number``, ``fmt_money``,
``fmt_date``), so German shows ``1.234,50 €`` and ``27.11.2026``.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLibraryInfo, QLocale, QTime, QTranslator

I18N_DIR = Path(__file__).resolve().parent
VIEWS_DIR = I18N_DIR.parent
# The choices in Settings: stored value -> label (each label in its own language, so a person who
# cannot read the current one still finds theirs).
LANGUAGES: dict[str, str] = {"system": "System", "en": "English", "de": "Deutsch"}
_LOCALES = {
    "en": QLocale(QLocale.Language.English, QLocale.Country.UnitedStates),
    "de": QLocale(QLocale.Language.German, QLocale.Country.Germany),
}
_installed: list[QTranslator] = []  # kept alive: Qt holds only a pointer to an installed translator


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark ``text`` for lupdate under ``context`` and return it as is (translated where shown).

    PySide6's own is typed ``-> object``; lupdate reads the call by its name, so this one serves."""
    return text


def counted(context: str, text: str, n: int) -> str:
    """A count outside a QObject in its plural form (``"%Ln more"`` -> "1 more" / "3 more").

    lupdate marks a message as a plural only where the count is a number literal, so a module using
    this also lists the template as ``QCoreApplication.translate(context, text, "", 2)`` in a
    function that is never called (tests/views/test_i18n_files.py fails on a count without forms)."""
    return QCoreApplication.translate(context, text, "", n)


def resolve(language: str, system: QLocale | None = None) -> str:
    """The language to show: ``en`` or ``de``; ``system`` follows the system locale (German -> de)."""
    if language in _LOCALES:
        return language
    if language != "system":
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    system = system or QLocale.system()
    return "de" if system.language() == QLocale.Language.German else "en"


def qm_files(lang: str) -> list[Path]:
    """The compiled translations of ``lang``; a ``.ts`` without its ``.qm`` is compiled to a temp dir."""
    folder = I18N_DIR / lang
    if not folder.is_dir():
        return []
    out = []
    for ts in sorted(folder.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        out.append(qm if qm.exists() else release(ts, Path(tempfile.mkdtemp(prefix="i18n-")) / qm.name))
    return out


def install(app: QCoreApplication, language: str = "system") -> str:
    """Install the translators of ``language`` (replacing any installed before) and its locale.

    Returns the language shown (``en`` or ``de``). Call it before the first window is built: widgets
    take their text when they are made, so a change in Settings shows at the next start.
    """
    lang = resolve(language)
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    QLocale.setDefault(_LOCALES[lang])
    # English: the sources, plus the plural forms of counts ("%n page(s)" -> "1 page" / "3 pages").
    files = [*qm_files(lang)]
    if lang != "en":
        # Qt's own strings (Save, Cancel, the context menu of a text field) from Qt's catalogue.
        qt_dir = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
        files += [p for p in (qt_dir / f"qtbase_{lang}.qm",) if p.exists()]
    for path in files:
        tr = QTranslator(app)
        if not tr.load(str(path)):
            raise RuntimeError(f"cannot load the translation {path}")
        app.installTranslator(tr)
        _installed.append(tr)
    return lang


# --- formats ----------------------------------------------------------------------------


def _locale() -> QLocale:
    """The default locale; the "C" locale (no LANG, before ``install``) writes English (US) forms."""
    loc = QLocale()
    return _LOCALES["en"] if loc.language() == QLocale.Language.C else loc


def fmt_number(value: int | float | Decimal, decimals: int | None = None) -> str:
    """A number with the locale's grouping and decimal mark (``1,234.5`` / ``1.234,5``)."""
    loc = _locale()
    if decimals is None:
        if isinstance(value, int):
            return loc.toString(value)
        decimals = 2 if isinstance(value, Decimal) else 1
    return loc.toString(float(value), "f", decimals)


_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF"}


def fmt_money(amount: int | float | Decimal | None, currency: str = "EUR") -> str:
    """An amount in ``currency`` (major units) as the locale writes it: ``€1,234.50`` / ``1.234,50 €``."""
    if amount is None:
        return "-"
    return _locale().toCurrencyString(float(amount), _SYMBOLS.get(currency, currency), 2)


def fmt_date(value: dt.date | dt.datetime | None, *, time: bool = False, long: bool = False) -> str:
    """A date (with ``time=True`` also the time) in the locale's short or long format."""
    if value is None:
        return "-"
    loc = _locale()
    form = QLocale.FormatType.LongFormat if long else QLocale.FormatType.ShortFormat
    if isinstance(value, dt.datetime):
        if time:
            t = value
            return loc.toString(QDateTime(QDate(t.year, t.month, t.day), QTime(t.hour, t.minute, t.second)), form)
        value = value.date()
    return loc.toString(QDate(value.year, value.month, value.day), form)


def fmt_time(value: dt.datetime | dt.time, seconds: bool = False) -> str:
    """A time of day in the locale's form (24 h in German)."""
    t = value.time() if isinstance(value, dt.datetime) else value
    loc = _locale()
    return loc.toString(
        QTime(t.hour, t.minute, t.second), "HH:mm:ss" if seconds else loc.timeFormat(QLocale.FormatType.ShortFormat)
    )


# --- the tools (make translations) --------------------------------------------------------


def _tool(name: str) -> str:
    """lupdate/lrelease from the PySide6 wheel (no system Qt needed)."""
    import PySide6

    base = Path(PySide6.__file__).parent
    for candidate in (base / name, base / "Qt" / "libexec" / name, base / f"{name}.exe"):
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError(f"{name} is not in the PySide6 wheel at {base}")


def release(ts: Path, qm: Path) -> Path:
    """Compile one ``.ts`` to ``.qm`` (lrelease)."""
    qm.parent.mkdir(parents=True, exist_ok=True)
    import subprocess  # the translators' tools only: not on the app's start-up path

    subprocess.run([_tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)
    return qm


def sources(package: str) -> list[Path]:
    """The Python files whose strings go to ``de/<package>.ts`` (``common``: the top-level views/*.py)."""
    if package == "common":
        return sorted(p for p in VIEWS_DIR.glob("*.py") if p.name != "__init__.py")
    folder = VIEWS_DIR / package
    if not folder.is_dir():
        raise ValueError(f"no views package {package!r}")
    return sorted(folder.glob("*.py"))


def update(package: str, lang: str = "de") -> Path:
    """lupdate one package's ``.ts`` (keeps translations, drops strings no longer in the code).

    ``en``: only the counts (``-pluralonly``), whose English forms the source cannot hold; a form
    written "(s)" in the source is filled in here ("%n page(s)" -> "%n page", "%n pages")."""
    ts = I18N_DIR / lang / f"{package}.ts"
    ts.parent.mkdir(parents=True, exist_ok=True)
    files = [str(p) for p in sources(package)]
    target = {"de": "de_DE", "en": "en_US"}[lang]
    cmd = [_tool("lupdate"), "-silent", "-locations", "none", "-no-obsolete", "-target-language", target]
    import subprocess

    subprocess.run([*cmd, *(["-pluralonly"] if lang == "en" else []), *files, "-ts", str(ts)], check=True)
    if lang == "en":
        from views.i18n.ts import entries, fill, missing

        if not entries(ts):
            ts.unlink()
            ts.with_suffix(".qm").unlink(missing_ok=True)
            return ts
        todo = missing(ts)
        forms = {
            c: {s: [s.replace("(s)", ""), s.replace("(s)", "s")] for s in m if "(s)" in s} for c, m in todo.items()
        }
        fill(ts, forms)  # type: ignore[arg-type]
    return ts
